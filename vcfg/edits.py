"""Fixes a diagnostic offers: text edits with a safety level, in the style of ruff.

An `Edit` replaces the bytes ``[start, end)`` of one file with ``content``; it also
holds the text it expects there (``original``), so that applying it to a file that
changed since it was linted is refused instead of corrupting the file, and the
1-based line/column range for output.  A `Fix` is a set of edits that must be
applied together (moving an ``export`` line deletes it in one place and inserts it
in another), with an applicability:

- ``safe``: nothing about what vLLM does changes except the mistake going away
  (typographic quotes to ASCII, ``--flag=true`` of a boolean, a removed flag whose
  replacement is exact);
- ``unsafe``: it may change what vLLM does (a did-you-mean, a near replacement), and
  is applied only with ``--unsafe-fixes``.

These records are cheap to import (rules build them while linting); applying them
lives in `vcfg.fix`, loaded only by ``--fix``/``--diff`` and ``vcfg upgrade``.
"""

from __future__ import annotations

from typing import Any, Literal

from vcfg.records import record
from vcfg.span import Span

Applicability = Literal["safe", "unsafe"]
APPLICABILITIES = ("safe", "unsafe")


@record(frozen=True, order=True)
class Edit:
    """Replace bytes ``[start, end)`` of ``path`` (which hold ``original``) with
    ``content``; ``start == end`` inserts.  Lines and columns are 1-based, columns in
    characters, ``end_column`` exclusive."""

    path: str
    start: int
    end: int
    content: str
    original: str
    line: int
    column: int
    end_line: int
    end_column: int

    def to_json(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "original": self.original,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }


@record(frozen=True)
class Fix:
    """Edits applied together or not at all (`vcfg.fix.apply`)."""

    edits: tuple[Edit, ...]
    applicability: Applicability = "safe"
    description: str = ""

    @property
    def paths(self) -> set[str]:
        return {e.path for e in self.edits}

    def to_json(self) -> dict[str, Any]:
        return {
            "applicability": self.applicability,
            "description": self.description,
            "edits": [e.to_json() for e in self.edits],
        }


def edit_from_span(span: Span, content: str, original: str, path: str = "") -> Edit:
    """An edit over a span with byte offsets (a launch word's, an option's)."""
    return Edit(
        path or span.file, span.start, span.end, content, original, span.line, span.col, span.end_line, span.end_col
    )
