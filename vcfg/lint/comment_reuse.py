"""A lint after an edit inside a comment line, taken from the last lint of the
document (the language server lints a buffer on every change; typing in a comment
is the most common one).

A top-level comment on a line of its own sits between two statements: the
interpreter never reads it (`vcfg.launch.shell`), no word, launch, variable or
problem of the plan is on its line, and the rules read the text only at the plan's
positions.  The read of the new text is the last read with every position after the
edit moved by its length, and so is the lint: the last lint's findings, moved (no
finding is on the comment's line; lines, which messages quote, stay).  What else can
read a comment is checked, and any doubt makes a full lint instead (`edit_in_comment`):

- the first line (``#!``: which reader takes the file), a ``vcfg:`` in the comment
  (a suppression), ``==`` in it (`vcfg.launch.release.file_pin` reads a
  ``vllm==X.Y.Z`` anywhere), a trailing ``\\`` (`check_split`'s message quotes it);
- a ``\\r`` or NUL in the text, bytes that are not UTF-8 in the edit, a syntax error in
  the script, a text larger than one piece (`vcfg.launch.chunks`), a read that was not
  resumable, an internal error.

The disk is asked again, as a full lint would: the deployment's members (another
script naming this one may have appeared) and the rules that may read it (the
model rules, `rule_reuse.keepable`), run again on the last lint's launches; an
answer that differs makes a full lint.  tests/test_comment_reuse.py compares this
with a lint from scratch for every comment line of the corpus' scripts.
"""

from __future__ import annotations

import bisect
from typing import Any, Optional

from vcfg.launch.shell_reuse import edit_between
from vcfg.records import replace


def edit_in_comment(
    before: bytes, data: bytes, sigs: list[tuple[str, int, int]]
) -> Optional[tuple[int, int, int, int]]:
    """``(a, b, d, k)`` when ``data`` is ``before`` with bytes ``[a, b)`` replaced (``d``
    bytes longer) inside a top-level comment on a line of its own (``sigs``: the
    top-level syntax of ``before``, `shell_reuse._Record.sigs`; ``k``: the comment's
    index there), and nothing else may read that comment; else None."""
    if b"\r" in data or b"\x00" in data:
        return None
    a, b, b_new = edit_between(before, data)
    cut_old, cut_new = before[a:b], data[a:b_new]
    if b"\n" in cut_old or b"\n" in cut_new or b"\x00" in cut_new:
        return None
    try:  # (an invalid byte is a problem at its place: the first one must stay where it was)
        cut_old.decode("utf-8")
        cut_new.decode("utf-8")
    except UnicodeDecodeError:
        return None
    k = bisect.bisect_left([s for _, s, _ in sigs], a) - 1  # the last child starting before the edit
    if k < 0:
        return None
    typ, start, end = sigs[k]
    if typ != "comment" or not start < a or b > end:
        return None
    line_start = before.rfind(b"\n", 0, start) + 1
    if line_start == 0 or before[line_start:start].strip(b" \t"):
        return None  # the #! line, or a comment after a command on its line
    d = b_new - b
    for text in (before[start:end], data[start : end + d]):
        low = text.lower()
        if b"vcfg" in low or b"==" in text or text.rstrip().endswith(b"\\"):
            return None
        if b"vllm" in low and b"==" in data:
            return None  # a pin's name here, its ``==`` on a line after (``\s*`` spans lines)
    return a, b, d, k


def _moved_span(s: Any, path: str, a: int, b: int, d: int, line: int) -> Any:
    """``s`` with its bytes after the edit moved; None: it touches the edited line."""
    if s.file != path:
        return s
    if s.line <= line <= s.end_line:
        return None
    if s.start < 0 or s.end <= a:
        return s
    if s.start >= b:
        return s._replace(start=s.start + d, end=s.end + d)
    return None


def _moved(diags: list[Any], path: str, a: int, b: int, d: int, line: int) -> Optional[list[Any]]:
    out = []
    for x in diags:
        sp = _moved_span(x.span, path, a, b, d, line)
        if sp is None:
            return None
        fix = x.fix
        if fix is not None:
            edits = []
            for e in fix.edits:
                if e.path != path:
                    edits.append(e)
                    continue
                if e.line <= line <= e.end_line or a <= e.end and e.start < b:
                    return None
                edits.append(e if e.end < a else replace(e, start=e.start + d, end=e.end + d))
            fix = replace(fix, edits=tuple(edits))
        out.append(x if sp is x.span and fix is x.fix else replace(x, span=sp, fix=fix))
    return out


