"""SARIF 2.1.0, for code-scanning uploads."""

from __future__ import annotations

import json

from vcfg import __version__
from vcfg.diagnostics import Diagnostic, Summary

_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(
    diags: list[Diagnostic], summary: Summary, sources: dict[str, str], rules=()  # type: ignore[no-untyped-def]
) -> str:
    used = sorted({d.code for d in diags})
    by_code = {r.code: r for r in rules}
    rule_objs = []
    for code in used:
        r = by_code.get(code)
        obj = {"id": code}
        if r is not None:
            obj.update(
                {
                    "name": r.name,
                    "shortDescription": {"text": r.summary},
                    "defaultConfiguration": {"level": _LEVEL[r.severity]},
                    "help": {"text": f"see docs/rules/{r.slug}.md or `vcfg explain {r.code}`"},
                }
            )
        rule_objs.append(obj)
    index = {code: i for i, code in enumerate(used)}
    results = []
    for d in diags:
        s = d.span
        text = d.message + (f" (help: {d.help})" if d.help else "")
        results.append(
            {
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": _LEVEL[d.severity],
                "message": {"text": text},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": s.path},
                            "region": {
                                "startLine": s.line,
                                "startColumn": s.column,
                                "endLine": s.end_line,
                                "endColumn": s.end_column,
                            },
                        }
                    }
                ],
            }
        )
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "vcfg",
                        "version": __version__,
                        "rules": rule_objs,
                    }
                },
                "results": results,
                "properties": {"vllmVersion": summary.vllm_version},
            }
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)
