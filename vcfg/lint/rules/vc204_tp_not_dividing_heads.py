"""VC204 tp-not-dividing-heads: a tensor parallel size the model's heads cannot split over."""

from __future__ import annotations

from typing import Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import local_model, name_span, positive_int
from vcfg.plan.model_facts import ModelFacts

_CONFIG = (
    '{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": 80,\n'
    ' "hidden_size": 8192, "intermediate_size": 28672, "num_attention_heads": 64,\n'
    ' "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,\n'
    ' "torch_dtype": "bfloat16"}\n'
)

RULE = Rule(
    code="VC204",
    name="tp-not-dividing-heads",
    summary="`--tensor-parallel-size` that does not divide the model's attention or KV heads",
    severity="error",
    why=(
        "Tensor parallelism gives each GPU an equal share of the attention heads, so the "
        "head count in the model's config.json must be a multiple of the TP size. KV heads "
        "(grouped-query attention) are either split the same way or, when there are fewer "
        "KV heads than GPUs, copied: the TP size must then be a multiple of the KV heads. "
        "vcfg checks this when the model argument is a local directory with a config.json "
        "(next to the script, or relative to the current directory); for a Hub name it "
        "stays silent. MLA models (DeepSeek) keep one latent per token and skip the KV "
        "heads check."
    ),
    when_vllm_fails=(
        "attention heads: when the engine config is built, before any worker starts; "
        "KV heads: when the workers build the model's layers"
    ),
    example="vllm serve ./llama-70b --tensor-parallel-size 6\n",
    use_instead="vllm serve ./llama-70b --tensor-parallel-size 8\n",
    example_files=(("llama-70b/config.json", _CONFIG),),
)


def valid_tp(f: ModelFacts, tp: int) -> Optional[str]:
    """Why ``tp`` does not fit the heads, or None."""
    if f.num_heads % tp:
        # vllm/config/model.py:1557-1564 (0.33.0)
        return f"{f.num_heads} attention heads are not divisible by"
    kv = f.num_kv_heads
    # QKVParallelLinear divides the KV heads by TP, or TP by the KV heads when there
    # are fewer (vllm/model_executor/layers/linear.py:1065-1071, 0.33.0).
    if not f.is_mla and ((kv >= tp and kv % tp) or (kv < tp and tp % kv)):
        return f"{kv} KV heads can be neither split nor replicated evenly over"
    return None


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    m = local_model(lc)
    if m is None:
        return
    o = option(lc, "tensor_parallel_size")
    tp = positive_int(o)
    if tp is None or not o.given:
        return
    why = valid_tp(m.facts, tp)
    if why is None:
        return
    good = [str(t) for t in range(1, 2 * max(tp, 8) + 1) if valid_tp(m.facts, t) is None]
    yield RULE.diag(
        name_span(lc, o),
        f"{why} `{o.name}` {tp}",
        help=f"use a tensor parallel size of {', '.join(good)}",
        notes=(f"from {m.config_path}",),
    )
