"""A Markdown file saved with Windows line endings: its shell blocks are pasted into a
shell line by line, without the CR, so every real corpus Markdown file gives the same
launches and findings (codes, lines, columns) with CR LF as with LF."""

from __future__ import annotations

from pathlib import Path

import pytest

from vcfg.lint.engine import lint_paths

REAL = Path(__file__).resolve().parent / "corpus" / "real" / "markdown"
FILES = sorted(p for p in REAL.rglob("*.md") if b"\\\n" in p.read_bytes())


def view(path: Path):  # type: ignore[no-untyped-def]
    res = lint_paths([str(path)], "0.33.0")
    assert not res.internal_errors
    return [(d.code, d.span.line, d.span.col, d.message) for d in res.diagnostics], res.summary.launches


def test_there_are_markdown_files_with_continued_commands():
    assert len(FILES) >= 8


@pytest.mark.parametrize("src", FILES, ids=lambda p: str(p.relative_to(REAL)))
def test_windows_line_endings_change_nothing(tmp_path, src):
    lf = tmp_path / "lf" / src.name
    crlf = tmp_path / "crlf" / src.name
    lf.parent.mkdir()
    crlf.parent.mkdir()
    data = src.read_bytes().replace(b"\r\n", b"\n")
    lf.write_bytes(data)
    crlf.write_bytes(data.replace(b"\n", b"\r\n"))
    assert view(crlf) == view(lf)
