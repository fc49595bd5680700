"""VC231 kv-config-without-connector: a `--kv-transfer-config` that names no connector."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, problems, span
from vcfg.lint.rules._config_json import CONNECTOR, kv_objects, offloading_override

RULE = Rule(
    code="VC231",
    name="kv-config-without-connector",
    summary="a KV transfer config without `kv_connector`",
    severity="error",
    why=(
        "Once a `--kv-transfer-config` is given, vLLM creates its connector: the scheduler "
        "does for any KV transfer config when the engine starts, and from 0.33 the engine "
        "config already looks the connector class up (the KV cache layout asks it). A config "
        "without `kv_connector` has none to look up. The usual cause is dotted keys: "
        "`--kv-transfer-config.kv_port 5601` after a JSON `--kv-transfer-config` is not "
        "merged into that JSON, it replaces it, and the connector is gone."
    ),
    when_vllm_fails=(
        "when the engine config is built (0.33), else when the engine starts and its scheduler "
        "creates the connector; before the model loads either way"
    ),
    example=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both"}\' \\\n'
        "  --kv-transfer-config.kv_port 5601\n"
    ),
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_port":5601}\'\n'
    ),
    sources=(
        "vllm@0.13.0:vllm/distributed/kv_transfer/kv_connector/factory.py:108",
        "vllm@0.13.0:vllm/v1/core/sched/scheduler.py:111",
        "vllm@0.33.0:vllm/v1/core/sched/scheduler.py:175",
        "vllm@0.33.0:vllm/distributed/kv_transfer/kv_connector/factory.py:102",
        "vllm@0.33.0:vllm/distributed/kv_transfer/kv_connector/utils.py:57",
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    pa = parsed(lc)
    if pa is None:
        return
    replaced = {p.option for p in problems(lc, "dotted-overrides")}
    for obj in kv_objects(lc):
        if obj.child or obj.value.get(CONNECTOR) is not None or offloading_override(lc, obj):
            continue
        ov = obj.ov
        if ov.json is None or not ov.known:
            continue
        notes: tuple[str, ...] = ()
        help = 'add "kv_connector", e.g. "NixlConnector"'
        if ov.option in replaced or ov.flag.dest in replaced:
            notes = ("the dotted keys replace the JSON value given before them; they are not merged into it",)
            help = "put every key in the one JSON value, or give every key (kv_connector too) as a dotted key"
        yield RULE.diag(
            span(lc, ov.value_span or ov.span),
            f"`{ov.option}` names no `{CONNECTOR}`: vllm cannot create the connector",
            help=help,
            notes=notes,
        )
