"""Building a finding's fix (`vcfg.edits.Fix`) from launch-model spans.

Each edit records the text it replaces, read from the bytes that were linted, so that
applying it to a file that has changed since is refused (`vcfg.fix.apply`)."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from vcfg.edits import Applicability, Edit, Fix, edit_from_span
from vcfg.lint.context import FileContext, LaunchContext


def _file(ctx: Any) -> FileContext:
    return ctx.file if isinstance(ctx, LaunchContext) else ctx


def _path(ctx: Any, s: Any) -> str:
    fc = _file(ctx)
    inv_file = ctx.inv.span.file if isinstance(ctx, LaunchContext) else fc.plan.path
    return fc.path if not s.file or s.file in (inv_file, fc.path) else s.file


def edit(ctx: Any, s: Any, content: str) -> Optional[Edit]:
    """``content`` in place of launch span ``s``; None when the span does not index the
    linted bytes (a synthetic span, or one beyond the end)."""
    if s is None or s.start < 0 or s.end < s.start:
        return None
    path = _path(ctx, s)
    data = _file(ctx).bytes_of(path)
    if s.end > len(data):
        return None
    original = data[s.start:s.end].decode("utf-8", "surrogateescape")
    return edit_from_span(s, content, original, path)


def text_of(ctx: Any, s: Any) -> Optional[str]:
    """The text launch span ``s`` covers in its file."""
    if s is None or s.start < 0 or s.end < s.start:
        return None
    data = _file(ctx).bytes_of(_path(ctx, s))
    return data[s.start:s.end].decode("utf-8", "surrogateescape") if s.end <= len(data) else None


def fix(edits: Iterable[Optional[Edit]], applicability: Applicability, description: str) -> Optional[Fix]:
    """A fix of every edit, or None when one of them could not be built."""
    es = list(edits)
    if not es or any(e is None for e in es):
        return None
    return Fix(tuple(e for e in es if e is not None), applicability, description)


def replace(ctx: Any, s: Any, content: str, applicability: Applicability, description: str) -> Optional[Fix]:
    return fix([edit(ctx, s, content)], applicability, description)


def edit_at(fc: FileContext, line: int, column: int, length: int, content: str) -> Optional[Edit]:
    """``content`` in place of ``length`` characters at 1-based ``line``:``column`` of
    the linted file itself (for findings located by line and column only)."""
    data = fc.data
    start = 0
    for _ in range(line - 1):
        start = data.find(b"\n", start)
        if start < 0:
            return None
        start += 1
    end_of_line = data.find(b"\n", start)
    text = data[start:end_of_line if end_of_line >= 0 else len(data)].decode("utf-8", "surrogateescape")
    if column - 1 + length > len(text):
        return None
    a = start + len(text[:column - 1].encode("utf-8", "surrogateescape"))
    original = text[column - 1:column - 1 + length]
    b = a + len(original.encode("utf-8", "surrogateescape"))
    return Edit(fc.path, a, b, content, original, line, column, line, column + length)
