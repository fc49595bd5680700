"""GitHub Actions workflow commands: ``::error file=...,line=...,col=...::message``."""

from __future__ import annotations

from vcfg.diagnostics import Diagnostic, Summary
from vcfg.render.clean import clean
from vcfg.render.concise import summary_line

_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(s: str) -> str:
    """Data per the workflow-command rules (% first, then CR and LF)."""
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(s: str) -> str:
    return _escape_data(clean(s)).replace(":", "%3A").replace(",", "%2C")


def render(diags: list[Diagnostic], summary: Summary, sources: dict[str, str]) -> str:
    out = []
    for d in diags:
        s = d.span
        props = (
            f"file={_escape_prop(s.file)},line={s.line},col={s.col},"
            f"endLine={s.end_line},endColumn={s.end_col},"
            f"title={_escape_prop(f'{d.code} {d.name}')}"
        )
        # CR and LF are escaped (%0D, %0A) as the workflow-command rules say; every
        # other control character becomes its control picture
        msg = clean(d.message, keep_newlines=True) + (f"\nhelp: {clean(d.help, keep_newlines=True)}" if d.help else "")
        out.append(f"::{_LEVEL[d.severity]} {props}::{_escape_data(msg)}")
    out.append(summary_line(summary))
    return "\n".join(out)
