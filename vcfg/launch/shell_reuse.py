"""A script read again after an edit, resumed where the text changed (the language
server re-reads a buffer on every change).

The interpreter (`vcfg.launch.shell._Interp`) runs a script's top-level statements in
order; everything a statement reads is the interpreter's state before it (variables,
functions, counters) and the text.  `ShellMemo` keeps, for the last read of one
document, that state before each top-level statement (a snapshot: small, the values
in it are immutable records) and what the read produced.  The next read of the
document, after an edit of bytes ``[a, b)``:

1. restores the snapshot of the last statement that starts before ``a`` and whose
   preceding text and syntax are unchanged, with what the statements before it
   produced, and runs the new tree's statements from there;
2. at each statement after the edit, when the text from there to the end is the old
   text moved by the edit's length (the same top-level syntax, shifted), and the
   interpreter's state is the old state there with its positions moved the same way,
   takes what the old read produced from there on, positions moved, instead of
   running it: the same state and the same text give the same result.

Positions move only for an edit within one line (no line break removed or typed:
typing in a flag value or a comment), so line numbers, which messages quote, stay;
an edit that adds or removes a line is resumed (1.) but not reused past (2.).
Whatever cannot be moved exactly (a position inside the edited bytes, a function
defined by ``eval``, a file ``source``d from disk, a cap reached) makes the read run
from scratch instead: the plan is always the one `parse_script` builds without a
memo (tests/test_shell_reuse.py compares them edit by edit).
"""

from __future__ import annotations

import bisect
import itertools
from typing import Any, Optional, Sequence

from vcfg.launch.model import (
    Binding,
    EnvEvent,
    Hole,
    Invocation,
    LineIndex,
    ParseProblem,
    Span,
    Unknown,
    Upstream,
    Word,
    WrittenFile,
    _new,
)
from vcfg.launch.model import Run as WordRun
from vcfg.launch.shell_tree import _common_prefix, _common_suffix

#: what a read produces, in order (the lists `parse_script` turns into the plan)
_OUTPUTS = ("problems", "unknowns", "starts", "timeline", "invocations", "written", "stop_sites", "stop_seqs")
#: snapshots materialised (moved by the edits since they were taken) per read while
#: looking for the place where the old read can be taken over
_TRIES = 4
#: edits a snapshot may lag behind before it is dropped (each is applied when used)
_MAX_CHAIN = 16
_ATOMS = (str, int, bool, float, type(None))
#: values `_Edit.before` keeps (then it starts again)
_MAX_BEFORE = 50_000
_RECORDS = (Word, WordRun, Hole, Binding, EnvEvent, Unknown, ParseProblem, WrittenFile, Upstream)
_SITE = Invocation._fields.index("site")  # type: ignore[attr-defined]
_make: Any = _new  # tuple.__new__: a record from its field values


class _Bail(Exception):
    """A value that cannot be moved exactly: the caller does the work instead."""


