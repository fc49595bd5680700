"""The JSON contract: ``{"diagnostics": [...], "summary": {...}}``."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from vcfg.diagnostics import Diagnostic, Summary


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def dumps(value: Any, **kw: Any) -> str:
    """``json.dumps`` that writes JSON whatever the value: a NaN or infinite float
    (``--gpu-memory-utilization nan``, ``1e999``) is written as the string "nan",
    "inf" or "-inf", never as the bare words Python's json module writes."""
    kw.setdefault("ensure_ascii", False)
    try:
        text = json.dumps(value, allow_nan=False, **kw)
    except ValueError:
        text = json.dumps(_finite(value), allow_nan=False, **kw)
    # json leaves these raw inside strings: escape them (C1 controls, bidi controls,
    # line separators); a lone surrogate (a byte that was not UTF-8) becomes U+FFFD
    return _RAW.sub(_escape, text)


_RAW = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: "re.Match[str]") -> str:
    c = ord(m.group())
    return "\\ufffd" if 0xD800 <= c <= 0xDFFF else f"\\u{c:04x}"


def render(diags: list[Diagnostic], summary: Summary, sources: dict[str, str]) -> str:
    return dumps({"diagnostics": [d.to_json() for d in diags], "summary": summary.to_json()}, indent=2)
