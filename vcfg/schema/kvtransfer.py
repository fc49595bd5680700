"""The KV connectors in the ``KVTransferConfig`` schema.

* ``kv_connector`` is one of the connectors this release registers
  (``KVConnectorFactory.register_connector``), unless ``kv_connector_module_path`` is
  given: then it names a class in that module, any name (0.33.0
  distributed/kv_transfer/kv_connector/factory.py:96-129).
* one ``if``/``then`` block per connector (connectors with the same keys share one)
  describes ``kv_connector_extra_config``: the keys the connector reads, their
  defaults, and the conversion vLLM applies (``Connector.extra_keys``), refined by a
  knowledge pack when one names JSON types, choices or required keys.

vLLM itself never checks the names or the extra-config values when it parses the
JSON (``dict[str, Any]``); they fail when the connector is built.  The schema checks
them earlier, on purpose.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from vcfg.catalog.model import Connector, ExtraKey
from vcfg.schema import describe as d
from vcfg.schema.context import Context
from vcfg.schema.values import extra_key_value, with_default

CONNECTOR, MODULE_PATH, EXTRA = "kv_connector", "kv_connector_module_path", "kv_connector_extra_config"

_CONVERSION = {
    "int": "read with `int()`",
    "float": "read with `float()`",
    "str": "read with `str()`",
    "bool": 'read with `bool()`: any non-empty text, `"false"` too, is true',
}


def add_connectors(ctx: Context, schema: dict[str, Any]) -> None:
    props = schema.get("properties", {})
    if CONNECTOR not in props:
        return
    names = [k.name for k in ctx.cat.connectors]
    prop = dict(props[CONNECTOR])
    if names:
        prop["examples"] = names
    others = []
    for n in ctx.history.names("connector"):
        if n not in names:
            others.append(f"`{n}` ({ctx.history.ranges('connector', n)})")
    words = [
        prop.get("markdownDescription", ""),
        "Registered in this release: " + d.choices_words(names) if names else None,
        f"With `{MODULE_PATH}`: any class name in that module.",
        "In other releases only: " + ", ".join(others) if others else None,
    ]
    prop["markdownDescription"] = d.compose(words)
    props[CONNECTOR] = prop
    blocks: list[dict[str, Any]] = []
    if names:
        only = {"enum": [*names, None]}
        if MODULE_PATH in props:
            blocks.append(
                {
                    "if": {"properties": {MODULE_PATH: {"type": "string"}}, "required": [MODULE_PATH]},
                    "else": {"properties": {CONNECTOR: only}},
                }
            )
        else:
            blocks.append({"properties": {CONNECTOR: only}})
    if "kv_role" in props:
        # KVTransferConfig.__post_init__ rejects a connector without a role, inside the
        # parse-time JSON validation (research: vllm-config-surface.md 5.6)
        blocks.append(
            {
                "if": {"properties": {CONNECTOR: {"type": "string"}}, "required": [CONNECTOR]},
                "then": {"required": ["kv_role"]},
            }
        )
    if EXTRA in props:
        blocks.extend(_extra_blocks(ctx, ctx.cat.connectors))
    if blocks:
        schema["allOf"] = blocks


def _extra_blocks(ctx: Context, connectors: list[Connector]) -> list[dict[str, Any]]:
    grouped: dict[str, tuple[list[str], dict[str, Any]]] = {}
    for conn in connectors:
        then = _then(ctx, conn)
        if then is None:
            continue
        key = json.dumps(then, sort_keys=True)
        grouped.setdefault(key, ([], then))[0].append(conn.name)
    out = []
    for names, then in grouped.values():
        cond: dict[str, Any] = {"const": names[0]} if len(names) == 1 else {"enum": names}
        out.append({"if": {"properties": {CONNECTOR: cond}, "required": [CONNECTOR]}, "then": then})
    return out


def _then(ctx: Context, conn: Connector) -> Optional[dict[str, Any]]:
    facts = None
    if ctx.knowledge is not None:
        facts = ctx.knowledge.connector_facts(conn.name, ctx.version)
    props: dict[str, Any] = {}
    required: list[str] = []
    for key in conn.extra_keys:
        fact = facts.key(key.name) if facts is not None else None
        props[key.name] = _key_schema(ctx, conn, key, fact)
        if fact is not None and fact.required:
            required.append(key.name)
    if facts is not None:  # keys only a knowledge pack knows
        for fact in facts.keys:
            if fact.name not in props:
                value = extra_key_value(ExtraKey(name=fact.name, loc=conn.loc), fact.json_types or None, fact.choices)
                words = [fact.note or None, f"When: {fact.required_when}" if fact.required_when else None]
                props[fact.name] = {**value, "markdownDescription": d.compose(words) or fact.name}
                if fact.required:
                    required.append(fact.name)
    if not props:
        return None
    extra: dict[str, Any] = {"properties": props}
    if required:
        extra["required"] = required
    then: dict[str, Any] = {"properties": {EXTRA: extra}}
    if required:
        then["required"] = [EXTRA]
    return then


def _key_schema(ctx: Context, conn: Connector, key: ExtraKey, fact: Any) -> dict[str, Any]:
    json_types = list(fact.json_types) if fact is not None and fact.json_types else None
    choices = fact.choices if fact is not None else None
    value = extra_key_value(key, json_types, choices)
    if key.has_default:
        value = with_default(value, key.default)
    conversion = _CONVERSION.get(key.type or "", "used as given")
    head = f"{conversion} · default {d.default_words(key.default)}" if key.has_default else f"{conversion} · no default"
    words: list[Optional[str]] = [head, f"Read at {key.loc}"]
    if fact is not None:
        if fact.note:
            words.append(fact.note)
        if fact.required_when:
            words.append(f"Needed when: {fact.required_when}")
        if fact.unique_per_host:
            words.append("Must differ between instances on one host.")
    words.append(ctx.history.span_words("extra", f"{conn.name}.{key.name}"))
    return {**value, "markdownDescription": d.compose(words)}
