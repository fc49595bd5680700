"""VC306 gpu-memory-oversubscribed: instances on one GPU asking for more than all of it."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Span
from vcfg.lint.constraints import launch_span, script_binding
from vcfg.lint.context import LaunchContext, RunContext
from vcfg.lint.options import UNKNOWN, option
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _hosts, _ports
from vcfg.lint.rules._args import span

RULE = Rule(
    code="VC306",
    name="gpu-memory-oversubscribed",
    summary="instances sharing a GPU whose `--gpu-memory-utilization` adds up past 1",
    severity="error",
    scope="run",
    why=(
        "`--gpu-memory-utilization` is the share of the whole GPU one instance claims "
        "(0.9 or 0.92 by default, depending on the release). Two instances started on one "
        "GPU (the same `CUDA_VISIBLE_DEVICES` entry, or both leaving the variable to the "
        "caller) need their shares to add up to at most 1: the second one finds too little "
        "free memory and stops. vcfg counts the first TP x PP GPUs of each instance, and "
        "skips instances that size their KV cache with `--kv-cache-memory-bytes`."
    ),
    when_vllm_fails="when the second instance's worker checks free memory, before the model loads",
    example=(
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-0.6B --port 8100 &\n"
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-0.6B --port 8200 &\n"
        "wait\n"
    ),
    use_instead=(
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-0.6B --port 8100 --gpu-memory-utilization 0.45 &\n"
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-0.6B --port 8200 --gpu-memory-utilization 0.45 &\n"
        "wait\n"
    ),
)


def _share(lc: LaunchContext) -> Optional[float]:
    # a fixed KV cache size ignores the share (0.33 config/cache.py:374)
    if option(lc, "kv_cache_memory_bytes", absent=None).value is not None:
        return None
    value = option(lc, "gpu_memory_utilization").value
    if value is UNKNOWN or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _spot(lc: LaunchContext) -> Span:
    ov = option(lc, "gpu_memory_utilization").ov
    if ov is not None:
        return span(lc, ov.value_span or ov.span)
    b = script_binding(lc, "CUDA_VISIBLE_DEVICES")
    if b is not None and b.source == "prefix" and b.value is not None:
        return b.value.span.for_finding(lc.path)  # this command's own prefix
    return launch_span(lc)


def _gpu_name(g: str) -> str:
    if g.startswith("caller"):
        return f"the caller's GPU #{g.rsplit(':', 1)[1]}"
    return f"GPU {g}"


def _num(x: float) -> str:
    return f"{x:.4f}".rstrip("0").rstrip(".")


#: earlier launches read per GPU once their shares already add up past 1: enough to
#: name four and say there are more (10,000 launches on one GPU were 50 million pairs)
_ENOUGH = 5


def _sharing(
    near: Iterator[LaunchContext], mine: Any, share: float, info: dict[int, tuple[Any, Optional[float]]]
) -> tuple[list[LaunchContext], bool]:
    """The earlier launches sharing a GPU of ``mine`` (with a known share), and whether
    the reading stopped early: once every GPU of ``mine`` has `_ENOUGH` of them and
    their shares add up past 1, the others change nothing but the count."""
    out: list[LaunchContext] = []
    count = {g: 0 for g in mine}
    total = {g: share for g in mine}
    for o in near:
        gpus, s = info[id(o)]
        if not gpus or s is None:
            continue
        out.append(o)
        for g in gpus:
            if g in count:
                count[g] += 1
                total[g] += s
        if all(count[g] >= _ENOUGH and total[g] > 1.0 + 1e-9 for g in count):
            return out, True
    return out, False


def check(run: RunContext) -> Iterator[Diagnostic]:
    pool = _hosts.serves(run)
    info: dict[int, tuple[Any, Optional[float]]] = {id(lc): (_ports.gpus(lc), _share(lc)) for lc in pool}
    near = _hosts.Neighbours(run, pool, {k: v[0] or () for k, v in info.items()})
    for lc in pool:
        mine, share = info[id(lc)]
        if not mine or share is None:
            continue
        before, cut = _sharing(near.before(lc), mine, share, info)
        for g in mine:
            # _sharing keeps only launches with a known share
            others = [(o, sh) for o in before if g in info[id(o)][0] and (sh := info[id(o)][1]) is not None]
            total = share + sum(s for _, s in others)
            if others and total > 1.0 + 1e-9:
                # at most four others by name: a message does not grow with the script
                shown, more = others[:4], len(others) - 4
                tail = " and more" if cut else f" and {more} more" if more > 0 else ""
                shares = (
                    f"{_num(share)} + {_num(total - share)} (the first {len(others)} others) + ..."
                    if cut
                    else " + ".join(_num(s) for s in [*(s for _, s in shown), share])
                    if more <= 0
                    else f"{_num(share)} + {len(others)} x {_num(others[0][1])}"
                    if len({s for _, s in others}) == 1
                    else f"{_num(share)} + {_num(total - share)} ({len(others)} others)"
                )
                places = ", ".join(_hosts.where(lc, o) for o, _ in shown) + tail
                launches = "launch" if len(others) == 1 else "launches"
                yield RULE.diag(
                    _spot(lc),
                    f"{_gpu_name(g)} is shared with the {launches} at {places}: "
                    f"`--gpu-memory-utilization` {shares}{'' if cut else ' = ' + _num(total)} > 1",
                    help="lower `--gpu-memory-utilization` so the instances on one GPU add up to at most 1",
                )
                break
