"""How pydantic v2 judges a JSON value against a config field in lax mode, emulated
(vcfg never imports pydantic on the lint path; the tests use it as an oracle).

vLLM turns a config-class option's JSON into its dataclass with
``TypeAdapter(cls).validate_json(text)`` (0.33.0 engine/arg_utils.py:369-373, 0.13.0
arg_utils.py:278-282, 0.10.2 arg_utils.py:195-197): lax mode on JSON input, so
``"22001"`` is an int and ``5`` is not a str.  `accepts` judges one member of a
field's flattened type (`ConfigField.hints`), `field_accepts` the whole field.
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterator, Optional

from vcfg.catalog.model import ConfigField
from vcfg.regex import lazy

_BOOL_WORDS = {"0", "off", "f", "false", "n", "no", "1", "on", "t", "true", "y", "yes"}
_INT_TEXT = re.compile(r"[+-]?\d+(?:_\d+)*(?:\.0*)?")
_FLOAT_TEXT = lazy(r"[+-]?(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|infinity|nan)", re.I)
HRI_TEXT = lazy(r"\d+(?:\.\d+)?[kKmMgGtT]")


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def accepts(hint: str, v: Any, choices: Optional[list[Any]] = None) -> Optional[bool]:
    """Does one union member accept JSON value ``v`` in pydantic's lax JSON mode?
    None: vcfg cannot tell (a foreign class, an unusual element type).  Checked with
    pydantic 2.14 (vLLM >= 0.33 requires >= 2.12): "22001" -> int, true -> int/float,
    "1e9" -> float, 5 -> str refused, "yes"/"off" -> bool, "5.0" -> int, 5.5 -> int refused."""
    if hint.startswith("class:"):
        return None
    if hint == "None":
        return v is None
    if hint == "bool":
        if isinstance(v, bool):
            return True
        if _is_num(v):
            return v in (0, 1)
        return isinstance(v, str) and v.strip().lower() in _BOOL_WORDS
    if hint == "int":
        if isinstance(v, bool):
            return True
        if isinstance(v, int):
            return True
        if isinstance(v, float):
            return math.isfinite(v) and v.is_integer()
        return isinstance(v, str) and _INT_TEXT.fullmatch(v.strip()) is not None
    if hint == "float":
        if isinstance(v, (bool, int, float)):
            return True
        return isinstance(v, str) and _FLOAT_TEXT.fullmatch(v.strip()) is not None
    if hint == "str":
        return isinstance(v, str)
    if hint == "dict":
        return isinstance(v, dict)
    if hint == "Literal":
        return in_choices(v, choices or [])
    m = re.fullmatch(r"(list|set|tuple)\[(.*)\]", hint)
    if m:
        if not isinstance(v, list):
            return False
        inner = m.group(2)
        if m.group(1) == "tuple" and not inner.endswith(", ...") and "[" not in inner:
            parts = [p.strip() for p in inner.split(",")]
            if len(parts) != len(v):
                return False
            return _all_known(accepts(p, x) for p, x in zip(parts, v))
        elem = inner[:-5] if inner.endswith(", ...") else inner
        if "[" in elem or "class:" in elem:
            return None
        members = [e.strip() for e in elem.split("|")]
        return _all_known(_any_known(accepts(e, x) for e in members) for x in v)
    # a nested config class: an object (its keys are checked on their own)
    return isinstance(v, dict)


def _any_known(results: Iterator[Optional[bool]]) -> Optional[bool]:
    out: Optional[bool] = False
    for r in results:
        if r:
            return True
        if r is None:
            out = None
    return out


def _all_known(results: Iterator[Optional[bool]]) -> Optional[bool]:
    out: Optional[bool] = True
    for r in results:
        if r is False:
            return False
        if r is None:
            out = None
    return out


def in_choices(v: Any, choices: list[Any]) -> bool:
    """Literal matching: strings exactly; numbers by value (1.0 matches 1)."""
    for c in choices:
        if isinstance(c, str) or isinstance(v, str):
            if isinstance(c, str) and isinstance(v, str) and c == v:
                return True
        elif isinstance(c, bool) or isinstance(v, bool):
            if c is v:
                return True
        elif v == c:
            return True
    return False


def field_accepts(f: ConfigField, v: Any) -> Optional[bool]:
    """Whether any member of the field's type accepts ``v`` (None: cannot tell)."""
    if not f.hints or any(h.startswith("class:") for h in f.hints):
        return None
    return _any_known(accepts(h, v, f.choices) for h in f.hints)


def json_type(v: Any) -> str:
    """The JSON Schema type name of a parsed JSON value."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"
