"""VC024 config-value-type: a JSON value of the wrong type for its config field."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.catalog.model import ConfigField
from vcfg.launch.args import V_JSON_HRI, version_tuple
from vcfg.lint.context import LaunchContext
from vcfg.diagnostics import Diagnostic
from vcfg.lint.rule import Rule
from vcfg.launch.args.lax import HRI_TEXT, field_accepts
from vcfg.lint.rules._config_json import config_objects, judged_field, shown, value_span

RULE = Rule(
    code="VC024",
    name="config-value-type",
    summary="a JSON value of the wrong type for its config field",
    severity="error",
    why=(
        "vLLM validates a config option's JSON with pydantic in lax mode: a number "
        "written as a string (\"22001\") is fine for an integer field, but text that is "
        "not a number, a number where text is expected, or null where the field does "
        "not allow it stops the server."
    ),
    when_vllm_fails="at parse time: vllm exits 2 with a pydantic validation error",
    example=(
        "vllm serve facebook/opt-125m \\\n"
        "  --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\",\"kv_port\":\"21k\"}'\n"
    ),
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        "  --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\",\"kv_port\":\"21000\"}'\n"
    ),
)

_WORDS = {"int": "an integer", "float": "a number", "str": "a string", "bool": "true or false",
          "dict": "an object", "None": "null"}


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for obj in config_objects(lc):
        for key, v in obj.value.items():
            f = judged_field(obj.cls, key)
            if f is None or field_accepts(f, v) is not False or _is_choice_problem(f, v):
                continue
            yield RULE.diag(
                value_span(lc, obj, key),
                f"`{key}` expects {expected(f)}, not `{shown(v)}`",
                help=_help(lc, f, v),
            )


def _is_choice_problem(f: ConfigField, v: Any) -> bool:
    """A scalar for a Literal field: VC025 reports it with the choices."""
    return "Literal" in f.hints and isinstance(v, (str, int, float)) and not isinstance(v, bool)


def expected(f: ConfigField) -> str:
    out: list[str] = []
    for h in f.hints:
        if h == "Literal":
            out.append("one of " + ", ".join(f"`{c}`" for c in (f.choices or [])))
        elif h in _WORDS:
            out.append(_WORDS[h])
        elif h.startswith(("list[", "set[", "tuple[")):
            out.append("a list")
        else:
            out.append("an object")
    seen: list[str] = []
    for w in out:
        if w not in seen:
            seen.append(w)
    return " or ".join(seen)


def _help(lc: LaunchContext, f: ConfigField, v: Any) -> Optional[str]:
    numeric = {"int", "float"} & set(f.hints)
    if numeric and isinstance(v, str) and HRI_TEXT.fullmatch(v.strip()):
        if version_tuple(lc.catalog.vllm_version) >= V_JSON_HRI:
            return f"remove the quotes: vllm expands an unquoted {v.strip()} inside JSON"
        return "write the number in full: vllm expands 80g-style numbers in JSON only from 0.20"
    if "int" in f.hints and isinstance(v, float):
        return "write a whole number"
    if "str" in f.hints and isinstance(v, (int, float, bool)):
        return f"put it in double quotes: \"{shown(v)}\""
    if v is None:
        return "remove the key to keep the default"
    if "bool" in f.hints and isinstance(v, str):
        return "write true or false"
    return None
