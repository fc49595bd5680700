"""VC206 kv-cache-too-small: by vcfg's estimate, one `--max-model-len` sequence does not
fit in the KV cache the launch leaves on each GPU."""

from __future__ import annotations

import os
from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic, Severity
from vcfg.errors import VcfgError
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import local_model, name_span, positive_int
from vcfg.plan import memory

#: below this share of one sequence the estimate is an error, above it a warning
CLEARLY_SHORT = 0.8

_CONFIG = (
    '{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": 80,\n'
    ' "hidden_size": 8192, "intermediate_size": 28672, "num_attention_heads": 64,\n'
    ' "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,\n'
    ' "rope_scaling": {"rope_type": "llama3", "factor": 8.0}, "torch_dtype": "bfloat16"}\n'
)

RULE = Rule(
    code="VC206",
    name="kv-cache-too-small",
    summary="a KV cache (estimated) too small for one `--max-model-len` sequence",
    severity="error",
    why=(
        "After loading its share of the weights, each GPU keeps `--gpu-memory-utilization` "
        "of its memory minus the weights and working memory for the KV cache. If that "
        "cannot hold one sequence of `--max-model-len` tokens, vLLM stops after minutes "
        "of loading. vcfg estimates it as `vcfg plan` does (docs/plan.md) from the model's "
        "config.json, the launch's tensor/pipeline/data parallel sizes and KV cache dtype, "
        'and the GPU memory set with `gpu-memory = "141GiB"` in `[tool.vcfg]` (or '
        "`.vcfg.toml`); without that setting, or with `--kv-cache-memory-bytes`, it stays "
        "silent. Being an estimate, it is an error only when clearly short (below "
        f"{CLEARLY_SHORT:.0%} of one sequence) and a warning otherwise. Sliding-window and "
        "hybrid models are not checked."
    ),
    when_vllm_fails="after the weights are loaded, when the KV cache is sized",
    example=('# .vcfg.toml beside it: gpu-memory = "80GiB"\nvllm serve ./llama-70b -tp 2 --max-model-len 131072\n'),
    use_instead=('# .vcfg.toml beside it: gpu-memory = "80GiB"\nvllm serve ./llama-70b -tp 4 --max-model-len 32768\n'),
    example_files=(("llama-70b/config.json", _CONFIG), (".vcfg.toml", 'gpu-memory = "80GiB"\n')),
)

GIB = memory.GIB


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    gpu = lc.target.config.gpu_memory
    if not gpu:
        return
    m = local_model(lc)
    if m is None:
        return
    f = m.facts
    if f.sliding_window or any(t != "full_attention" for t in f.layer_types):
        return  # the estimate counts every layer as full attention: too pessimistic
    o_len = option(lc, "max_model_len")
    want = positive_int(o_len)
    if want is None or not o_len.given:
        return
    fixed = option(lc, "kv_cache_memory_bytes")
    if not fixed.known or fixed.value is not None:
        return  # a fixed KV size ignores the utilization (0.33 config/cache.py:374)
    sizes = [
        positive_int(option(lc, d)) for d in ("tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size")
    ]
    util = option(lc, "gpu_memory_utilization")
    dtype = option(lc, "kv_cache_dtype")
    tp, pp, dp = sizes
    if tp is None or pp is None or dp is None or not util.known or not isinstance(dtype.value, str):
        return
    if isinstance(util.value, bool) or not isinstance(util.value, (int, float)) or not 0 < util.value <= 1:
        return
    try:
        per_token = memory.kv_bytes_per_token(f, tp, pp, dtype.value)
    except VcfgError:
        return
    weights = memory.weight_bytes_per_gpu(f, tp, pp, dp)
    budget = memory.kv_budget_bytes(gpu, float(util.value), weights)
    tokens = int(budget // per_token) if budget > 0 and per_token > 0 else 0
    if tokens >= want:
        return
    severity: Severity = "error" if tokens < CLEARLY_SHORT * want else "warning"
    shape = f"tp {tp}" + (f", pp {pp}" if pp > 1 else "") + (f", dp {dp}" if dp > 1 else "")
    if budget <= 0:
        message = (
            f"the weights (~{weights / GIB:.1f} GiB per GPU at {shape}) leave no KV cache in "
            f"{util.value} of {gpu / GIB:.0f} GiB: `{o_len.name}` {want} cannot fit"
        )
    else:
        message = f"about {tokens} tokens of KV cache fit per GPU, fewer than one `{o_len.name}` {want} sequence"
    notes = (
        f"estimate: {gpu / GIB:.0f} GiB x {util.value} - {weights / GIB:.1f} GiB weights - "
        f"{memory.DEFAULT_RESERVE_BYTES / GIB:.0f} GiB reserve = {max(budget, 0) / GIB:.1f} GiB; "
        f"{per_token} bytes per token at {shape}",
        f"from {m.config_path} and gpu-memory in {_shown(lc.target.config.path)}",
    )
    yield RULE.diag(
        name_span(lc, o_len),
        message,
        help="lower `--max-model-len`, raise the tensor/pipeline parallel size or "
        "`--gpu-memory-utilization`, or use `--kv-cache-dtype fp8`; `vcfg plan` compares layouts",
        notes=notes,
        severity=severity,
    )


def _shown(path: Any) -> str:
    """The config file as the user sees it: relative to the working directory."""
    if path is None:
        return "the project config"
    return os.path.relpath(path) if os.path.isabs(path) else str(path)