class _Edit:
    """Bytes ``[a, b)`` of the old text became ``[a, b + d)``, within line ``line``
    (1-based), whose columns after the edit move by ``dcol`` characters."""

    __slots__ = ("path", "a", "b", "d", "line", "dcol", "memo", "before", "lines_only", "with_lines")

    def __init__(
        self, path: str, a: int, b: int, d: int, line: int, dcol: int, before: Optional[dict[int, Any]] = None
    ) -> None:
        self.path, self.a, self.b, self.d, self.line, self.dcol = path, a, b, d, line, dcol
        self.memo: dict[int, tuple[Any, Any]] = {}
        #: id -> (value, n): values an earlier edit found unchanged, all their positions
        #: in this file before byte n (`ShellMemo.before`): one at or after the edit's
        #: start is unchanged again, and not walked
        self.before: dict[int, Any] = {} if before is None else before
        #: spans of this file with lines only passed (and the values holding one)
        self.lines_only = 0
        self.with_lines: set[int] = set()

    def start(self, p: int) -> int:
        if p < self.a:
            return p
        if p >= self.b:
            return p + self.d
        raise _Bail

    def span(self, s: Span) -> Span:
        if s.file != self.path:
            return s
        st, en = s.start, s.end
        if st < 0:  # no bytes: lines and columns only
            if s.line != self.line and s.end_line != self.line:
                self.lines_only += 1  # unchanged by this edit, not by any edit before it
                return s
            raise _Bail
        if en <= self.a:
            return s
        line = self.line
        if st < self.a:
            col = s.col
        elif st >= self.b:
            st += self.d
            col = s.col + self.dcol if s.line == line else s.col
        else:
            raise _Bail
        if en >= self.b:
            en += self.d
            end_col = s.end_col + self.dcol if s.end_line == line else s.end_col
        else:
            raise _Bail
        return _make(Span, (st, en, s.line, col, s.end_line, end_col, s.file))  # type: ignore[no-any-return]

    def val(self, x: Any) -> Any:
        t = type(x)
        if t is Span:
            return self.span(x)
        if t in _ATOMS:
            return x
        k = id(x)
        hit = self.memo.get(k)
        if hit is not None:
            if k in self.with_lines:
                self.lines_only += 1
            return hit[1]
        seen = self.before.get(k)
        if seen is not None and seen[0] is x and seen[1] <= self.a:
            return x
        lines_only = self.lines_only
        if t is tuple:
            out: Any = tuple([self.val(v) for v in x])
        elif t is list:
            out = [self.val(v) for v in x]
        elif t is dict:
            out = {key: self.val(v) for key, v in x.items()}
        elif t is Invocation:
            items = [self.val(v) for v in x]
            if items[_SITE] is not None and items[_SITE] >= 0:
                items[_SITE] = self.start(items[_SITE])
            out = _make(t, tuple(items))
        elif t in _RECORDS:
            out = _make(t, tuple([self.val(v) for v in x]))
        else:
            raise _Bail
        if self.lines_only != lines_only:
            self.with_lines.add(k)
        elif len(out) == len(x) and all(
            p is q for p, q in zip(out.values() if t is dict else out, x.values() if t is dict else x)
        ):
            out = x  # nothing in it moved: the same value, all its positions before the edit
            if len(self.before) < _MAX_BEFORE:
                self.before[k] = (x, self.a)
        self.memo[k] = (x, out)  # x kept alive: its id stays its own
        return out

    def state(self, st: Any) -> Any:
        from vcfg.launch.shell_state import _State

        out = _State()
        out.vars = self.val(st.vars)
        out.arrays = self.val(st.arrays)
        out.allexport = st.allexport
        out.positional = self.val(st.positional)
        out.env_unknowns = self.val(st.env_unknowns)
        out.ifs = st.ifs
        out.alts = self.val(st.alts)
        return out


class _Moves(_Edit):
    """Changes inside comment lines of a read's text, as one move: ``ranges`` are
    (first byte, end, how many bytes longer, line) in that text, in order; a position
    in a range, or one on a changed line with columns only, cannot be moved.  The
    columns of a changed line never move: no position of a read is on a comment's
    line (`ShellMemo.absorb`)."""

    __slots__ = ("starts", "ends", "shifts", "lines")

    def __init__(self, path: str, ranges: list[tuple[int, int, int, int]]) -> None:
        total = sum(r[2] for r in ranges)
        super().__init__(path, ranges[0][0], ranges[-1][1], total, 0, 0)
        self.starts = [r[0] for r in ranges]
        self.ends = [r[1] for r in ranges]
        self.shifts = list(itertools.accumulate(r[2] for r in ranges))
        self.lines = frozenset(r[3] for r in ranges)

    def start(self, p: int) -> int:
        i = bisect.bisect_right(self.starts, p) - 1
        if i < 0:
            return p
        if p < self.ends[i]:
            raise _Bail
        return p + self.shifts[i]

    def end(self, p: int) -> int:
        """An exclusive end: one at a range's first byte ends before it, unless the
        range is empty (a comment that was only its ``#``: its end is the range)."""
        i = bisect.bisect_left(self.starts, p) - 1
        if i + 1 < len(self.starts) and self.starts[i + 1] == p == self.ends[i + 1]:
            i += 1
        if i < 0:
            return p
        if p < self.ends[i]:
            raise _Bail
        return p + self.shifts[i]

    def span(self, s: Span) -> Span:
        if s.file != self.path:
            return s
        if s.line in self.lines or s.end_line in self.lines:
            raise _Bail
        if s.start < 0:
            self.lines_only += 1
            return s
        if s.end <= self.a:
            return s
        return _make(Span, (self.start(s.start), self.end(s.end), s.line, s.col, s.end_line, s.end_col, s.file))  # type: ignore[no-any-return]