class CommentReuse:
    """The last lint of one document, for the next when only a comment changed
    (`engine.lint_text(reuse=...)`, through `rule_reuse.Reuse`)."""

    def __init__(self) -> None:
        #: (path, bytes, target, other buffers, result) of the last lint
        self.last: Optional[tuple[str, bytes, Any, Any, Any]] = None
        #: the file context of the last full lint, whose launches the disk rules ask again
        self.base: Any = None
        #: the top-level syntax of the last lint's text
        self.sigs: Optional[list[tuple[str, int, int]]] = None
        #: how many lints were taken from the one before (for `vcfg.stats`)
        self.taken = 0

    def remember(self, path: str, data: bytes, target: Any, others: Any, ctx: Any, result: Any, reuse: Any) -> None:
        """After a full lint: what the next one may take."""
        rec = reuse.shell.rec
        ok = (
            rec is not None
            and rec.data == data
            # a tree without errors (tree-sitter's recovery weighs what it skips, a
            # comment's length included), read to its end
            and len(reuse.shell.tree) == 2
            and ctx.plan.source_kind == "bash"
            and not result.internal_errors
            and not ctx.truncated
            and reuse.rules.alone
            and not ctx.plan.written_files
            # a --config file is read again by a full lint (it may have changed on disk)
            and not any(
                w.text is not None and w.text.startswith("--config") for i in ctx.plan.invocations for w in i.args
            )
        )
        self.last = (path, data, target, others, result) if ok else None
        self.base = ctx if ok else None
        self.sigs = list(rec.sigs) if ok else None

    def lint(self, path: str, data: bytes, target: Any, others: Any, reuse: Any) -> Any:
        """The lint of ``data`` taken from the last one, or None (lint it)."""
        last, sigs = self.last, self.sigs
        self.last = None  # whatever happens now, the next lint compares with this one's
        if last is None or sigs is None or last[0] != path or last[2] is not target or last[3] != others:
            return None
        before, result = last[1], last[4]
        got = edit_in_comment(before, data, sigs)
        if got is None:
            return None
        a, b, d, k = got
        line = before.count(b"\n", 0, a) + 1
        diags = _moved(result.diagnostics, path, a, b, d, line)
        if diags is None or not self._disk_unchanged(reuse):
            return None
        from vcfg.lint.engine import LintResult

        text = data.decode("utf-8", "replace")
        reuse.shell.absorb(k, d, data)
        self.sigs = [(t, s + d if s >= b else s, e + d if e >= b else e) for t, s, e in sigs]
        out = LintResult(
            diags,
            result.summary,
            {path: text},
            internal_errors=[],
            path_errors=list(result.path_errors),
            path_notes=list(result.path_notes),
        )
        self.last = (path, data, target, others, out)
        self.taken += 1
        return out

    def _disk_unchanged(self, reuse: Any) -> bool:
        """Whether the disk answers as it did for the last full lint: the same
        deployment (this file alone), the same findings of the rules that read it."""
        from vcfg.lint import deployments
        from vcfg.lint.context import FileContext, LaunchContext, Run
        from vcfg.lint.engine import _member_loader

        fc = self.base
        old_run = fc.run
        run = Run(fc.target, buffers=old_run.buffers, names=old_run.names)
        now = FileContext(path=fc.path, text=fc.text, plan=fc.plan, target=fc.target, data=fc.data, run=run)
        config = fc.target.config
        root = config.path.parent if config.path is not None else None
        deps = deployments.group_keyed([now], _member_loader(run), config.deployments, root, run.buffers)
        if any(len(dep.files) != 1 for _, dep in deps):
            return False
        launches: dict[int, Any] = {}
        for mod, lc, found in reuse.rules.outside:
            again = launches.get(id(lc))
            if again is None:
                again = launches[id(lc)] = LaunchContext(file=now, inv=lc.inv, args=lc.args, own_target=lc.own_target)
            try:
                if tuple(mod.check(again)) != found:
                    return False
            except Exception:  # noqa: BLE001 - a full lint reports it
                return False
        return True
