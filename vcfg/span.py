"""One `Span`: where something sits in a file, for launches and diagnostics alike.

A span holds byte offsets ``[start, end)`` into the file and 1-based line/column
pairs; columns count characters (code points), so a tab or a CJK character is one
column, and ``end_col`` is the column just past the last character.  The launch
model builds spans from byte offsets (``vcfg.launch.model.LineIndex``); a finding
carries the span of what it points at, its ``file`` the path as the user gave it
(`for_finding`).  A span made from a line and columns alone (a comment found by
reading lines, a place inside a line's text) has no byte offsets: ``start`` and
``end`` are -1 (`at`).

Lines end at ``\n``, ``\r\n`` or a lone ``\r``, as editors, the language server
protocol and YAML count them (`LINE_BREAK`, `split_lines`); a form feed, a vertical
tab or U+2028 does not end a line (Python's ``str.splitlines`` would split there, and
show a finding's excerpt from the wrong line).

An immutable named tuple (``vcfg.records.tuple_record``): the shell reader builds
thousands, and a tuple is the cheapest Python object to make.
"""

from __future__ import annotations

import re
from typing import Any

from vcfg.records import tuple_record

#: what ends a line, for spans and for the lines shown with a finding
LINE_BREAK = re.compile("\r\n|\r|\n")

#: the bytes last decoded by `source_text` and their text (one entry: a file is decoded
#: where its reader is chosen, by the reader, and by the YAML loader, one after another)
_last: tuple[Any, str] = (None, "")


def source_text(data: bytes) -> str:
    """``data`` decoded as every reader decodes a file: UTF-8, a byte that is not UTF-8
    kept as one character (a lone surrogate) so that positions stay exact. The same
    bytes object asked again gets the same text without decoding again (20 MiB of
    random bytes took 0.37 s a decode)."""
    global _last
    if data is _last[0]:
        return _last[1]
    text = data.decode("utf-8", "surrogateescape")
    if type(data) is bytes:  # immutable: the text stays right for these bytes
        _last = (data, text)
    return text


def forget_source_text() -> None:
    """Let go of the text `source_text` keeps (a file's text is not kept past its reading)."""
    global _last
    _last = (None, "")


def split_lines(text: str) -> list[str]:
    """``text``'s lines without their endings, split where `LINE_BREAK` matches (a
    final line break ends the last line, as ``str.splitlines`` has it)."""
    lines = LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


@tuple_record
class Span:
    """A range in a file: bytes [start, end), lines and columns 1-based."""

    start: int
    end: int
    line: int
    col: int
    end_line: int
    end_col: int
    file: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line,
            "end_col": self.end_col,
        }

    @staticmethod
    def at(file: str, line: int, col: int, end_line: int, end_col: int) -> "Span":
        """A span known by its lines and columns only (no byte offsets)."""
        return Span(-1, -1, line, col, end_line, end_col, file)

    @staticmethod
    def point(file: str, line: int, col: int = 1) -> "Span":
        """One character's width at a line and column (no byte offsets)."""
        return Span(-1, -1, line, col, line, col + 1, file)

    def for_finding(self, file: str = "") -> "Span":
        """This span as a finding shows it: in ``file`` (the path as the user gave it;
        by default the span's own) and at least one column wide, so an empty range
        (an insertion point, an empty value) still marks a character."""
        end_col = self.end_col if (self.end_line, self.end_col) != (self.line, self.col) else self.col + 1
        return Span(self.start, self.end, self.line, self.col, self.end_line, end_col, file or self.file)

    def position(self) -> tuple[str, int, int, int, int]:
        """(file, line, col, end_line, end_col): what a finding's output shows."""
        return (self.file, self.line, self.col, self.end_line, self.end_col)


def join_spans(a: Span, b: Span) -> Span:
    """The span from the start of ``a`` to the end of ``b`` (same file)."""
    if b.end < a.start:
        a, b = b, a
    return Span(a.start, max(a.end, b.end), a.line, a.col, b.end_line, b.end_col, a.file)
