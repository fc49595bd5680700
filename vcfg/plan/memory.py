"""Memory arithmetic: weight bytes per GPU, KV cache bytes per token, tokens that fit.

The formulas are written out in docs/plan.md.  They are estimates made before launch,
not vLLM's own profiling: good enough to catch a layout that cannot work.
"""

from __future__ import annotations

import math

from vcfg.errors import VcfgError
from vcfg.plan.model_facts import DTYPE_BYTES, ModelFacts, WeightSplit, estimate_weight_split

GIB = 1024**3
# Per-GPU allowance for what vLLM reserves besides weights and KV cache inside the
# gpu_memory_utilization budget: activation peak of the profiling run, CUDA graphs,
# communication buffers.  A round number, see docs/plan.md.
DEFAULT_RESERVE_BYTES = 4 * GIB
# DeepSeek-V3.2 sparse MLA with an fp8 cache stores 656 bytes per token and layer
# (vllm/v1/attention/backends/mla/flashmla_sparse.py:79, 0.33.0).
FP8_DS_MLA_BYTES = 656
# The V3.2 indexer keeps fp8 keys of index_head_dim plus one float32 scale per 128
# values (vllm/model_executor/models/deepseek_v2.py:724-732, 0.33.0).
INDEXER_QUANT_BLOCK = 128

KV_CACHE_DTYPES = ("auto", "bfloat16", "float16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_ds_mla", "float32")


def weight_split(f: ModelFacts) -> WeightSplit:
    """The model's weight bytes (index total when known), split by the shape estimate."""
    est = estimate_weight_split(f)
    share = est.experts / est.total if est.total else 0.0
    return WeightSplit(dense=f.weight_bytes * (1 - share), experts=f.weight_bytes * share)


def weight_bytes_per_gpu(f: ModelFacts, tp: int, pp: int, dp: int) -> float:
    """Non-expert weights split by TP and PP (and copied per DP replica); expert
    weights split over all TP x DP ranks, by PP too.  vLLM flattens TP across DP for
    the MoE layers, and with expert parallelism each of those ranks owns whole experts
    instead of a slice of every expert: the bytes per GPU are the same either way
    (vllm/model_executor/layers/fused_moe/config.py:1198-1240, 0.33.0)."""
    split = weight_split(f)
    return (split.dense / tp + split.experts / (tp * dp)) / pp


def kv_dtype_bytes(f: ModelFacts, kv_cache_dtype: str) -> int:
    if kv_cache_dtype == "auto":
        return DTYPE_BYTES.get(f.dtype, 2)
    if kv_cache_dtype.startswith("fp8"):
        return 1
    if kv_cache_dtype in DTYPE_BYTES:
        return DTYPE_BYTES[kv_cache_dtype]
    raise VcfgError(
        f"unknown --kv-cache-dtype `{kv_cache_dtype}`", hint=f"expected one of {', '.join(KV_CACHE_DTYPES)}"
    )


def layers_per_stage(f: ModelFacts, pp: int) -> int:
    """The largest pipeline stage decides how many tokens fit (vLLM takes the minimum)."""
    return math.ceil(f.num_layers / pp)


def kv_bytes_per_token(f: ModelFacts, tp: int, pp: int, kv_cache_dtype: str = "auto") -> int:
    """KV cache bytes one token costs on one GPU.

    MHA/GQA: 2 (K and V) x layers x KV heads per GPU x head_dim x dtype bytes, with
    KV heads per GPU = max(1, kv_heads // tp) (vllm/config/model.py:1683, 0.33.0), so
    they are replicated when there are fewer KV heads than TP ranks.
    MLA: layers x (kv_lora_rank + qk_rope_head_dim) x dtype bytes, one latent per token
    that every TP rank holds whole (config/model.py:1669-1671).
    """
    layers = layers_per_stage(f, pp)
    nbytes = kv_dtype_bytes(f, kv_cache_dtype)
    if f.is_mla:
        if f.has_indexer and nbytes == 1:
            per_layer = FP8_DS_MLA_BYTES
        else:
            per_layer = f.head_dim * nbytes  # head_dim = kv_lora_rank + qk_rope_head_dim
        if f.has_indexer and f.index_head_dim:
            per_layer += f.index_head_dim + f.index_head_dim // INDEXER_QUANT_BLOCK * 4
        return layers * per_layer
    return 2 * layers * max(1, f.num_kv_heads // tp) * f.head_dim * nbytes


def kv_budget_bytes(
    gpu_memory: int, utilization: float, weights_per_gpu: float, reserve: int = DEFAULT_RESERVE_BYTES
) -> float:
    """What is left for the KV cache on one GPU: memory x utilization - weights - reserve."""
    return gpu_memory * utilization - weights_per_gpu - reserve


def parse_size(text: str) -> int:
    """'141GiB', '141 GiB', '80GB', '1.5TiB' or a plain byte count."""
    units = {
        "": 1,
        "b": 1,
        "kb": 10**3,
        "mb": 10**6,
        "gb": 10**9,
        "tb": 10**12,
        "kib": 2**10,
        "mib": 2**20,
        "gib": 2**30,
        "tib": 2**40,
        "k": 2**10,
        "m": 2**20,
        "g": 2**30,
        "t": 2**40,
    }
    s = text.strip().lower().replace(" ", "")
    num = s.rstrip("abcdefghijklmnopqrstuvwxyz")
    unit = s[len(num) :]
    try:
        from vcfg.bounded import parse_float

        value = parse_float(num)
    except ValueError:
        value = -1.0
    if unit not in units or value <= 0:
        raise VcfgError(f"cannot read the memory size `{text}`", hint="write it like 141GiB or 80GB")
    return int(value * units[unit])
