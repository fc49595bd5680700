"""VC024 config-value-type: a JSON value of the wrong type for its config field."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.catalog.model import ConfigField
from vcfg.diagnostics import Diagnostic
from vcfg.launch.args import since, version_tuple
from vcfg.launch.args.lax import HRI_TEXT, field_accepts
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, span
from vcfg.lint.rules._config_json import (
    config_objects,
    is_skipped,
    judged_field,
    judged_value,
    shown,
    value_span,
)  # fmt: skip

RULE = Rule(
    code="VC024",
    name="config-value-type",
    summary="a JSON value of the wrong type for its config field",
    severity="error",
    why=(
        "vLLM validates a config option's JSON with pydantic in lax mode: a number "
        'written as a string ("22001") is fine for an integer field, but text that is '
        "not a number, a number where text is expected, or null where the field does "
        "not allow it stops the server."
    ),
    when_vllm_fails=(
        "at parse time for a config option's JSON (vllm exits 2 with a pydantic validation "
        "error); for text where `--hf-overrides` (or another dict-or-text option) needs an "
        "object, when the engine config is built, before the model loads"
    ),
    example=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_port":"21k"}\'\n'
    ),
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_port":"21000"}\'\n'
    ),
)

_WORDS = {
    "int": "an integer",
    "float": "a number",
    "str": "a string",
    "bool": "true or false",
    "dict": "an object",
    "None": "null",
}


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from _whole_values(lc)
    for obj in config_objects(lc):
        for key, v in obj.value.items():
            f = judged_field(obj.cls, key)
            if f is None:
                continue
            jv = judged_value(f, v)
            if is_skipped(jv) or field_accepts(f, jv) is not False or _is_choice_problem(f, jv):
                continue
            yield RULE.diag(
                value_span(lc, obj, key),
                f"`{key}` expects {expected(f)}, not `{shown(v)}`",
                help=_help(lc, f, v),
            )


#: members of a field's type that take any text (a text value is not judged then)
_TEXT_OK = ("str", "class:Any", "class:SupportsHash")


def _whole_values(lc: LaunchContext) -> Iterator[Diagnostic]:
    """The option's whole value where vLLM needs an object: JSON that is not an object
    for a config class (``--compilation-config 3``: ``TypeAdapter(cls).validate_json``,
    0.33.0 engine/arg_utils.py:369-373, fails at parse time), and text for a
    ``union_dict_and_str`` option whose field takes no text (``--hf-overrides '{"a":'``
    is not ``{...}``-shaped, so it stays text, arg_utils.py:182-185, which
    ``ModelConfig.hf_overrides``, a dict or a callable, refuses when the engine config
    is built)."""
    pa = parsed(lc)
    if pa is None:
        return
    for ov in pa.options.values():
        f = ov.flag
        if f is None or not ov.known:
            continue
        v = ov.value
        if (
            f.config_class_of_value
            and ov.json is not None
            and not isinstance(ov.json.value, dict)
            and version_tuple(lc.catalog.vllm_version) >= since("config-option-object-only")
        ):
            jv = ov.json.value
            if jv is None and f.optional:
                continue
            yield RULE.diag(
                span(lc, ov.value_span or ov.span),
                f"`{f.long_name}` expects a JSON object ({f.config_class_of_value}), not `{shown(jv)}`",
                help="write the keys as an object, e.g. '{\"key\": value}', or pass them one by one "
                f"as {f.long_name}.key=value",
            )
        elif f.type == "dict_or_str" and isinstance(v, str) and f.config_class and f.config_field:
            cls = lc.catalog.config(f.config_class)
            fld = cls.field(f.config_field) if cls is not None else None
            if fld is None or not fld.hints or any(h in _TEXT_OK for h in fld.hints):
                continue
            if not all(h in ("dict", "None", "class:Callable") for h in fld.hints):
                continue
            looks_json = v.lstrip().startswith("{")
            yield RULE.diag(
                span(lc, ov.value_span or ov.span),
                f"`{f.long_name}` expects a JSON object, not text `{v if len(v) <= 40 else v[:37] + '...'}`"
                + (" (the JSON is not complete, so vllm reads it as text)" if looks_json else ""),
                help="close the JSON object" if looks_json else "write a JSON object",
                notes=(f"{f.config_class}.{f.config_field} refuses text when the engine config is built",),
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
        if version_tuple(lc.catalog.vllm_version) >= since("json-human-readable-numbers"):
            return f"remove the quotes: vllm expands an unquoted {v.strip()} inside JSON"
        return "write the number in full: vllm expands 80g-style numbers in JSON only from 0.20"
    if "int" in f.hints and isinstance(v, float):
        return "write a whole number"
    if "str" in f.hints and isinstance(v, (int, float, bool)):
        return f'put it in double quotes: "{shown(v)}"'
    if v is None:
        return "remove the key to keep the default"
    if "bool" in f.hints and isinstance(v, str):
        return "write true or false"
    return None
