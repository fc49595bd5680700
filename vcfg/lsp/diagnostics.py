"""Lint findings as LSP diagnostics: positions in the client's encoding, the rule code
with a link to its page, vcfg's help and notes in the message."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Optional, Sequence

from lsprotocol import types as t

SEVERITY = {
    "error": t.DiagnosticSeverity.Error,
    "warning": t.DiagnosticSeverity.Warning,
    "info": t.DiagnosticSeverity.Information,
}
SOURCE = "vcfg"


@lru_cache(maxsize=1)
def _local_rules_dir() -> Optional[Path]:
    """docs/rules of a source checkout (an editable install), if there is one."""
    import vcfg

    d = Path(vcfg.__file__).resolve().parent.parent / "docs" / "rules"
    return d if d.is_dir() else None


@lru_cache(maxsize=256)
def rule_url(code: str, name: str, base: Optional[str]) -> Optional[str]:
    """The page of rule ``code``: ``{base}/VC001-unknown-flag.md``, else the file in a
    source checkout."""
    slug = f"{code}-{name}" if name else code
    if base:
        return f"{base.rstrip('/')}/{slug}.md"
    d = _local_rules_dir()
    if d is None:
        return None
    p = d / f"{slug}.md"
    return p.as_uri() if p.is_file() else None


def to_range(lm: Any, line: int, col: int, end_line: int, end_col: int) -> t.Range:
    """A vcfg span (1-based lines, 1-based code-point columns, end exclusive) as an
    LSP range in the client's position encoding (``lm``: a `LineMap`)."""
    a = lm.to_client(max(0, line - 1), max(0, col - 1))
    b = lm.to_client(max(0, end_line - 1), max(0, end_col - 1))
    if b < a:
        b = a
    return t.Range(t.Position(*a), t.Position(*b))


def message_of(d: Any) -> str:
    parts = [d.message]
    if d.help:
        parts.append(f"help: {d.help}")
    parts.extend(f"note: {n}" for n in d.notes)
    return "\n".join(parts)


def to_lsp(lm: Any, diags: Sequence[Any], path: str, rules_base: Optional[str] = None) -> list[t.Diagnostic]:
    out = []
    for d in diags:
        s = d.span
        if s.file != path:
            continue  # a finding in another file (a --config YAML): not this document's
        url = rule_url(d.code, d.name, rules_base)
        out.append(
            t.Diagnostic(
                range=to_range(lm, s.line, s.col, s.end_line, s.end_col),
                message=message_of(d),
                severity=SEVERITY.get(d.severity, t.DiagnosticSeverity.Warning),
                code=d.code,
                code_description=t.CodeDescription(href=url) if url else None,
                source=SOURCE,
                tags=[t.DiagnosticTag.Unnecessary] if d.code == "VC900" else None,
            )
        )
    return out


def problem_diagnostic(message: str) -> t.Diagnostic:
    """A settings or config problem, shown at the top of the file."""
    return t.Diagnostic(
        range=t.Range(t.Position(0, 0), t.Position(0, 0)),
        message=message,
        severity=t.DiagnosticSeverity.Warning,
        source=SOURCE,
        code="config",
    )
