"""The JSON contract: ``{"diagnostics": [...], "summary": {...}}``."""

from __future__ import annotations

import json

from vcfg.diagnostics import Diagnostic, Summary


def render(diags: list[Diagnostic], summary: Summary, sources: dict[str, str]) -> str:
    return json.dumps(
        {"diagnostics": [d.to_json() for d in diags], "summary": summary.to_json()},
        indent=2,
        ensure_ascii=False,
    )
