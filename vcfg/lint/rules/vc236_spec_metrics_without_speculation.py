"""VC236 spec-metrics-without-speculation: `--per-request-spec-decode-metrics` without
speculative decoding."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.29.0"

RULE = Rule(
    code="VC236",
    name="spec-metrics-without-speculation",
    summary="`--per-request-spec-decode-metrics` without speculative decoding",
    severity="error",
    versions=VERSIONS,
    why=(
        "Per-request speculative decoding metrics count accepted draft tokens; VllmConfig "
        "refuses them when no speculative decoding is configured."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --per-request-spec-decode-metrics summary\n",
    use_instead=(
        "vllm serve Qwen/Qwen3-8B --per-request-spec-decode-metrics summary \\\n"
        '  --speculative-config \'{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":4}\'\n'
    ),
    sources=("vllm@0.33.0:vllm/config/vllm.py:1734",),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("per_request_spec_decode_metrics", given=True),
        c.Operand("speculative_config", report=False),
        # the --spec-* shorthands build a speculative config too (0.33)
        c.Operand("spec_method", report=False, absent=None),
        c.Operand("spec_model", report=False, absent=None),
    ),
    violated=lambda v: v.per_request_spec_decode_metrics not in (None, "none"),
    unless=lambda v: v.speculative_config is not None or v.spec_method is not None or v.spec_model is not None,
    message="`{per_request_spec_decode_metrics.name}` needs speculative decoding",
    help="drop it, or configure speculative decoding with `--speculative-config`",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