def _same_state(x: Any, y: Any) -> bool:
    return (
        x.vars == y.vars
        and x.arrays == y.arrays
        and x.allexport == y.allexport
        and x.positional == y.positional
        and x.env_unknowns == y.env_unknowns
        and x.ifs == y.ifs
        and x.alts == y.alts
    )


def _copy_state(st: Any) -> Any:
    out = st.copy()
    out.alts = dict(st.alts)
    return out


class _Snap:
    """The interpreter's state before one top-level statement.  ``functions``: name ->
    (body type, body start, body end, the state it was defined in); the nodes are
    found again in the tree of the text the snapshot is used with."""

    __slots__ = ("st", "functions", "noted", "called", "holes", "counters", "lens")

    def __init__(self, interp: Any) -> None:
        self.st = _copy_state(interp.st)
        # a function's state is copied when it is defined and never changed after
        self.functions = {
            name: (body.type, body.start_byte, body.end_byte, fst)
            for name, (body, _, _, fst, _) in interp.functions.items()
        }
        self.noted = set(interp.noted)
        self.called = set(interp.called)
        self.holes = list(interp.hole_words)
        self.counters = _counters(interp)
        self.lens = tuple(len(getattr(interp, n)) for n in _OUTPUTS)

    def moved(self, e: _Edit) -> "_Snap":
        out = _Snap.__new__(_Snap)
        out.st = e.state(self.st)
        out.functions = {
            name: (typ, e.start(s), e.start(en - 1) + 1 if en > s else e.start(s), e.state(fst))
            for name, (typ, s, en, fst) in self.functions.items()
        }
        out.noted, out.called, out.counters, out.lens = self.noted, self.called, self.counters, self.lens
        out.holes = e.val(self.holes)
        e.memo.clear()
        e.with_lines.clear()
        return out


def _counters(interp: Any) -> tuple[Any, ...]:
    return (interp.unrolled, interp.seq, interp.decisions, interp.steps, interp.too_deep)


def _at_top(interp: Any, environ: Any) -> bool:
    """Whether the interpreter is between two top-level statements of the script
    itself, with nothing a snapshot cannot hold (a function from an ``eval`` or a
    sourced file, a node id consumed by a misparsed word, the shells of tmux panes keys
    were typed into)."""
    return (
        not interp.sourcing
        and not interp.panes
        and not interp.call_stack
        and not interp.sites
        and not interp.locals_stack
        and not interp.frames
        and not interp.consumed
        and interp.nested == 0
        and interp.depth == 0
        and interp.cap_note is None
        and interp.environ == environ
        and interp.li is interp.main_li
        and all(li is interp.main_li and data is interp.data for _, data, _, _, li in interp.functions.values())
    )


class _Record:
    """One read of a document: its text, top-level syntax and statements, a snapshot
    before each statement (with the edits it lags behind), what it produced."""

    __slots__ = ("key", "data", "sigs", "stmts", "snaps", "final", "shapes")

    def __init__(self, key: Any, data: bytes, sigs: list[tuple[str, int, int]], stmts: list[int]) -> None:
        self.key, self.data, self.sigs, self.stmts = key, data, sigs, stmts
        self.snaps: list[Optional[tuple[_Snap, tuple[_Edit, ...]]]] = []
        self.final: dict[str, list[Any]] = {}
        #: each top-level child's part of the script's `Shape` (None: not computed)
        self.shapes: Optional[list[Any]] = None


