"""VC237 elastic-ep-without-eplb: `--enable-elastic-ep` without `--enable-eplb`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.17.0"

RULE = Rule(
    code="VC237",
    name="elastic-ep-without-eplb",
    summary="`--enable-elastic-ep` without `--enable-eplb`",
    severity="error",
    versions=VERSIONS,
    why=(
        "Elastic expert parallelism moves experts when ranks join or leave, which is the "
        "expert-parallel load balancer's work; ParallelConfig refuses it without EPLB."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --enable-elastic-ep\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 --enable-expert-parallel --enable-eplb --enable-elastic-ep\n",
    sources=("vllm@0.33.0:vllm/config/parallel.py:976",),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("enable_elastic_ep"),
        c.Operand("enable_eplb", report=False),
    ),
    violated=lambda v: v.enable_elastic_ep is True,
    unless=lambda v: bool(v.enable_eplb),
    message="`{enable_elastic_ep.name}` needs `--enable-eplb`",
    help="add `--enable-eplb`",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
