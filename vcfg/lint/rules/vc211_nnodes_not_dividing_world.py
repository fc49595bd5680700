"""VC211 nnodes-not-dividing-world: `--nnodes` that does not divide the world size."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.11.2"

RULE = Rule(
    code="VC211",
    name="nnodes-not-dividing-world",
    summary="`--nnodes` that does not divide data x tensor x pipeline (x prefill-context) parallel",
    severity="error",
    versions=VERSIONS,
    why=(
        "With `--nnodes` vLLM splits the whole world, data x pipeline x tensor parallel "
        "(x prefill-context parallel from 0.30), evenly over the nodes and derives each "
        "node's ranks from `--node-rank`; a world that does not split evenly is refused "
        "(an assertion before 0.27)."
    ),
    when_vllm_fails="when the engine arguments are turned into a config, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -tp 4 -dp 3 --nnodes 8 --node-rank 0\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -tp 4 -dp 4 --nnodes 8 --node-rank 0\n",
    sources=(
        "vllm@0.11.2:vllm/engine/arg_utils.py:1476",
        "vllm@0.30.0:vllm/engine/arg_utils.py:2189",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2406",
    ),
)


def _world(pcp: bool) -> Any:
    def f(v: Any) -> int:
        w = v.data_parallel_size * v.tensor_parallel_size * v.pipeline_parallel_size
        return w * v.prefill_context_parallel_size if pcp else w

    return f


def _entry(versions: str, pcp: bool) -> c.Constraint:
    world = _world(pcp)
    return c.Constraint(
        code=RULE.code,
        versions=versions,
        operands=(
            c.Operand("data_parallel_size", convert=c.positive_int),
            c.Operand("tensor_parallel_size", convert=c.positive_int),
            c.Operand("pipeline_parallel_size", convert=c.positive_int),
            c.Operand("prefill_context_parallel_size", absent=1, convert=c.positive_int, report=pcp),
            c.Operand("nnodes", convert=c.positive_int),
        ),
        violated=lambda v: v.nnodes > 1 and world(v) % v.nnodes != 0,
        derive=lambda vals: {"world": world(SimpleNamespace(**{k: x.value for k, x in vals.items()}))},
        message="`{nnodes.name}` {nnodes} does not divide the world size {world} (data x tensor x pipeline"
        + (" x prefill-context" if pcp else "")
        + " parallel)",
        help="use a number of nodes that divides {world}, or change the parallel sizes",
    )


# prefill-context parallelism counts from 0.30.0 (arg_utils.py:2189)
ENTRIES = (_entry(">=0.11.2,<0.30.0", False), _entry(">=0.30.0", True))


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for e in ENTRIES:
        yield from c.check(RULE, e, lc)