class ShellMemo:
    """The last read of one document (`parse_script(..., reuse=memo)`); the language
    server keeps one per open buffer.  ``last``: how the last read went, for tests
    and `vcfg.stats` (``("fresh",)``, or ``("resumed", statement, "reused", statement)``
    with None for no reuse past the edit)."""

    def __init__(self) -> None:
        self.rec: Optional[_Record] = None
        self.last: tuple[Any, ...] = ()
        #: the last parse's text and tree, parsed again from after an edit
        #: (`vcfg.launch.shell_tree.parse_stopped`)
        self.tree: list[Any] = []
        #: the values edits found unchanged (`_Edit.before`)
        self.before: dict[int, Any] = {}
        #: the read in progress, for `shape`: its record, the old one it resumed (or
        #: None) and where the edit was (the first byte, the first top-level child of
        #: the moved tail, the move)
        self._now: Optional[tuple[_Record, Optional[_Record], int, int, int]] = None
        #: top-level comments of the last read whose text changed since, by how many
        #: bytes (`absorb`), and the text now
        self.pending: dict[int, int] = {}
        self.pending_data = b""

    def forget(self) -> None:
        """Start the next read from scratch."""
        self.rec = self._now = None
        self.tree = []
        self.before = {}
        self.pending = {}

    def absorb(self, child: int, d: int, data: bytes) -> None:
        """The document is now ``data``: the text of its top-level child ``child``, a
        comment on a line of its own, changed by ``d`` bytes (`vcfg.lint.comment_reuse`
        linted it without a read).  The next read first moves the last one by every such
        change, as if it had read ``data``."""
        if self.rec is not None:
            self.pending[child] = self.pending.get(child, 0) + d
            self.pending_data = data

    def _catch_up(self) -> None:
        """The last read moved by the `pending` changes (`_Moves`): its outputs, the
        top-level syntax, each statement's part of the shape; the snapshots after the
        first change lag behind it (moved when used).  One that cannot be moved starts
        from scratch."""
        rec, pending, data = self.rec, self.pending, self.pending_data
        self.pending, self.pending_data = {}, b""
        self.before = {}
        if rec is None:
            return
        try:
            ranges = []
            for k, d in sorted(pending.items()):
                t, s0, e0 = rec.sigs[k]
                if t != "comment":
                    raise _Bail
                ranges.append((s0 + 1, e0, d, rec.data.count(b"\n", 0, s0) + 1))
            e = _Moves(rec.key[0], ranges)
            final = {n: e.val(rec.final[n]) for n in _OUTPUTS}
            final["stop_sites"] = [e.start(p) for p in rec.final["stop_sites"]]
            e.memo.clear()
            e.with_lines.clear()
            sigs = [(t, e.start(s0), e.end(e0)) for t, s0, e0 in rec.sigs]
            snaps: list[Optional[tuple[_Snap, tuple[_Edit, ...]]]] = []
            for j, got in enumerate(rec.snaps):
                if got is None or (j < len(rec.stmts) and rec.sigs[rec.stmts[j]][1] < e.a):
                    snaps.append(got)  # before the first change: nothing in its state is after it
                else:
                    snaps.append((got[0], got[1] + (e,)) if len(got[1]) < _MAX_CHAIN else None)
            if rec.shapes is not None:
                rec.shapes = [
                    _moved_shape(part, e.start(s0) - s0) if part is not None and s0 >= e.a else part
                    for part, (_, s0, _) in zip(rec.shapes, rec.sigs)
                ]
            rec.final, rec.sigs, rec.snaps, rec.data = final, sigs, snaps, data
        except _Bail:
            self.forget()

    def shape(self, kids: list[Any], data: bytes) -> Any:
        """`vcfg.launch.shape.script_shape` of the script just read, each top-level
        statement's part taken from the last read where the statement did not change
        (before the edit, or after it and moved by it)."""
        from vcfg.launch.chunks import Program
        from vcfg.launch.shape import script_shape

        if self._now is None:
            return script_shape(Program(kids), data)
        rec, old, a, tail_from, d = self._now
        if rec.sigs != [(c.type, c.start_byte, c.end_byte) for c in kids]:
            return script_shape(Program(kids), data)
        try:
            return self._shape(kids, data, rec, old, a, tail_from, d)
        except Exception:  # noqa: BLE001 - what script_shape says instead
            rec.shapes = None
            return script_shape(Program(kids), data)

    def _shape(
        self, kids: list[Any], data: bytes, rec: _Record, old: Optional[_Record], a: int, tail_from: int, d: int
    ) -> Any:
        from vcfg.launch.chunks import Program
        from vcfg.launch.shape import Shape, script_shape

        olds = old.shapes if old is not None else None
        end = len(data) + 1
        parts = []
        for x, c in enumerate(kids):
            part = None
            if olds is not None and old is not None:
                ox = x + len(old.sigs) - len(rec.sigs)
                if x < len(old.sigs) and c.end_byte <= a and old.sigs[x] == rec.sigs[x]:
                    part = olds[x]
                elif x >= tail_from and 0 <= ox < len(olds) and olds[ox] is not None:
                    part = _moved_shape(olds[ox], d)
            if part is None:
                got = script_shape(Program([c]), data) if c.is_named and c.type != "comment" else Shape()
                part = (got.branches, got.loops, got.stops)
            # what follows an `exit` runs to the end of the script, wherever that is now
            if any(b[3] == "after" for b in part[0]):
                part = (tuple((s, end, k, t) if t == "after" else (s, e, k, t) for s, e, k, t in part[0]), *part[1:])
            parts.append(part)
        rec.shapes = parts
        # script_shape walks the statements last first
        return Shape(
            tuple(b for p in reversed(parts) for b in p[0]),
            tuple(lp for p in reversed(parts) for lp in p[1]),
            tuple(sorted(s for p in parts for s in p[2])),
        )

    def run(self, interp: Any, data: bytes, li: LineIndex, problems: list[ParseProblem], key: Any) -> list[Any]:
        """Run ``interp`` over ``data`` (what `_Interp.run` does), from the last read
        where it can; the problems of the tree go to ``problems``.  Returns the
        top-level children (for the script's shape)."""
        from vcfg.launch.chunks import top_level
        from vcfg.launch.shell import _Ctx, _Jump, _LaunchCap

        environ = dict(key[1]) if key[1] is not None else None
        key = (key[0], tuple(sorted(key[1].items())) if key[1] is not None else None, tuple(key[2] or ()) or None)
        if self.pending:
            self._catch_up()
        old, self.rec = self.rec, None
        kids = list(next(iter(top_level(data, li, problems, self.tree)), []))
        sigs = [(c.type, c.start_byte, c.end_byte) for c in kids]
        stmts = [i for i, c in enumerate(kids) if c.is_named and c.type != "comment"]
        rec = _Record(key, data, sigs, stmts)
        read_disk = [False]
        source_file = interp.source_file

        def spy(*a: Any) -> Any:  # `source`: the plan depends on a file on disk
            read_disk[0] = True
            return source_file(*a)

        interp.source_file = spy
        if len(self.before) >= _MAX_BEFORE:
            self.before = {}
        plan = _Plan(old, rec, interp, data, li, kids, self.before) if old is not None and old.key == key else None
        self._now = (rec, old, plan.a, plan.tail_from, plan.d) if plan is not None else (rec, None, 0, len(kids), 0)
        first = plan.resume() if plan is not None else 0
        self.last = ("fresh",) if plan is None else ("resumed", first, "reused", None)
        ctx: Any = _Ctx()
        prev = None
        if first < len(stmts):
            prev = next((c for c in reversed(kids[: stmts[first]]) if c.is_named or c.type == "comment"), None)
        try:
            try:
                for j in range(first, len(stmts)):
                    i = stmts[j]
                    c = kids[i]
                    if plan is not None and plan.take_over(j):
                        self.last = ("resumed", first, "reused", j)
                        break
                    rec.snaps.append((_Snap(interp), ()) if _at_top(interp, environ) else None)
                    # what `_Interp.exec_seq` does at the top level (no loop or function frame)
                    for k in range(stmts[j - 1] + 1 if j else 0, i):
                        if kids[k].type == "comment":
                            prev = kids[k]
                    bg = False
                    n = i + 1
                    while n < len(kids) and not kids[n].is_named and kids[n].type in (";", "\n"):
                        n += 1
                    if n < len(kids) and kids[n].type == "&" and not kids[n].is_named:
                        bg = True
                    interp.check_split(c, prev)
                    prev = c
                    interp.exec_stmt(c, ctx._replace(background=True) if bg else ctx)
                else:
                    interp.run_uncalled()
            except _Jump:
                pass  # `exit`: nothing else runs
        except _LaunchCap:
            return kids  # a cap stopped reading: not kept
        if read_disk[0] or interp.cap_note is not None:
            return kids
        rec.final = {n: getattr(interp, n) for n in _OUTPUTS}
        self.rec = rec
        return kids


