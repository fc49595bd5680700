"""VC207 expert-parallel-dense-model: `--enable-expert-parallel` for a model without experts."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import expert_keys, local_model, name_span

_CONFIG = (
    '{"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 64,\n'
    ' "hidden_size": 5120, "intermediate_size": 25600, "num_attention_heads": 64,\n'
    ' "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,\n'
    ' "max_position_embeddings": 40960, "torch_dtype": "bfloat16"}\n'
)

RULE = Rule(
    code="VC207",
    name="expert-parallel-dense-model",
    summary="`--enable-expert-parallel` for a model whose config.json has no experts",
    severity="error",
    why=(
        "Expert parallelism places whole experts of a mixture-of-experts model on different "
        "GPUs. A dense model has no experts to place, and vLLM refuses the flag rather than "
        "ignore it. vcfg checks this when the model argument is a local directory with a "
        "config.json that names no expert count (`n_routed_experts`, `num_experts`, "
        "`num_local_experts`, ...)."
    ),
    when_vllm_fails="when the engine config is built, before any worker starts",
    example="vllm serve ./qwen3-32b -tp 4 --enable-expert-parallel\n",
    use_instead="vllm serve ./qwen3-32b -tp 4\n",
    example_files=(("qwen3-32b/config.json", _CONFIG),),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    o = option(lc, "enable_expert_parallel")
    if not o.given or o.value is not True:
        return
    m = local_model(lc)
    # vllm/config/model.py:1498-1503 and 1566-1567 (0.33.0)
    if m is None or m.may_have_experts(expert_keys(lc)):
        return
    yield RULE.diag(
        name_span(lc, o),
        f"`{o.name}` on a dense model: {m.facts.model_type} config.json has no experts",
        help=f"drop `{o.name}`; expert parallelism is for mixture-of-experts models",
        notes=(f"from {m.config_path}",),
    )
