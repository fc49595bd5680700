"""VC235 detailed-traces-without-endpoint: `--collect-detailed-traces` without
`--otlp-traces-endpoint`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.11.1"

RULE = Rule(
    code="VC235",
    name="detailed-traces-without-endpoint",
    summary="`--collect-detailed-traces` without `--otlp-traces-endpoint`",
    severity="error",
    versions=VERSIONS,
    why=(
        "Detailed traces are spans sent to an OpenTelemetry collector; ObservabilityConfig's "
        "model validator refuses them when no collector is named."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --collect-detailed-traces all\n",
    use_instead="vllm serve Qwen/Qwen3-8B --otlp-traces-endpoint http://otel:4317 --collect-detailed-traces all\n",
    sources=("vllm@0.13.0:vllm/config/observability.py:136", "vllm@0.33.0:vllm/config/observability.py:218"),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("collect_detailed_traces", given=True),
        c.Operand("otlp_traces_endpoint", report=False),
    ),
    violated=lambda v: bool(v.collect_detailed_traces),
    unless=lambda v: bool(v.otlp_traces_endpoint),
    message="`{collect_detailed_traces.name}` needs `--otlp-traces-endpoint`",
    help="add `--otlp-traces-endpoint <collector URL>`",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
