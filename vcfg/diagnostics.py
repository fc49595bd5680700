"""One frozen `Diagnostic` for every finding, parse problems included; it points at a
`vcfg.span.Span`, the type the launch model's positions have."""

from __future__ import annotations

from typing import Any, Literal, Optional

from vcfg.edits import Edit, Fix  # noqa: F401  (a finding's fix: text edits, vcfg/edits.py)
from vcfg.records import field, record
from vcfg.span import Span

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


@record(frozen=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span
    help: Optional[str] = None
    notes: tuple[str, ...] = ()
    fix: Optional[Fix] = None
    name: str = ""

    def sort_key(self) -> tuple[Any, ...]:
        s = self.span
        return (s.file, s.line, s.col, self.code, self.message)

    def to_json(self) -> dict[str, Any]:
        s = self.span
        out: dict[str, Any] = {
            "code": self.code,
            "name": self.name,
            "severity": self.severity,
            "message": self.message,
            "help": self.help,
            "path": s.file,
            "line": s.line,
            "column": s.col,
            "end_line": s.end_line,
            "end_column": s.end_col,
        }
        if self.notes:
            out["notes"] = list(self.notes)
        if self.fix:
            out["fix"] = self.fix.to_json()
        return out


@record
class Summary:
    files: int = 0
    launches: int = 0
    vllm_version: str = ""
    version_note: Optional[str] = None
    counts: dict[str, int] = field(default_factory=lambda: {"error": 0, "warning": 0, "info": 0})
    #: the release of each launch, when their images make launches differ
    releases: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "files": self.files,
            "launches": self.launches,
            "vllm_version": self.vllm_version,
            "errors": self.counts["error"],
            "warnings": self.counts["warning"],
            "infos": self.counts["info"],
        }
        if self.version_note:
            out["version_note"] = self.version_note
        if self.releases:
            out["releases"] = self.releases
        return out
