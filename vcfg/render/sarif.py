"""SARIF 2.1.0, for code-scanning uploads.

Locations are URIs relative to the working directory, with ``uriBaseId`` "%SRCROOT%"
and that directory in ``originalUriBaseIds`` (SARIF 2.1.0 section 3.4.4), as GitHub code
scanning expects; the caller has made every path relative (vcfg/cli/lint.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from vcfg import __version__
from vcfg.diagnostics import Diagnostic, Summary

_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(
    diags: list[Diagnostic],
    summary: Summary,
    sources: dict[str, str],
    rules=(),  # type: ignore[no-untyped-def]
) -> str:
    used = sorted({d.code for d in diags})
    by_code = {r.code: r for r in rules}
    rule_objs = []
    for code in used:
        r = by_code.get(code)
        obj: dict[str, Any] = {"id": code}
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
                            "artifactLocation": _artifact(s.file),
                            "region": {
                                "startLine": s.line,
                                "startColumn": s.col,
                                "endLine": s.end_line,
                                "endColumn": s.end_col,
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
                "originalUriBaseIds": {"%SRCROOT%": {"uri": Path(os.getcwd()).as_uri() + "/"}},
                "results": results,
                "properties": {"vllmVersion": summary.vllm_version},
            }
        ],
    }
    from vcfg.render.json_ import dumps

    return dumps(doc, indent=2)


def _quote(path: str) -> str:
    """Percent-encoded (RFC 3986): spaces, ``%``, ``#``, ``?``, control characters,
    non-ASCII and bytes that were not UTF-8 (kept as surrogates) alike."""
    try:
        raw = os.fsencode(path)
    except UnicodeEncodeError:
        raw = path.encode("utf-8", "replace")
    return quote(raw, safe="/")


def _artifact(path: str) -> dict[str, str]:
    if path.startswith("<"):  # <stdin>
        return {"uri": _quote(path)}
    if os.path.isabs(path):  # outside the tree
        return {"uri": "file://" + _quote(path)}
    return {"uri": _quote(path.replace(os.sep, "/")), "uriBaseId": "%SRCROOT%"}
