"""VC210 hybrid-lb-without-local-size: `--data-parallel-hybrid-lb` without
`--data-parallel-size-local`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC210",
    name="hybrid-lb-without-local-size",
    summary="`--data-parallel-hybrid-lb` without `--data-parallel-size-local`",
    severity="error",
    why=(
        "Hybrid load balancing runs one API server per node in front of that node's "
        "data-parallel ranks, so vLLM must know how many ranks the node runs: "
        "`--data-parallel-size-local`. Without it (and without `--nnodes`, from which vLLM "
        "infers it) the engine arguments are refused (an assertion before 0.27)."
    ),
    when_vllm_fails="when the engine arguments are turned into a config, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-hybrid-lb --data-parallel-start-rank 8\n",
    use_instead=(
        "vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-hybrid-lb --data-parallel-size-local 8 \\\n"
        "  --data-parallel-start-rank 8\n"
    ),
    sources=(
        "vllm@0.10.2:vllm/engine/arg_utils.py:1252",
        "vllm@0.11.2:vllm/engine/arg_utils.py:1545",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2520",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    operands=(
        c.Operand("data_parallel_hybrid_lb"),
        c.Operand("data_parallel_size_local", report=False),
        c.Operand("data_parallel_rank", report=False),
        c.Operand("data_parallel_external_lb", absent=False, report=False),
        c.Operand("nnodes", absent=1, report=False),
    ),
    violated=lambda v: v.data_parallel_hybrid_lb is True and v.data_parallel_size_local is None,
    # an explicit rank or external LB takes another branch (VC215 reports the mix);
    # --nnodes > 1 lets vLLM infer the local size
    unless=lambda v: v.data_parallel_rank is not None or v.data_parallel_external_lb is True or v.nnodes > 1,
    message="`{data_parallel_hybrid_lb.name}` needs `--data-parallel-size-local`: how many data-parallel ranks this node runs",
    help="add `--data-parallel-size-local N` (the ranks on this node), or `--nnodes` and `--node-rank`",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
