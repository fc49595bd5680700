"""VC209 dp-rank-out-of-range: a data-parallel rank (or start rank) outside 0..size-1."""

from __future__ import annotations

from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC209",
    name="dp-rank-out-of-range",
    summary="`--data-parallel-rank` or `--data-parallel-start-rank` not below `--data-parallel-size`",
    severity="error",
    why=(
        "Data-parallel ranks run from 0 to `--data-parallel-size` - 1 over all nodes. The "
        "rank a launch runs (`--data-parallel-rank`, or the first of its "
        "`--data-parallel-size-local` ranks, `--data-parallel-start-rank`) must be one of "
        "them: vLLM checks the range when it builds the parallel config. A start rank "
        "counts only with a local size (or `--nnodes`); without one vLLM ignores it."
    ),
    when_vllm_fails="when the parallel config is built, before any worker starts",
    example=(
        "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 16 --data-parallel-size-local 8 \\\n"
        "  --data-parallel-start-rank 16 --data-parallel-address 10.0.0.1 --headless\n"
    ),
    use_instead=(
        "vllm serve deepseek-ai/DeepSeek-V3 --data-parallel-size 16 --data-parallel-size-local 8 \\\n"
        "  --data-parallel-start-rank 8 --data-parallel-address 10.0.0.1 --headless\n"
    ),
    sources=(
        "vllm@0.10.2:vllm/config/parallel.py:329",
        "vllm@0.10.2:vllm/engine/arg_utils.py:1250",
        "vllm@0.33.0:vllm/config/parallel.py:1017",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2507",
    ),
)

_BASE: dict[str, Any] = dict(
    code=RULE.code,
    message="{what} {value} is outside the data-parallel ranks 0..{last} (`{data_parallel_size.name}` {data_parallel_size})",
    help="data-parallel ranks run from 0 to {last}: give each node its own range below {data_parallel_size}",
)


def _last(v: dict) -> dict:
    return {"last": v["data_parallel_size"].value - 1}


RANK = c.Constraint(
    operands=(
        c.Operand("data_parallel_rank", given=True),
        c.Operand("data_parallel_size", convert=c.positive_int, report=False),  # the rank is the mistake
    ),
    violated=lambda v: v.data_parallel_size > 1 and not 0 <= v.data_parallel_rank < v.data_parallel_size,
    derive=lambda v: {**_last(v), "what": f"`{v['data_parallel_rank'].name}`", "value": v["data_parallel_rank"].value},
    **_BASE,
)

# the start rank becomes the rank with a local size or --nnodes (arg_utils.py:2507,
# 0.33.0); an explicit rank wins over it
START = c.Constraint(
    operands=(
        c.Operand("data_parallel_start_rank", given=True),
        c.Operand("data_parallel_size", convert=c.positive_int, report=False),  # the rank is the mistake
        c.Operand("data_parallel_size_local", report=False),
        c.Operand("data_parallel_rank", report=False),
        c.Operand("nnodes", absent=1, report=False),
    ),
    violated=lambda v: v.data_parallel_size > 1 and not 0 <= v.data_parallel_start_rank < v.data_parallel_size,
    unless=lambda v: v.data_parallel_rank is not None or (v.data_parallel_size_local is None and v.nnodes <= 1),
    derive=lambda v: {
        **_last(v),
        "what": f"`{v['data_parallel_start_rank'].name}`",
        "value": v["data_parallel_start_rank"].value,
    },
    **_BASE,
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, RANK, lc)
    yield from c.check(RULE, START, lc)
