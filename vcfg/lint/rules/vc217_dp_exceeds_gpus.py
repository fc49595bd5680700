"""VC217 dp-exceeds-gpus: a node's data-parallel ranks need more GPUs than it makes visible."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.constraints import device_ids, launch_span, script_binding
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import span
from vcfg.lint.rules._dp import view

RULE = Rule(
    code="VC217",
    name="dp-exceeds-gpus",
    summary="local data-parallel ranks x tensor x pipeline (x context) parallel above the visible GPUs",
    severity="error",
    why=(
        "Each data-parallel rank a node runs (all of `--data-parallel-size` on one node, "
        "else `--data-parallel-size-local`, or what `--nnodes` implies) is an engine with "
        "its own tensor x pipeline (x prefill-context) parallel workers, and vLLM gives "
        "local rank i the GPUs i x world .. (i+1) x world - 1 of `CUDA_VISIBLE_DEVICES`. "
        "With fewer visible GPUs the engine of the first rank past the end fails to start. "
        "VC203 checks one replica; this rule the node's whole share. Launches with "
        "`--data-parallel-backend ray` or `--device-ids` are not checked."
    ),
    when_vllm_fails="when the engine processes start, before the model loads",
    example="CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve deepseek-ai/DeepSeek-V3 -tp 2 -dp 4 --enable-expert-parallel\n",
    use_instead="CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 vllm serve deepseek-ai/DeepSeek-V3 -tp 2 -dp 4 --enable-expert-parallel\n",
    sources=(
        "vllm@0.10.2:vllm/v1/engine/utils.py:189",
        "vllm@0.33.0:vllm/v1/engine/utils.py:466",
        "vllm@0.33.0:vllm/v1/engine/utils.py:476",
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    v = view(lc)
    if v is None or v.backend != "mp":
        return
    if option(lc, "device_ids", absent=None).value is not None:
        return
    ranks = v.local_ranks()
    if ranks is None or len(ranks) < 2:
        return
    b = script_binding(lc, "CUDA_VISIBLE_DEVICES")
    if b is None or b.unset or not b.exported or b.value is None or b.value.text is None:
        return
    visible = len(device_ids(b.value.text))
    world = v.within_dp if option(lc, "prefill_context_parallel_size").exists else v.tp * v.pp
    need = len(ranks) * world
    if not visible or world > visible or need <= visible:
        return  # nothing visible, or one replica already too large (VC203)
    # the operand written last: the DP option word, else the variable's value
    spots = []
    for dest in ("data_parallel_size_local", "data_parallel_size", "nnodes"):
        ov = option(lc, dest).ov
        if ov is not None:
            spots.append(span(lc, ov.name_span))
            break
    if b.source == "prefix" or b.value.span.file in ("", lc.inv.span.file):
        spots.append(b.value.span.for_finding(lc.path))
    at = max(spots, key=lambda s: (s.file == lc.path, s.line, s.col)) if spots else launch_span(lc)
    yield RULE.diag(
        at,
        f"{len(ranks)} local data-parallel ranks x {world} GPUs each need {need} GPUs but "
        f"`CUDA_VISIBLE_DEVICES={b.value.text}` makes {visible} visible",
        help=f"list {need} GPUs, lower `--data-parallel-size-local` to {visible // world}, or spread the ranks "
        "over more nodes",
    )