def edit_between(before: bytes, data: bytes) -> tuple[int, int, int]:
    """The one edit that makes ``data`` of ``before``: bytes ``[a, b_old)`` of
    ``before`` became ``[a, b_new)`` of ``data`` (the common prefix and suffix, cut at
    whole characters on both sides: columns count characters)."""
    n = min(len(before), len(data))
    a = _common_prefix(before, data, n)
    s = _common_suffix(before, data, n - a)
    while a > 0 and (a < len(data) and 0x80 <= data[a] < 0xC0 or a < len(before) and 0x80 <= before[a] < 0xC0):
        a -= 1
    while s > 0 and (0x80 <= data[len(data) - s] < 0xC0 or 0x80 <= before[len(before) - s] < 0xC0):
        s -= 1
    return a, len(before) - s, len(data) - s


class _Plan:
    """How one read reuses the last: the edit between the texts, where to resume, and
    the old statements the new ones after the edit correspond to."""

    def __init__(
        self,
        old: _Record,
        rec: _Record,
        interp: Any,
        data: bytes,
        li: LineIndex,
        kids: list[Any],
        unchanged: Optional[dict[int, Any]] = None,
    ) -> None:
        self.old, self.rec, self.interp, self.kids = old, rec, interp, kids
        before = old.data
        a, self.b_old, self.b_new = edit_between(before, data)
        self.a = a
        self.d = self.b_new - self.b_old
        cut_old, cut_new = before[a : self.b_old], data[a : self.b_new]
        self.edit: Optional[_Edit] = None
        if b"\n" not in cut_old + cut_new and b"\r" not in cut_old + cut_new and b"\r" not in data[a - 1 : a + 1]:
            line, col = li.point(a)
            dcol = len(cut_new.decode("utf-8", "surrogateescape")) - len(cut_old.decode("utf-8", "surrogateescape"))
            self.edit = _Edit(li.file, a, self.b_old, self.d, line, dcol, unchanged)
        self.tries = 0
        self.start = 0
        # the first top-level child from which the new syntax is the old one moved
        # by the edit, to the end
        k, lo, ln = len(rec.sigs), len(old.sigs), len(rec.sigs)
        d = self.d
        while k > 0 and lo - (ln - k) - 1 >= 0:
            t, s0, e0 = old.sigs[lo - (ln - k) - 1]
            if (t, s0 + d, e0 + d) != rec.sigs[k - 1] or s0 < self.b_old:
                break
            k -= 1
        self.tail_from = k

    def resume(self) -> int:
        """Restore the snapshot of the last statement before the edit whose preceding
        top-level syntax is unchanged; its index (0: from the start)."""
        old, rec, a = self.old, self.rec, self.a
        best = 0
        for j in range(min(len(old.stmts), len(rec.stmts))):
            i = old.stmts[j]
            if i != rec.stmts[j] or (i > 0 and old.sigs[i - 1][2] > a) or old.sigs[i][1] > a:
                break
            if j < len(old.snaps) and old.snaps[j] is not None:
                best = j
        while best > 0:
            i = old.stmts[best]
            if old.sigs[:i] == rec.sigs[:i]:
                snap = self._materialise(best, None)
                functions = self._nodes(snap) if snap is not None else None
                if snap is not None and functions is not None:
                    self._restore(snap, functions, best)
                    self.start = best
                    return best
            best -= 1
        return 0

    def _materialise(self, j: int, extra: Optional[_Edit]) -> Optional[_Snap]:
        got = self.old.snaps[j] if j < len(self.old.snaps) else None
        if got is None:
            return None
        snap, chain = got
        try:
            for e in chain + ((extra,) if extra is not None else ()):
                snap = snap.moved(e)
        except _Bail:
            return None
        if chain and extra is None:
            self.old.snaps[j] = (snap, ())  # moved once
        return snap

    def _nodes(self, snap: _Snap) -> Optional[dict[str, Any]]:
        """The function bodies of ``snap`` in this read's tree (None: one is not there)."""
        interp = self.interp
        root = self.kids[0].parent if self.kids else None
        out = {}
        for name, (typ, s, e, fst) in snap.functions.items():
            node = root.descendant_for_byte_range(s, e) if root is not None else None
            while node is not None and (node.start_byte, node.end_byte) == (s, e) and node.type != typ:
                node = node.parent
            if node is None or node.type != typ or (node.start_byte, node.end_byte) != (s, e):
                return None
            out[name] = (node, interp.data, interp.loc, fst, interp.li)
        return out

    def _restore(self, snap: _Snap, functions: dict[str, Any], j: int) -> None:
        interp = self.interp
        interp.st = _copy_state(snap.st)
        interp.functions = functions
        interp.noted = set(snap.noted)
        interp.called = set(snap.called)
        interp.hole_words = list(snap.holes)
        interp.unrolled, interp.seq, interp.decisions, interp.steps, interp.too_deep = snap.counters
        for name, n in zip(_OUTPUTS, snap.lens):
            setattr(interp, name, list(self.old.final[name][:n]))
        self.rec.snaps[:j] = self.old.snaps[:j]

    def take_over(self, j: int) -> bool:
        """Before this read's statement ``j``: whether the old read from its statement
        there on is this read's (then its results, moved, are taken)."""
        old, rec, e, interp = self.old, self.rec, self.edit, self.interp
        i = rec.stmts[j]
        if e is None or self.tries >= _TRIES or i < self.tail_from or rec.sigs[i][1] < self.b_new or j == self.start:
            return False
        m = j + len(old.stmts) - len(rec.stmts)
        if m < 0 or m >= len(old.snaps) or old.snaps[m] is None or old.stmts[m] != i + len(old.sigs) - len(rec.sigs):
            return False
        if _may_split(self.kids[i], interp.data):
            return False  # `check_split` reads the comment before it
        got = old.snaps[m]
        assert got is not None
        if got[0].counters != _counters(interp) or got[0].lens != tuple(len(getattr(interp, n)) for n in _OUTPUTS):
            return False
        self.tries += 1
        identity = e.d == 0 and e.dcol == 0
        snap = self._materialise(m, None if identity else e)
        if snap is None or not self._same(snap):
            return False
        try:
            tail = {n: old.final[n][k:] if identity else e.val(old.final[n][k:]) for n, k in zip(_OUTPUTS, snap.lens)}
            if not identity:  # file offsets of the statements that stop launches
                tail["stop_sites"] = [e.start(p) for p in tail["stop_sites"]]
        except _Bail:
            return False
        finally:
            e.memo.clear()
            e.with_lines.clear()
        for n in _OUTPUTS:
            getattr(interp, n).extend(tail[n])
        rec.snaps.append((snap, ()))
        for later in old.snaps[m + 1 :]:
            if later is None or len(later[1]) >= _MAX_CHAIN:
                rec.snaps.append(None)
            else:
                rec.snaps.append(later if identity else (later[0], later[1] + (e,)))
        return True

    def _same(self, snap: _Snap) -> bool:
        interp = self.interp
        if snap.noted != interp.noted or snap.called != interp.called or snap.holes != interp.hole_words:
            return False
        if not _same_state(snap.st, interp.st) or snap.functions.keys() != interp.functions.keys():
            return False
        for name, (body, data, _, fst, li) in interp.functions.items():
            typ, s, e, old_fst = snap.functions[name]
            if data is not interp.data or li is not interp.main_li:
                return False
            if body.start_byte < self.b_new and body.end_byte > self.a:
                return False  # its text changed
            if (body.type, body.start_byte, body.end_byte) != (typ, s, e) or not _same_state(fst, old_fst):
                return False
        return True


def _moved_shape(part: tuple[Any, ...], d: int) -> tuple[Any, ...]:
    """A statement's part of a `Shape` (byte offsets) after the statement moved by ``d``
    bytes: the if/case keys (``-(start + 1)`` for the pseudo-branches after an ``exit``)
    and the branch ids (``item@start``) name offsets too."""
    if d == 0:
        return part

    def key(k: int) -> int:
        return k + d if k >= 0 else k - d

    def label(t: str) -> str:
        name, at, n = t.partition("@")
        return f"{name}@{int(n) + d}" if at and n.isdigit() else t

    branches = tuple((s + d, e + d, key(k), label(t)) for s, e, k, t in part[0])
    return (branches, tuple((s + d, e + d) for s, e in part[1]), tuple(s + d for s in part[2]))


def _may_split(c: Any, data: bytes) -> bool:
    """Whether `check_split` reports this statement (a command named ``-...``): its
    message reads the comment before it."""
    node = (c.child_by_field_name("body") or c) if c.type == "redirected_statement" else c
    if node.type != "command":
        return False
    name = node.child_by_field_name("name")
    return name is not None and data[name.start_byte : name.start_byte + 1] == b"-"


__all__: Sequence[str] = ["ShellMemo"]
