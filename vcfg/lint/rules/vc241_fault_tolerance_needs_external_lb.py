"""VC241 fault-tolerance-needs-external-lb: `--enable-fault-tolerance` with internal data
parallel load balancing."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.27.0"

RULE = Rule(
    code="VC241",
    name="fault-tolerance-needs-external-lb",
    summary="`--enable-fault-tolerance` without external data-parallel load balancing",
    severity="error",
    versions=VERSIONS,
    why=(
        "Fault tolerance restarts one data-parallel rank while the others serve, which "
        "needs each rank to be its own `vllm serve` behind an external load balancer "
        "(`--data-parallel-external-lb`, or a `--data-parallel-rank` per process); the "
        "engine arguments refuse it with vLLM's internal load balancing."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --data-parallel-size 2 --enable-fault-tolerance\n",
    use_instead="vllm serve Qwen/Qwen3-8B --data-parallel-size 2 --data-parallel-rank 0 --enable-fault-tolerance\n",
    sources=("vllm@0.27.0:vllm/engine/arg_utils.py:2078", "vllm@0.33.0:vllm/engine/arg_utils.py:2450"),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("enable_fault_tolerance"),
        c.Operand("data_parallel_external_lb", report=False),
        c.Operand("data_parallel_rank", report=False),
    ),
    violated=lambda v: v.enable_fault_tolerance is True,
    unless=lambda v: bool(v.data_parallel_external_lb) or v.data_parallel_rank is not None,
    message="`{enable_fault_tolerance.name}` needs external data-parallel load balancing",
    help="add `--data-parallel-external-lb` or a `--data-parallel-rank` per process",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
