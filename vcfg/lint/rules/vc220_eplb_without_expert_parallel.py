"""VC220 eplb-without-expert-parallel: `--enable-eplb` without `--enable-expert-parallel`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC220",
    name="eplb-without-expert-parallel",
    summary="`--enable-eplb` without `--enable-expert-parallel`",
    severity="error",
    why=(
        "The expert-parallel load balancer moves whole experts between the ranks of an "
        "expert-parallel group. Without `--enable-expert-parallel` there is no such group "
        "(experts are sliced by tensor parallelism instead), and vLLM refuses the switch."
    ),
    when_vllm_fails="when the parallel config is built, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-eplb\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --enable-expert-parallel --enable-eplb\n",
    sources=(
        "vllm@0.10.2:vllm/config/parallel.py:361",
        "vllm@0.33.0:vllm/config/parallel.py:570",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    operands=(c.Operand("enable_eplb"), c.Operand("enable_expert_parallel", report=False)),
    violated=lambda v: v.enable_eplb is True and v.enable_expert_parallel is not True,
    message="`{enable_eplb.name}` without `--enable-expert-parallel`: the load balancer moves experts between EP ranks",
    help="add `--enable-expert-parallel`, or drop `--enable-eplb`",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
