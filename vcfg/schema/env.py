"""The schema of an environment map (a compose ``environment:`` mapping, a
Kubernetes-style env map, a ``.env`` file read into a mapping): every variable
this release's ``vllm/envs.py`` reads, with a pattern for the text vLLM accepts
(`vcfg.catalog.envparse` judges the same way).

Other variables (``PATH``, ``NCCL_*``, a plugin's) are always allowed.  The strict
schema also rejects a ``VLLM_*`` name this release does not read (vLLM 0.20+ warns
about those, or fails with ``--fail-on-environ-validation``).  Variables of other
releases are described with a deprecation message, not rejected: vLLM ignores them.
"""

from __future__ import annotations

from typing import Any, Optional

from vcfg.catalog.model import EnvVar
from vcfg.schema import describe as d
from vcfg.schema.context import Context
from vcfg.schema.values import env_value

_PARSE_WORDS = {
    "int": "integer",
    "float": "number",
    "bool_int": "`1` or `0` (read as `bool(int(value))`: `true` fails)",
    "bool_word": "true when it is one of the words below (lower-cased), else false",
    "str": "text",
    "list": "comma-separated list",
    "choices": "one of the choices",
    "set_choices": "comma-separated choices",
    "json": "JSON text, or a JSON file's path",
    "port": "port number (a URI, as a Kubernetes service link sets it, fails)",
    "other": "text (read in a way vcfg does not check)",
}
#: parses whose words already say that a bad value fails
_FAILS = {"int", "float", "bool_int", "choices", "set_choices", "json", "port"}


def _words(ctx: Context, var: EnvVar) -> list[Optional[str]]:
    lines: list[Optional[str]] = [f"{_PARSE_WORDS.get(var.parse, 'text')} · default {d.default_words(var.default)}"]
    if var.choices:
        case = "" if var.case_sensitive else " (any case)"
        lines.append("Choices: " + d.choices_words(var.choices) + case)
    if var.parse == "bool_word" and var.truthy:
        lines.append("Read as true: " + d.choices_words(var.truthy))
    if var.can_raise and var.parse not in _FAILS:
        lines.append("A malformed value makes vLLM fail when it reads it.")
    if var.reads:
        lines.append("Also reads: " + ", ".join(f"`{r}`" for r in var.reads))
    lines.append(f"At {var.loc}")
    lines.append(ctx.history.span_words("env", var.name))
    return lines


def env_properties(ctx: Context) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for var in ctx.cat.env_vars:
        value = env_value(var)
        help_text = ctx.help.for_env(var) if ctx.help is not None else None
        props[var.name] = {**value, "markdownDescription": d.compose(_words(ctx, var), help_text)}
    for name in ctx.history.names("env"):
        if name in props:
            continue
        note = ctx.history.absent_note("env", name, ctx.version)
        if note is None or not note.startswith("removed"):
            continue  # a variable of a later release: not worth the bytes
        entry = ctx.knowledge.removed_env(name, ctx.version) if ctx.knowledge is not None else None
        known = entry.sentences() if entry is not None else None
        message = f"{name}: {note}; this release does not read it." + (f" {known}" if known else "")
        props[name] = {"doNotSuggest": True, "deprecationMessage": message}
    return props


def env_schema_body(ctx: Context) -> dict[str, Any]:
    props = env_properties(ctx)
    body: dict[str, Any] = {"type": "object", "properties": props}
    if ctx.strict:
        known = [v.name for v in ctx.cat.env_vars if v.name.startswith("VLLM_")]
        body["propertyNames"] = {"if": {"pattern": "^VLLM_"}, "then": {"enum": known}}
    return body
