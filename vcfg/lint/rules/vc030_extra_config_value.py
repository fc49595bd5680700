"""VC030 extra-config-value: an extra-config value that parses but fails at run time."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.launch.args.lax import json_type
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._config_json import (
    EXTRA,
    ROLE,
    ConfigObject,
    extra_config,
    judged_connector,
    kv_objects,
    shown,
    value_span,
)  # fmt: skip
from vcfg.lint.rules._util import did_you_mean

RULE = Rule(
    code="VC030",
    name="extra-config-value",
    summary="an extra-config value that parses but fails when the connector uses it",
    severity="error",
    why=(
        "vLLM passes kv_connector_extra_config to the connector untouched, so a value of "
        "the wrong JSON type or outside the connector's choices passes start-up checks "
        "and fails later: P2pNcclConnector joins proxy_port to a string and puts "
        "nccl_num_channels into the environment (both must be JSON strings), and its "
        "send_type must be PUT, GET or PUT_ASYNC in capitals. kv_buffer_size (up to 0.31) "
        "is a byte count: below 1e6 on a decode (kv_consumer) or GET-mode producer "
        "instance, or above 1e12 anywhere, it is almost surely a unit slip (a warning)."
    ),
    when_vllm_fails="when a worker starts or at the first KV transfer, long after launch",
    example=(
        "vllm serve facebook/opt-125m --kv-transfer-config \\\n"
        '  \'{"kv_connector":"NixlConnector","kv_role":"kv_both",'
        '"kv_connector_extra_config":{"backends":"UCX"}}\'\n'
    ),
    use_instead=(
        "vllm serve facebook/opt-125m --kv-transfer-config \\\n"
        '  \'{"kv_connector":"NixlConnector","kv_role":"kv_both",'
        '"kv_connector_extra_config":{"backends":["UCX"]}}\'\n'
    ),
)

#: the top-level field whose value is judged for the connectors whose knowledge facts
#: list it in ``reads_fields`` (P2pNcclEngine keeps received KV on the GPU up to that
#: many bytes: p2p_nccl_engine.py:172, 260-300 @0.20.0)
BUFFER_SIZE = "kv_buffer_size"
#: P2pNcclEngine's send_type when absent (p2p_nccl_engine.py:150 @0.20.0)
_SEND_TYPE_DEFAULT = "PUT_ASYNC"
_LOW, _HIGH = 1e6, 1e12


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for obj in kv_objects(lc):
        name = judged_connector(lc, obj)
        if name is None:
            continue
        extra = extra_config(obj) or {}
        conn = lc.catalog.connector(name)
        facts = lc.target.knowledge.connector_facts(name, lc.target.version)
        coerce = {k.name: k.type for k in conn.extra_keys} if conn is not None else {}
        for key, v in extra.items():
            fact = facts.key(key) if facts is not None else None
            d = _by_fact(lc, obj, name, key, v, fact) if fact is not None else None
            d = d or _by_conversion(lc, obj, name, key, v, coerce.get(key))
            if d is not None:
                yield d
        if facts is not None and BUFFER_SIZE in facts.reads_fields:
            yield from _buffer_size(lc, obj, extra)


def _by_fact(lc: LaunchContext, obj: ConfigObject, name: str, key: str, v: Any, fact: Any) -> Optional[Diagnostic]:
    where = value_span(lc, obj, EXTRA, key)
    kind = json_type(v)
    allowed = set(fact.json_types)
    if "number" in allowed:
        allowed.add("integer")
    if allowed and kind not in allowed:
        want = " or ".join(f"a JSON {t}" for t in fact.json_types)
        help = f'write "{v}"' if fact.json_types == ["string"] and kind in ("integer", "number") else None
        return RULE.diag(
            where,
            f"{name} needs `{key}` as {want}, not `{shown(v)}`",
            help=help,
            notes=(fact.note,) if fact.note else (),
        )
    if fact.choices and isinstance(v, str):
        choices = [c for c in fact.choices if isinstance(c, str)]
        ok = v in choices if fact.case_sensitive else v.lower() in {c.lower() for c in choices}
        if not ok:
            same = [c for c in choices if c.lower() == v.lower()]
            near = same or did_you_mean(v, choices, cutoff=0.6)
            listed = ", ".join(f"`{c}`" for c in choices)
            help = f"expected one of {listed}" + (f"; did you mean `{near[0]}`?" if near else "")
            return RULE.diag(
                where, f"`{v}` is not a `{key}` {name} knows", help=help, notes=(fact.note,) if fact.note else ()
            )
    return None


def _by_conversion(
    lc: LaunchContext, obj: ConfigObject, name: str, key: str, v: Any, conv: Optional[str]
) -> Optional[Diagnostic]:
    """A key the connector reads through int()/float(): text or a container that
    Python cannot convert raises when the connector is built."""
    if conv not in ("int", "float") or v is None or isinstance(v, (bool, int, float)):
        return None
    if isinstance(v, str):
        try:
            int(v) if conv == "int" else float(v)
            return None
        except ValueError:
            pass
    return RULE.diag(
        value_span(lc, obj, EXTRA, key),
        f"{name} reads `{key}` with {conv}(), which fails on `{shown(v)}`",
        help="write a number" + (" without a fraction" if conv == "int" else ""),
    )


def _buffer_size(lc: LaunchContext, obj: ConfigObject, extra: dict[str, Any]) -> Iterator[Diagnostic]:
    if obj.cls.field(BUFFER_SIZE) is None or BUFFER_SIZE not in obj.value:
        return  # the field is gone (VC023) or not set
    raw = obj.value[BUFFER_SIZE]
    try:
        size = float(raw) if not isinstance(raw, bool) else None
    except (TypeError, ValueError):
        size = None  # not a number: VC024
    if size is None or size != size:
        return
    where = value_span(lc, obj, BUFFER_SIZE)
    role = obj.value.get(ROLE)
    receives = role == "kv_consumer" or (
        role in ("kv_producer", "kv_both") and extra.get("send_type", _SEND_TYPE_DEFAULT) == "GET"
    )
    if size > _HIGH:
        yield RULE.diag(
            where,
            f"`{BUFFER_SIZE}` is {size:g} bytes, more than any GPU holds",
            help="it is the bytes of transferred KV kept in GPU memory, e.g. 8e9",
            severity="warning",
        )
    elif receives and size < _LOW:
        guess = f"; did you mean {size:g}e9?" if 0 < size < 1000 else ""
        yield RULE.diag(
            where,
            f"`{BUFFER_SIZE}` is only {size:g} bytes on an instance that receives KV",
            help=f"the value is in bytes{guess}",
            severity="warning",
        )
