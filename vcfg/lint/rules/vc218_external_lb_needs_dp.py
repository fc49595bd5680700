"""VC218 external-lb-needs-dp: external load balancing (or an explicit rank) with one
data-parallel rank."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.11.2"

RULE = Rule(
    code="VC218",
    name="external-lb-needs-dp",
    summary="`--data-parallel-external-lb` or `--data-parallel-rank` with `--data-parallel-size` 1",
    severity="error",
    versions=VERSIONS,
    why=(
        "External load balancing, which `--data-parallel-rank` also turns on, means this "
        "launch is one rank of a larger data-parallel group. With a data-parallel size of "
        "1 there is no group, and vLLM refuses the combination; usually "
        "`--data-parallel-size` was forgotten."
    ),
    when_vllm_fails="when the parallel config is built, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --data-parallel-rank 0\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -tp 8 --data-parallel-size 2 --data-parallel-rank 0\n",
    sources=(
        "vllm@0.11.2:vllm/config/parallel.py:289",
        "vllm@0.33.0:vllm/config/parallel.py:553",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2447",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("data_parallel_size", convert=c.positive_int, report=False),
        c.Operand("data_parallel_external_lb"),
        c.Operand("data_parallel_rank"),
    ),
    violated=lambda v: (
        v.data_parallel_size <= 1 and (v.data_parallel_external_lb is True or v.data_parallel_rank is not None)
    ),
    message="external data-parallel load balancing with `{data_parallel_size.name}` {data_parallel_size}",
    help="set `--data-parallel-size` to the number of ranks of the group, or drop the rank and external LB",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
