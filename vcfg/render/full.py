"""Findings with the source line, a caret under the offending text, and help lines.

Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
"""

from __future__ import annotations

import os
import sys

from vcfg.diagnostics import Diagnostic, Summary
from vcfg.render.clean import clean
from vcfg.render.concise import summary_line
from vcfg.span import split_lines

_COLOURS = {"error": "31", "warning": "33", "info": "36", "bold": "1", "dim": "2", "help": "32"}


def use_colour(stream=None) -> bool:  # type: ignore[no-untyped-def]
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return bool(getattr(stream, "isatty", lambda: False)())


def render(diags: list[Diagnostic], summary: Summary, sources: dict[str, str], colour: bool = False) -> str:
    def c(kind: str, text: str) -> str:
        return f"\x1b[{_COLOURS[kind]}m{text}\x1b[0m" if colour else text

    out: list[str] = []
    lines_cache: dict[str, list[str]] = {}
    for d in diags:
        s = d.span
        out.append(f"{c(d.severity, d.severity)}[{c('bold', d.code)}]: {c('bold', clean(d.message))}")
        out.append(f"  --> {clean(s.file)}:{s.line}:{s.col}")
        text = sources.get(s.file)
        if text is not None:
            lines = lines_cache.setdefault(s.file, split_lines(text))
            if 1 <= s.line <= len(lines):
                src = clean(lines[s.line - 1].expandtabs(1))
                if len(src) > 160:  # keep the caret in view on very long lines
                    start = max(0, s.col - 60)
                    cut = start + 150 < len(src)
                    src = ("..." if start else "") + src[start : start + 150] + ("..." if cut else "")
                    col = s.col - start + (3 if start else 0)
                else:
                    col = s.col
                width = (s.end_col - s.col) if s.end_line == s.line else len(src) - col + 1
                shown = len(src) - (3 if src.endswith("...") and len(lines[s.line - 1]) > 160 else 0)
                width = max(1, min(width, max(1, shown - col + 1)))
                gutter = str(s.line)
                out.append(f"{' ' * len(gutter)} |")
                out.append(f"{gutter} | {src}")
                out.append(f"{' ' * len(gutter)} | {' ' * (col - 1)}{c(d.severity, '^' * width)}")
        if d.help:
            out.append(f"  = {c('help', 'help')}: {clean(d.help)}")
        for note in d.notes:
            out.append(f"  = note: {clean(note)}")
        out.append("")
    out.append(summary_line(summary))
    return "\n".join(out)
