"""What every vcfg schema shares: identifiers, drafts, value patterns, JSON text.

Schemas are built as JSON Schema 2020-12 (``$defs``) and converted to draft-07
(``definitions``) on the way out; the committed files are draft-07, which SchemaStore
recommends and every editor reads.  Nothing here knows about vLLM.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

Draft = Literal["07", "2020-12"]
DRAFTS: tuple[Draft, ...] = ("07", "2020-12")
DEFAULT_DRAFT: Draft = "07"

#: Where vcfg's schemas are identified.  The ``$id`` of a schema names it; nothing
#: is fetched from there (see docs/schemas.md).
ID_BASE = "https://vcfg.dev/schemas/"

METASCHEMA: dict[str, str] = {
    "07": "http://json-schema.org/draft-07/schema#",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}

#: The schema kinds that are not a config class name.
SERVE, KV_TRANSFER, ENV = "serve", "kv-transfer-config", "env"
KINDS: tuple[str, ...] = (SERVE, KV_TRANSFER, ENV)


def schema_file_name(kind: str, strict: bool = False, draft: Draft = DEFAULT_DRAFT) -> str:
    """``serve.schema.json``, ``serve.strict.schema.json``, ``serve.2020-12.schema.json``."""
    parts = [kind]
    if strict:
        parts.append("strict")
    if draft != DEFAULT_DRAFT:
        parts.append(draft)
    return ".".join(parts) + ".schema.json"


def schema_id(version: str, kind: str, strict: bool = False, draft: Draft = DEFAULT_DRAFT) -> str:
    return f"{ID_BASE}{version}/{schema_file_name(kind, strict, draft)}"


# --------------------------------------------------------------------------- patterns
# ECMA-262 regexes (no inline flags): what Python's conversions accept, as text.

#: int(): optional sign, digits, surrounding whitespace (Python also takes "1_000";
#: the schema does not, on purpose).
INT_TEXT = r"^\s*[+-]?\d+\s*$"
#: float(): decimal, exponent, inf/infinity/nan in any case.
FLOAT_TEXT = r"^\s*[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[iI][nN][fF]([iI][nN][iI][tT][yY])?|[nN][aA][nN])\s*$"
#: vLLM's human_readable_int (0.33.0 utils/argparse_utils.py:30-74): a plain int, or
#: a number with a k/m/g/t (decimal, decimals allowed) or K/M/G/T (binary) suffix.
HUMAN_INT_TEXT = r"^\s*([+-]?\d+|\d+(\.\d+)?[kmgt]|\d+[KMGT])\s*$"
#: human_readable_int_or_auto (0.33.0 utils/argparse_utils.py:77-94): also "auto", "-1".
HUMAN_INT_OR_AUTO_TEXT = r"^\s*([+-]?\d+|\d+(\.\d+)?[kmgt]|\d+[KMGT]|[aA][uU][tT][oO])\s*$"
#: JSON text of an object (the value of a config-class option), and the same or the
#: texts vLLM's optional types read as None.
OBJECT_TEXT = r"^\s*\{[\s\S]*\}\s*$"
OPTIONAL_OBJECT_TEXT = r"^(\s*\{[\s\S]*\}\s*|None|)$"
#: A text that urllib would read as "scheme://..." (Kubernetes service links).
URI_TEXT = r"^[A-Za-z][A-Za-z0-9+.-]*://"


def any_case(word: str) -> str:
    """An ECMA regex body matching ``word`` in any letter case."""
    out = []
    for ch in word:
        if ch.isalpha() and ch.lower() != ch.upper():
            out.append(f"[{ch.lower()}{ch.upper()}]")
        else:
            out.append(re.escape(ch))
    return "".join(out)


def choice_pattern(choices: list[str], case_sensitive: bool = True, sep: bool = False) -> str:
    """A regex for one of ``choices`` (or, with ``sep``, a comma-separated list of them,
    items stripped of spaces, empty items allowed, as vLLM's list parsers do)."""
    alts = [re.escape(c) if case_sensitive else any_case(c) for c in choices]
    one = "(" + "|".join(alts) + ")"
    if not sep:
        return f"^{one}$"
    item = rf"\s*({one})?\s*"
    return rf"^{item}(,{item})*$"


# --------------------------------------------------------------------------- drafts


def to_draft(schema: dict[str, Any], draft: Draft) -> dict[str, Any]:
    """``schema`` (built as 2020-12) in ``draft``: for 07, ``$defs`` become
    ``definitions`` and every ``$ref`` follows."""
    if draft == "2020-12":
        return schema

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out: dict[str, Any] = {}
            for k, v in node.items():
                if k == "$ref" and isinstance(v, str) and v.startswith("#/$defs/"):
                    out[k] = "#/definitions/" + v[len("#/$defs/") :]
                elif k == "$defs":
                    out["definitions"] = {name: walk(s) for name, s in v.items()}
                else:
                    out[k] = walk(v)
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)


def header(schema_id_: str, draft: Draft, title: str, comment: str, description: str) -> dict[str, Any]:
    """The keys every schema starts with, in a stable order."""
    return {
        "$schema": METASCHEMA[draft],
        "$id": schema_id_,
        "$comment": comment,
        "title": title,
        "description": description,
    }


# --------------------------------------------------------------------------- json text


def dumps(schema: Any) -> str:
    """JSON text for a committed schema: containers on their own lines down to one
    property per line, each property's schema on one line.  Small, and diffs stay
    readable."""
    return _fmt(schema, 0) + "\n"


_MAPS = {"properties", "patternProperties", "$defs", "definitions"}
_LINE_LIMIT = 160
_NESTING = ("properties", "allOf", "$defs", "definitions")


def _fmt(value: Any, depth: int, leaf: bool = False, is_map: bool = False) -> str:
    """``leaf``: a property's schema, on one line unless it holds other properties;
    ``is_map``: a name -> schema mapping (each member may be a leaf)."""
    flat = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if not isinstance(value, (dict, list)) or not value:
        return flat
    nested = isinstance(value, dict) and any(k in value for k in _NESTING)
    if len(flat) <= _LINE_LIMIT or (leaf and not nested):
        return flat
    pad = " " * (depth + 1)
    if isinstance(value, list):
        items = [pad + _fmt(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"
    items = [
        pad
        + json.dumps(k, ensure_ascii=False)
        + ":"
        + _fmt(v, depth + 1, leaf=is_map, is_map=(k in _MAPS and not is_map))
        for k, v in value.items()
    ]
    return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"


def removed_key(message: str) -> dict[str, Any]:
    """A key that is rejected with ``message`` and nothing else.  Its value must equal
    the message itself, which no real value does: yaml-language-server then shows the
    schema's ``errorMessage`` in place of its own text, and check-jsonschema prints the
    message as the value it expected.  (``not: {}`` adds "Matches a schema that is not
    allowed.", a ``deprecationMessage`` beside it a second diagnostic, and an empty
    ``enum`` is an invalid schema to yaml-language-server's meta-schema check.)"""
    return {"const": message, "errorMessage": message, "doNotSuggest": True}
