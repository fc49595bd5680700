"""VC219 external-rank-local-size: an external data-parallel rank with a local size
other than 1."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC219",
    name="external-rank-local-size",
    summary="`--data-parallel-rank` (external LB) with `--data-parallel-size-local` other than 1",
    severity="error",
    why=(
        "With external load balancing each launch runs exactly one data-parallel rank "
        "(the one `--data-parallel-rank` names), so its local size is 1; vLLM refuses any "
        "other `--data-parallel-size-local` (an assertion before 0.27). To run several "
        "ranks per node behind one API server use a start rank (hybrid LB) instead."
    ),
    when_vllm_fails="when the engine arguments are turned into a config, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-rank 8 --data-parallel-size-local 8\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-start-rank 8 --data-parallel-size-local 8\n",
    sources=(
        "vllm@0.10.2:vllm/engine/arg_utils.py:1228",
        "vllm@0.11.2:vllm/engine/arg_utils.py:1507",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2476",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    operands=(
        c.Operand("data_parallel_size", convert=c.positive_int, report=False),
        c.Operand("data_parallel_external_lb", absent=False, report=False),
        c.Operand("data_parallel_rank", report=False),
        c.Operand("data_parallel_size_local", given=True),
        c.Operand("data_parallel_hybrid_lb", report=False),
    ),
    violated=lambda v: (
        (v.data_parallel_external_lb is True or v.data_parallel_rank is not None)
        and v.data_parallel_size_local not in (1, None)
    ),
    # VC218 reports a size of 1, VC215 the hybrid switch beside an external rank (both
    # are refused before this check)
    unless=lambda v: v.data_parallel_size <= 1 or v.data_parallel_hybrid_lb is True,
    message="`{data_parallel_size_local.name}` {data_parallel_size_local} with an external data-parallel rank: "
    "external load balancing runs one rank per launch",
    help="drop `--data-parallel-size-local` (or set it to 1), or use `--data-parallel-start-rank` for hybrid LB",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
