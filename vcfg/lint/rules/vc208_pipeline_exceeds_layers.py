"""VC208 pipeline-exceeds-layers: more pipeline stages than the model has layers."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import local_model, name_span, positive_int

_CONFIG = (
    '{"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 28,\n'
    ' "hidden_size": 1024, "intermediate_size": 3072, "num_attention_heads": 16,\n'
    ' "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,\n'
    ' "max_position_embeddings": 40960, "torch_dtype": "bfloat16"}\n'
)

RULE = Rule(
    code="VC208",
    name="pipeline-exceeds-layers",
    summary="`--pipeline-parallel-size` above the model's number of layers",
    severity="warning",
    why=(
        "Pipeline parallelism hands each stage a run of consecutive layers. With more "
        "stages than layers in the model's config.json, some stages get no layer at all: "
        "their GPUs hold nothing useful and only add a hop to every step. vcfg checks this "
        "when the model argument is a local directory with a config.json."
    ),
    when_vllm_fails="not at a known point: the empty stages are a waste, when they start at all",
    example="vllm serve ./qwen3-0.6b --pipeline-parallel-size 32\n",
    use_instead="vllm serve ./qwen3-0.6b --pipeline-parallel-size 4\n",
    example_files=(("qwen3-0.6b/config.json", _CONFIG),),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    o = option(lc, "pipeline_parallel_size")
    pp = positive_int(o)
    if pp is None or not o.given or pp == 1:
        return
    m = local_model(lc)
    # layers are split per stage by vllm/distributed/utils.py:198-241 (0.33.0)
    if m is None or pp <= m.facts.num_layers:
        return
    yield RULE.diag(
        name_span(lc, o),
        f"`{o.name}` {pp} is more than the model's {m.facts.num_layers} layers",
        help=f"use at most {m.facts.num_layers} pipeline stages",
        notes=(f"from {m.config_path}",),
    )
