"""VC245 external-dp-dense-model: external data-parallel load balancing for a model
without experts."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import expert_keys, local_model

VERSIONS = ">=0.21.0"

_CONFIG = (
    '{"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,\n'
    ' "hidden_size": 4096, "intermediate_size": 12288, "num_attention_heads": 32,\n'
    ' "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,\n'
    ' "max_position_embeddings": 40960, "torch_dtype": "bfloat16"}\n'
)

RULE = Rule(
    code="VC245",
    name="external-dp-dense-model",
    summary="external data-parallel load balancing (`--data-parallel-rank`) for a model without experts",
    severity="error",
    versions=VERSIONS,
    why=(
        "Data-parallel ranks of a dense model share nothing: each is an independent server. "
        "vLLM runs a data-parallel group (one `--data-parallel-rank` per process, or "
        "`--data-parallel-external-lb`) only for mixture-of-experts models, whose ranks meet "
        "in the expert layers, and refuses it for a dense one; launch independent servers "
        "without `--data-parallel-*` instead. vcfg checks this when the model is a local "
        "directory or in the Hugging Face cache and its config.json names no experts."
    ),
    when_vllm_fails="when the engine config is built, after the model's config is read",
    example="vllm serve ./qwen3-8b --data-parallel-size 2 --data-parallel-rank 1\n",
    use_instead="vllm serve ./qwen3-8b --port 8001\n",
    example_files=(("qwen3-8b/config.json", _CONFIG),),
    sources=("vllm@0.21.0:vllm/engine/arg_utils.py:1796", "vllm@0.33.0:vllm/engine/arg_utils.py:2456"),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("data_parallel_size", report=False),
        c.Operand("data_parallel_rank"),
        c.Operand("data_parallel_external_lb"),
    ),
    violated=lambda v: (
        v.data_parallel_size > 1 and (v.data_parallel_rank is not None or bool(v.data_parallel_external_lb))
    ),
    message="external data parallelism (`{data_parallel_size.name} {data_parallel_size}` with a rank per process) on a model without experts",
    help="launch independent servers without `--data-parallel-*` options, or serve a mixture-of-experts model",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if c.evaluate(ENTRY, lc) is None:
        return
    m = local_model(lc)
    # ModelConfig.is_moe: the number of experts config.json names (0.33.0 config/model.py:2294)
    if m is None or m.may_have_experts(expert_keys(lc)):
        return
    yield from c.check(RULE, ENTRY, lc)
