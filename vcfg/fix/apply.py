"""Apply fixes to the bytes of one file.

A fix is applied whole or not at all.  It is refused when one of its edits does not
find the text it expects (the file is not the one that was linted) or when its own
edits overlap; it is deferred to a later pass when it overlaps a fix already chosen in
this pass (the re-lint after the pass offers it again, with positions in the new
text, if the finding is still there).  Fixes are taken in file order; of two that
conflict the earlier one wins, as in ruff.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from vcfg.edits import Edit, Fix
from vcfg.records import field, record


@record
class Applied:
    """The outcome of one pass over one file."""

    data: bytes
    applied: list[Fix] = field(default_factory=list)
    #: overlapping a fix chosen earlier in this pass: to be offered again after re-linting
    deferred: list[Fix] = field(default_factory=list)
    #: (fix, why): the file does not hold what the fix expects, or the fix is malformed
    refused: list[tuple[Fix, str]] = field(default_factory=list)


def _conflict(a: Edit, b: Edit) -> bool:
    """Edits touch the same bytes, or two insertions (or an insertion and a
    replacement's edge) meet at one offset, where their order would be a guess."""
    if a.start < b.end and b.start < a.end:
        return True
    if a.start == a.end or b.start == b.end:
        return a.start == b.start or a.start == b.end or b.start == a.end
    return False


def _check(fix: Fix, data: bytes, path: str) -> str:
    """Why ``fix`` cannot apply to ``data`` ("" when it can)."""
    if not fix.edits:
        return "the fix has no edits"
    edits = sorted(fix.edits, key=lambda e: (e.start, e.end))
    for e in edits:
        if e.path != path:
            return f"the fix also edits {e.path}"
        if not 0 <= e.start <= e.end <= len(data):
            return f"the edit at {e.line}:{e.column} lies outside the file"
        if data[e.start : e.end] != e.original.encode("utf-8", "surrogateescape"):
            return f"the file no longer holds {e.original!r} at {e.line}:{e.column}"
    for x, y in zip(edits, edits[1:]):
        if _conflict(x, y):
            return f"its edits at {x.line}:{x.column} and {y.line}:{y.column} overlap"
    return ""


def choose(fixes: Iterable[Fix], data: bytes, path: str) -> Applied:
    """Which of ``fixes`` one pass applies to ``data`` (``path``'s bytes)."""
    out = Applied(data)
    taken: list[Edit] = []
    seen: set[tuple[Edit, ...]] = set()
    order = sorted(fixes, key=lambda f: min((e.start, e.end) for e in f.edits) if f.edits else (0, 0))
    for fix in order:
        key = tuple(sorted(fix.edits))
        if key in seen:  # the same fix offered by two findings (a loop's launches)
            continue
        seen.add(key)
        why = _check(fix, data, path)
        if why:
            out.refused.append((fix, why))
            continue
        if any(_conflict(e, t) for e in fix.edits for t in taken):
            out.deferred.append(fix)
            continue
        taken.extend(fix.edits)
        out.applied.append(fix)
    out.data = splice(data, taken)
    return out


def splice(data: bytes, edits: Sequence[Edit]) -> bytes:
    """``data`` with non-overlapping ``edits`` applied."""
    parts: list[bytes] = []
    at = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        parts.append(data[at : e.start])
        parts.append(e.content.encode("utf-8", "surrogateescape"))
        at = e.end
    parts.append(data[at:])
    return b"".join(parts)
