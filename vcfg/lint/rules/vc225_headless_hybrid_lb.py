"""VC225 headless-hybrid-lb: `--data-parallel-hybrid-lb` on a headless node."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC225",
    name="headless-hybrid-lb",
    summary="`--data-parallel-hybrid-lb` with `--headless`",
    severity="error",
    why=(
        "Hybrid load balancing puts an API server on every node in front of that node's "
        "ranks; a headless node runs no API server, so vLLM refuses the switch there (an "
        "assertion). A headless node with a start rank needs neither switch."
    ),
    when_vllm_fails="when the engine arguments are turned into a config, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \\\n"
    "  --headless --data-parallel-hybrid-lb\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \\\n"
    "  --headless\n",
    sources=(
        "vllm@0.10.2:vllm/engine/arg_utils.py:1221",
        "vllm@0.11.2:vllm/engine/arg_utils.py:1457",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2380",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    operands=(c.Operand("headless"), c.Operand("data_parallel_hybrid_lb")),
    violated=lambda v: v.headless is True and v.data_parallel_hybrid_lb is True,
    message="`{data_parallel_hybrid_lb.name}` on a `--headless` node, which runs no API server",
    help="drop `--data-parallel-hybrid-lb` here (the start rank and local size are enough)",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
