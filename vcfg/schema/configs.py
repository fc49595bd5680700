"""The schema of a config class's JSON form (``--kv-transfer-config '{...}'``,
``compilation-config:`` in a YAML file, ``vcfg schema CompilationConfig``).

vLLM validates such JSON with pydantic (``TypeAdapter(cls).validate_json``, 0.33.0
engine/arg_utils.py:369-375), in lax mode: numeric text is read as a number.  A class
with ``extra_forbid`` (every ``@config`` class from 0.16.0 on) rejects unknown keys;
older ones ignore them.  Both schemas close the objects whose class forbids extras
(a misspelt key fails at parse time in vLLM); the strict one closes the others too.  Keys this
release lacks but another bundled release has are always described, and rejected, with
that message alone, where the class forbids extras.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from vcfg.catalog.model import ConfigClass, ConfigField
from vcfg.schema import describe as d
from vcfg.schema.context import Context
from vcfg.schema.values import field_value, with_default

#: The class behind ``--kv-transfer-config``; its schema also lists the connectors.
KV_TRANSFER_CLASS = "KVTransferConfig"
_MAX_TYPE_TEXT = 90


def class_ref(ctx: Context, class_name: str) -> Optional[str]:
    """``#/$defs/<class>`` for a config class of this catalog (its schema is built
    on first use, into ``ctx.defs``), or None if the catalog has no such class."""
    if ctx.cat.config(class_name) is None:
        return None
    if class_name not in ctx.defs and class_name not in ctx._pending:
        ctx._pending.add(class_name)
        ctx.defs[class_name] = class_schema(ctx, class_name)
        ctx._pending.discard(class_name)
    return f"#/$defs/{class_name}"


def field_words(ctx: Context, cls: ConfigClass, f: ConfigField) -> list[Optional[str]]:
    type_text = f.type
    if f.choices:  # the choices get their own line
        type_text = re.sub(r"Literal\[[^\]]*\]", "Literal", type_text)
    if len(type_text) > _MAX_TYPE_TEXT:
        type_text = type_text[: _MAX_TYPE_TEXT - 3] + "..."
    head = f"`{type_text}`" if type_text else "any value"
    if f.required and not f.default:
        head += " · required"
    else:
        head += f" · default {d.default_words(f.default)}"
    if f.constraint is not None:
        for sym, attr in (("> ", "gt"), ("≥ ", "ge"), ("< ", "lt"), ("≤ ", "le")):
            v = getattr(f.constraint, attr)
            if v is not None:
                head += f" · {sym}{int(v) if float(v).is_integer() else v}"
    lines: list[Optional[str]] = [head]
    if f.choices:
        lines.append("Choices: " + d.choices_words(f.choices))
    if f.init_var:
        lines.append("Passed to the constructor only (an init-only argument).")
    lines.append(f"At {f.loc}")
    lines.append(ctx.history.span_words("field", f"{cls.name}.{f.name}"))
    return lines


def class_schema(ctx: Context, name: str) -> dict[str, Any]:
    cls = ctx.cat.config(name)
    assert cls is not None
    props: dict[str, Any] = {}
    required: list[str] = []
    for f in cls.fields:
        if not f.init:
            continue  # derived fields are not constructor arguments
        value = with_default(field_value(f, lambda n: class_ref(ctx, n), ctx.is_class), f.default)
        help_text = ctx.help.for_field(f) if ctx.help is not None else None
        md = d.compose(field_words(ctx, cls, f), help_text)
        prop = {**value, "markdownDescription": md}
        if f.name.startswith("_"):
            prop["doNotSuggest"] = True
        props[f.name] = prop
        if f.required:
            required.append(f.name)
    for other in ctx.history.names("field"):
        owner, _, fname = other.partition(".")
        if owner != name or fname in props:
            continue
        note = ctx.history.absent_note("field", other, ctx.version)
        if note is None:
            continue
        props[fname] = _absent(ctx, cls, other, note)
    words: list[Optional[str]] = [f"`{cls.name}` at {cls.loc}"]
    words.append(
        "Unknown keys are rejected by this release."
        if cls.extra_forbid
        else "Unknown keys are ignored by this release."
    )
    out: dict[str, Any] = {
        "type": "object",
        "markdownDescription": d.compose(words),
        "properties": props,
    }
    if required:
        out["required"] = required
    # vLLM rejects an unknown key where the class forbids extras: so do both schemas;
    # the strict one also where vLLM ignores it (a key that does nothing is a mistake)
    if cls.extra_forbid or ctx.strict:
        out["additionalProperties"] = False
    if name == KV_TRANSFER_CLASS:
        from vcfg.schema.kvtransfer import add_connectors

        add_connectors(ctx, out)
    return out


def _absent(ctx: Context, cls: ConfigClass, qualified: str, note: str) -> dict[str, Any]:
    entry = ctx.knowledge.removed_config_field(qualified, ctx.version) if ctx.knowledge is not None else None
    known = entry.sentences() if entry is not None else None
    message = f"{qualified}: {note}." + (f" {known}" if known else "")
    if cls.extra_forbid:
        from vcfg.schema.common import removed_key

        return removed_key(message)
    return {"doNotSuggest": True, "deprecationMessage": message + " This release ignores it."}
