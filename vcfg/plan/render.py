"""Plans as text for people and JSON for tools."""

from __future__ import annotations

from typing import Any

from vcfg.plan.layouts import Layout, Plan
from vcfg.plan.memory import GIB

SHOWN = 12  # layouts listed in the text table


def gib(n: float) -> str:
    return f"{n / GIB:.1f} GiB"


def _status(lay: Layout) -> str:
    if not lay.valid:
        return "invalid: " + "; ".join(lay.problems)
    if not lay.weights_fit:
        return "weights do not fit"
    if not lay.fits_one_sequence:
        return "one max_model_len sequence does not fit"
    return "ok" + ("; " + "; ".join(lay.notes) if lay.notes else "")


def render_text(p: Plan) -> str:
    f, r = p.facts, p.request
    attn = (
        f"MLA (kv_lora_rank {f.kv_lora_rank} + rope {f.qk_rope_head_dim})"
        if f.is_mla
        else f"{f.num_heads} heads, {f.num_kv_heads} KV heads x {f.head_dim}"
    )
    moe = (
        f", MoE {f.num_experts} experts ({f.experts_per_token}/token, {f.num_shared_experts} shared) in {f.moe_layers} layers"
        if f.is_moe
        else ""
    )
    lines = [
        f"model: {f.model_type} from {f.source}",
        f"  {f.num_layers} layers, hidden {f.hidden_size}, {attn}{moe}, vocab {f.vocab_size}",
        f"  limit {f.max_len} tokens ({f.max_len_key}); weights {gib(f.weight_bytes)} ({f.weight_source})",
        f"gpus: {r.gpus} x {gib(r.gpu_memory)} on {r.nodes} node(s); utilization {r.gpu_memory_utilization}, "
        f"reserve {gib(r.reserve)}/GPU, kv cache dtype {r.kv_cache_dtype}, max_model_len {p.max_model_len}",
    ]
    lines += [f"error: {m}" for m in p.problems]
    lines += [f"note: {m}" for m in p.notes]
    lines.append("")
    lines.append(
        f"{'rank':>4}  {'tp':>3} {'pp':>3} {'dp':>3} {'ep':>3}  {'weights/GPU':>11}  {'KV B/token':>10}  "
        f"{'KV tokens':>10}  {'seqs':>6}  status"
    )
    for i, lay in enumerate(p.layouts[:SHOWN], 1):
        lines.append(
            f"{i:>4}  {lay.tp:>3} {lay.pp:>3} {lay.dp:>3} {'yes' if lay.ep else 'no':>3}  {gib(lay.weights_per_gpu):>11}  "
            f"{lay.kv_bytes_per_token:>10}  {lay.kv_tokens_per_replica * lay.dp:>10}  {lay.total_seqs:>6}  {_status(lay)}"
        )
    if len(p.layouts) > SHOWN:
        lines.append(f"      ... {len(p.layouts) - SHOWN} more (--format json lists all)")
    best: list[Layout] = []
    for lay in p.feasible:  # the best three distinct (tp, pp, dp); EP variants share the memory
        if len(best) < 3 and all((b.tp, b.pp, b.dp) != (lay.tp, lay.pp, lay.dp) for b in best):
            best.append(lay)
    lines.append("")
    if p.problems:
        lines.append("no layout works until the error above is fixed")
    elif not best:
        lines.append("no layout works: fewer tokens (--max-model-len), more GPUs, or an fp8 KV cache may help")
    for lay in best:
        extra = [f"--max-model-len {p.max_model_len}", f"--gpu-memory-utilization {r.gpu_memory_utilization}"]
        if r.kv_cache_dtype != "auto":
            extra.append(f"--kv-cache-dtype {r.kv_cache_dtype}")
        lines.append("vllm serve MODEL " + " ".join(lay.flags() + extra))
    return "\n".join(lines) + "\n"


def layout_json(lay: Layout) -> dict[str, Any]:
    return {
        "tp": lay.tp,
        "pp": lay.pp,
        "dp": lay.dp,
        "ep": lay.ep,
        "valid": lay.valid,
        "feasible": lay.feasible,
        "problems": list(lay.problems),
        "notes": list(lay.notes),
        "weights_per_gpu_bytes": int(lay.weights_per_gpu),
        "kv_bytes_per_token_per_gpu": lay.kv_bytes_per_token,
        "kv_budget_per_gpu_bytes": int(lay.kv_budget_per_gpu),
        "kv_tokens_per_replica": lay.kv_tokens_per_replica,
        "max_concurrent_seqs": lay.total_seqs,
        "fits_one_sequence": lay.fits_one_sequence,
        "flags": lay.flags(),
    }


def render_json(p: Plan) -> dict[str, Any]:
    f, r = p.facts, p.request
    return {
        "model": {
            "source": f.source,
            "model_type": f.model_type,
            "layers": f.num_layers,
            "hidden_size": f.hidden_size,
            "heads": f.num_heads,
            "kv_heads": f.num_kv_heads,
            "head_dim": f.head_dim,
            "mla": f.is_mla,
            "experts": f.num_experts,
            "experts_per_token": f.experts_per_token,
            "shared_experts": f.num_shared_experts,
            "vocab_size": f.vocab_size,
            "max_len": f.max_len,
            "max_len_key": f.max_len_key,
            "weight_bytes": f.weight_bytes,
            "weight_source": f.weight_source,
        },
        "request": {
            "gpus": r.gpus,
            "gpu_memory_bytes": r.gpu_memory,
            "nodes": r.nodes,
            "max_model_len": p.max_model_len,
            "kv_cache_dtype": r.kv_cache_dtype,
            "gpu_memory_utilization": r.gpu_memory_utilization,
            "reserve_bytes": r.reserve,
        },
        "problems": list(p.problems),
        "notes": list(p.notes),
        "layouts": [layout_json(lay) for lay in p.layouts],
    }
