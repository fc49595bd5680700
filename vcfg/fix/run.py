"""The fix loop of ``vcfg lint --fix`` / ``--diff`` (and of ``vcfg upgrade``).

lint -> choose non-overlapping fixes per file -> apply in memory -> lint again, until
no applicable fix is left or `MAX_PASSES` passes ran; the files are then written (only
for ``--fix``, and only a file whose bytes on disk are still those linted first).
Every pass lints the fixed text, never the disk, so ``--diff`` shows exactly what
``--fix`` would write, and the last lint is the report of what remains.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Optional, Sequence, TypeGuard

from vcfg.edits import Fix
from vcfg.errors import VcfgError
from vcfg.fix.apply import choose
from vcfg.records import field, record

if TYPE_CHECKING:
    from vcfg.diagnostics import Diagnostic
    from vcfg.lint.engine import LintResult

#: passes before giving up (a pass applies every fix that does not overlap another;
#: conflicting ones wait for the next)
MAX_PASSES = 10

#: ``lint(files, contents)``: a lint of ``files`` reading ``contents`` instead of the disk
Lint = Callable[[Sequence[str], dict[str, bytes]], "LintResult"]


@record
class FileFix:
    path: str
    before: bytes
    after: bytes
    applied: int = 0
    #: the findings whose fixes were applied, in the pass that found them
    fixed: list = field(default_factory=list)
    #: why fixes were not applied: the file changed, the text did not match
    refused: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.before != self.after


@record
class FixRun:
    files: list[FileFix]
    #: the lint of the fixed text
    result: LintResult
    passes: int = 0
    #: fixes still applicable after the last pass (conflicts left, or `MAX_PASSES` hit)
    pending: int = 0

    @property
    def applied(self) -> int:
        return sum(f.applied for f in self.files)


def wanted(fix: Optional[Fix], unsafe: bool) -> TypeGuard[Fix]:
    return fix is not None and (fix.applicability == "safe" or unsafe)


def read_bytes(path: str) -> bytes:
    import sys

    try:
        if path == "-":
            return sys.stdin.buffer.read()
        from vcfg.fileio import MAX_BYTES, read_regular

        return read_regular(path)[:MAX_BYTES]
    except OSError as e:
        raise VcfgError(f"cannot read {path}: {e.strerror or e}") from e


def fix_files(
    files: Sequence[str],
    lint: Lint,
    *,
    unsafe: bool = False,
    select: Callable[[Diagnostic], bool] = lambda d: True,
    contents: Optional[dict[str, bytes]] = None,
) -> FixRun:
    """Run the loop over ``files`` (paths as `expand_paths` gives them); nothing is
    written.  ``select(diagnostic)``: which findings' fixes to take."""
    current = dict(contents) if contents is not None else {f: read_bytes(f) for f in files}
    outs = {f: FileFix(f, current[f], current[f]) for f in files}
    # a fix's edits name the file as the diagnostics do ("<stdin>" for "-") or, for a
    # launch's --config file, by its own path
    key_of: dict[str, str] = {}
    for f in files:
        key_of["<stdin>" if f == "-" else f] = f
        if f != "-":
            key_of[os.path.abspath(f)] = f

    def owner(path: str) -> Optional[str]:
        return key_of.get(path) or key_of.get(os.path.abspath(path))

    result = lint(files, current)
    passes = 0
    seen_states: set[tuple[bytes, ...]] = {tuple(current[f] for f in files)}
    pending = 0
    while True:
        by_file: dict[str, list[Fix]] = {}
        finding: dict[int, Diagnostic] = {}
        for d in result.diagnostics:
            fx = d.fix
            if not wanted(fx, unsafe) or not select(d):
                continue
            paths = {owner(e.path) for e in fx.edits}
            only = next(iter(paths)) if len(paths) == 1 else None
            if only is None:
                continue  # a fix across files, or in a file not being fixed
            fx = _rebase_path(fx, fx.edits[0].path)
            finding[id(fx)] = d
            by_file.setdefault(only, []).append(fx)
        pending = sum(len(v) for v in by_file.values())
        if not by_file or passes >= MAX_PASSES:
            break
        changed = False
        for f, fixes in by_file.items():
            edit_path = fixes[0].edits[0].path
            same = [x if x.edits[0].path == edit_path else _rebase_path(x, edit_path) for x in fixes]
            for x, y in zip(fixes, same):
                finding[id(y)] = finding[id(x)]
            ap = choose(same, current[f], edit_path)
            for _, why in ap.refused:
                if why not in outs[f].refused:
                    outs[f].refused.append(why)
            if ap.applied and ap.data != current[f]:
                current[f] = ap.data
                outs[f].applied += len(ap.applied)
                outs[f].fixed.extend(finding[id(x)] for x in ap.applied)
                changed = True
        state = tuple(current[f] for f in files)
        if not changed or state in seen_states:
            break
        seen_states.add(state)
        passes += 1
        result = lint(files, current)
    for f in files:
        outs[f].after = current[f]
    return FixRun([outs[f] for f in files], result, passes, pending)


def _rebase_path(fx: Fix, path: str) -> Fix:
    """``fx`` with every edit naming ``path`` (one file spelled two ways)."""
    from vcfg.records import replace

    if all(e.path == path for e in fx.edits):
        return fx
    return replace(fx, edits=tuple(replace(e, path=path) for e in fx.edits))


def write_files(run: FixRun) -> list[str]:
    """Write every changed file whose bytes on disk are still those linted first; the
    problems (one line each) for the others."""
    problems: list[str] = []
    for ff in run.files:
        if not ff.changed or ff.path == "-":
            continue
        try:
            now = read_bytes(ff.path)
        except VcfgError as e:
            problems.append(str(e))
            continue
        if now != ff.before:
            problems.append(f"{ff.path}: changed since it was linted; not fixed")
            continue
        try:
            with open(ff.path, "wb") as fh:
                fh.write(ff.after)
        except OSError as e:
            problems.append(f"cannot write {ff.path}: {e.strerror or e}")
    return problems


def unified_diff(run: FixRun) -> str:
    """The changes as one unified diff (``--- a/PATH`` / ``+++ b/PATH``)."""
    import difflib

    out: list[str] = []
    for ff in run.files:
        if not ff.changed:
            continue
        name = "<stdin>" if ff.path == "-" else ff.path.lstrip("/")
        a = ff.before.decode("utf-8", "surrogateescape").splitlines(keepends=True)
        b = ff.after.decode("utf-8", "surrogateescape").splitlines(keepends=True)
        for line in difflib.unified_diff(a, b, f"a/{name}", f"b/{name}"):
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
