"""VC216 dp-local-above-dp-size: more local data-parallel ranks than the whole size."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC216",
    name="dp-local-above-dp-size",
    summary="`--data-parallel-size-local` above `--data-parallel-size`",
    severity="error",
    why=(
        "`--data-parallel-size` counts the data-parallel ranks of all nodes; "
        "`--data-parallel-size-local` the ones this node runs. A node cannot run more "
        "ranks than exist, and vLLM refuses it when it builds the parallel config."
    ),
    when_vllm_fails="when the parallel config is built, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 8 --data-parallel-size-local 16\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 16 --data-parallel-size-local 8\n",
    sources=(
        "vllm@0.10.2:vllm/config/parallel.py:317",
        "vllm@0.33.0:vllm/config/parallel.py:545",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    operands=(
        c.Operand("data_parallel_size", convert=c.positive_int),
        c.Operand("data_parallel_size_local", given=True),
        c.Operand("data_parallel_rank", report=False),
        c.Operand("data_parallel_external_lb", absent=False, report=False),
    ),
    violated=lambda v: (
        isinstance(v.data_parallel_size_local, int) and v.data_parallel_size_local > v.data_parallel_size
    ),
    # an external rank pins the local size to 1 first (VC219 reports another value)
    unless=lambda v: v.data_parallel_rank is not None or v.data_parallel_external_lb is True,
    message="`{data_parallel_size_local.name}` {data_parallel_size_local} is above `{data_parallel_size.name}` "
    "{data_parallel_size}: a node cannot run more ranks than there are",
    help="`--data-parallel-size` is the ranks of all nodes; `--data-parallel-size-local` those on this node",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
