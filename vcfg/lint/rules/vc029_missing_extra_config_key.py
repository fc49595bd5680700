"""VC029 missing-extra-config-key: a key the connector requires is missing."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._config_json import (
    CONNECTOR,
    EXTRA,
    condition_holds,
    extra_config,
    judged_connector,
    key_span,
    kv_objects,
    value_span,
)  # fmt: skip

RULE = Rule(
    code="VC029",
    name="missing-extra-config-key",
    summary="a kv_connector_extra_config key the connector requires is missing",
    severity="error",
    why=(
        "Some connectors cannot start without a setting in kv_connector_extra_config: "
        "OffloadingConnector's CPU spec needs cpu_bytes_to_use (num_cpu_blocks before "
        "0.14), MoRIIOConnector needs http_port, and P2pNcclConnector needed http_port "
        "whenever it registers with a proxy. vLLM only finds out when the connector is "
        "built, after the server has begun to start."
    ),
    when_vllm_fails="when the connector is built (worker start-up), with a KeyError or an exception",
    example=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"OffloadingConnector","kv_role":"kv_both"}\'\n'
    ),
    use_instead=(
        "vllm serve facebook/opt-125m --kv-transfer-config \\\n"
        '  \'{"kv_connector":"OffloadingConnector","kv_role":"kv_both","kv_connector_extra_config":{"cpu_bytes_to_use":8000000000}}\'\n'
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for obj in kv_objects(lc):
        name = judged_connector(lc, obj)
        if name is None:
            continue
        extra = extra_config(obj)
        given = extra if extra is not None else {}
        if obj.value.get(EXTRA) is not None and extra is None:
            continue  # not an object: VC024's finding
        conn = lc.catalog.connector(name)
        facts = lc.target.knowledge.connector_facts(name, lc.target.version)
        needed: dict[str, tuple[str, str]] = {}  # key -> (when, note)
        for k in conn.extra_keys if conn is not None else []:
            if not k.has_default:
                needed[k.name] = ("", f"read without a default at {k.loc}")
        for fact in facts.keys if facts is not None else []:
            if fact.required:
                needed[fact.name] = ("", fact.note)
            elif fact.required_when and condition_holds(fact.required_when, given):
                needed.setdefault(fact.name, (fact.required_when, fact.note))
        where = key_span(lc, obj, EXTRA) if extra is not None else value_span(lc, obj, CONNECTOR)
        for key, (when, note) in needed.items():
            if key in given:
                continue
            cond = f" when {when}" if when else ""
            yield RULE.diag(
                where,
                f"{name} needs `{key}` in `{EXTRA}`{cond}",
                help=f'add "{key}" to `{EXTRA}`',
                notes=(note,) if note else (),
            )
