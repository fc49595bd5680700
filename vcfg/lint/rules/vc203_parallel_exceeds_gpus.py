"""VC203 parallel-exceeds-gpus: more workers than `CUDA_VISIBLE_DEVICES` leaves GPUs."""

from __future__ import annotations

from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.11.2"

RULE = Rule(
    code="VC203",
    name="parallel-exceeds-gpus",
    summary="tensor x pipeline (x context) parallel size above the GPUs `CUDA_VISIBLE_DEVICES` leaves",
    severity="error",
    versions=VERSIONS,
    why=(
        "One instance runs tensor x pipeline x prefill-context-parallel workers, one per "
        "GPU of its node. With more workers than visible GPUs and no executor backend "
        "chosen, vLLM stops (before 0.11.2 it fell back to Ray, which waits for GPUs "
        "instead). A multi-node launch (`--nnodes` > 1) or an explicit "
        "`--distributed-executor-backend` (Ray) is not checked: its GPUs live elsewhere."
    ),
    when_vllm_fails="when the parallel config is built, before any worker starts",
    example="CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B -tp 2\n",
    use_instead="CUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen3-8B -tp 2\n",
)


def _world(values: dict[str, Any]) -> dict[str, Any]:
    factors = [values[k] for k in ("tensor_parallel_size", "pipeline_parallel_size", "prefill_context_parallel_size")]
    shown = [f"`{f.name}` {f}" for f in factors if f.given] or [f"`{factors[0].name}` {factors[0]}"]
    world = factors[0].value * factors[1].value * factors[2].value
    return {"world": world, "factors": " x ".join(shown)}


# 0.33 config/parallel.py:964-968 (world size), 1066-1077 (the check, CUDA only, skipped
# with nnodes > 1 or a chosen backend); 0.11.2 config/parallel.py:562-570.
ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("tensor_parallel_size", convert=c.positive_int),
        c.Operand("pipeline_parallel_size", absent=1, convert=c.positive_int),
        c.Operand("prefill_context_parallel_size", absent=1, convert=c.positive_int),
        c.Operand("env:CUDA_VISIBLE_DEVICES", convert=c.device_count),
        c.Operand("nnodes", absent=1, report=False),
        c.Operand("distributed_executor_backend", absent=None, report=False),
    ),
    violated=lambda v: (
        (v.tensor_parallel_size * v.pipeline_parallel_size * v.prefill_context_parallel_size) > v.CUDA_VISIBLE_DEVICES
    ),
    unless=lambda v: v.nnodes > 1 or v.distributed_executor_backend is not None,
    derive=_world,
    message=(
        "{factors} needs {world} GPUs but `CUDA_VISIBLE_DEVICES={CUDA_VISIBLE_DEVICES.text}` "
        "makes {CUDA_VISIBLE_DEVICES} visible"
    ),
    help=(
        "list {world} GPUs in CUDA_VISIBLE_DEVICES, lower the parallel sizes, or pass "
        "`--nnodes` / `--distributed-executor-backend ray` for a multi-node launch"
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
