"""VC261 kv-cache-dtype-not-model-dtype: a float16/bfloat16 KV cache for a model that
runs in the other dtype."""

from __future__ import annotations

from typing import Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import QWEN3_8B, Model, local_model, span_of_value

VERSIONS = ">=0.33.0"

#: the knowledge-pack setting (settings.toml, with vLLM's source) naming the KV cache
#: dtypes vLLM compares with the model's
FLOAT_KV = "kv-cache-dtype.float-dtypes"
#: the settings naming the dtype of each ``--dtype`` word (``dtype.word.half`` = float16)
DTYPE_WORD = "dtype.word."


RULE = Rule(
    code="VC261",
    name="kv-cache-dtype-not-model-dtype",
    summary="`--kv-cache-dtype float16`/`bfloat16` that differs from the dtype the model runs in",
    severity="error",
    versions=VERSIONS,
    why=(
        "From 0.33 vLLM refuses a KV cache stored as float16 for a model that runs in "
        "bfloat16, and the reverse: the cache holds the attention layers' own tensors, so a "
        "16-bit float cache must match the model's dtype (`auto` always does). The model's "
        "dtype is `--dtype` when you give one, else the dtype in its config.json "
        "(`torch_dtype`/`dtype`), which vcfg reads when the model is a local directory or "
        "is in the Hugging Face cache. On a GPU without bfloat16 (before compute capability "
        "8.0, such as V100 or T4) vLLM runs a bfloat16 model in float16, so a float16 cache "
        "is accepted there: that case is a warning."
    ),
    when_vllm_fails="when the engine config is built, after the model's config is read",
    example="vllm serve ./qwen3-8b --kv-cache-dtype float16\n",
    use_instead="vllm serve ./qwen3-8b --kv-cache-dtype auto\n",
    example_files=(QWEN3_8B,),
    sources=("vllm@0.33.0:vllm/config/vllm.py:1492", "vllm@0.33.0:vllm/config/model.py:2423"),
)


def config_dtype(m: Model) -> Optional[str]:
    """The dtype config.json states (0.33.0 model_arch_config_convertor.py:210-220:
    the root, then the text config); None when it states none (vLLM then reads the
    weights' metadata)."""
    for key in ("dtype", "torch_dtype"):
        v = m.raw.get(key)
        if isinstance(v, str) and v:
            return v.removeprefix("torch.")
    for sec in m.sections()[1:]:
        for key in ("dtype", "torch_dtype"):
            v = sec.get(key)
            if isinstance(v, str) and v:
                return v.removeprefix("torch.")
    return None


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    kv = option(lc, "kv_cache_dtype")
    s = lc.target.knowledge.setting(FLOAT_KV, lc.target.version)
    float_kv = s.values if s is not None else []
    if not kv.given or kv.value not in float_kv:
        return
    d = option(lc, "dtype")
    if not d.known:
        return
    word = str(d.value).lower() if d.value is not None else "auto"
    severity = None
    notes: tuple[str, ...] = ()
    if word != "auto":
        named = lc.target.knowledge.setting(DTYPE_WORD + word, lc.target.version)
        model_dtype = named.value if named is not None else None
        where = f"from `{d.name} {d.value}`"
    else:
        m = local_model(lc)
        if m is None:
            return
        model_dtype = config_dtype(m)
        if model_dtype not in float_kv:
            return  # float32 or unknown: vLLM picks by the GPU
        where = "from its config.json"
        notes = (f"from {m.config_path}",)
        if model_dtype == "bfloat16":
            severity = "warning"
            notes += ("on a GPU without bfloat16 (V100, T4) vLLM runs the model in float16 and accepts it",)
    if model_dtype is None or model_dtype == kv.value:
        return
    allowed = f"`auto` or `{model_dtype}`" if model_dtype in float_kv else "`auto`"
    yield RULE.diag(
        span_of_value(lc, kv),
        f"`{kv.name} {kv.value}` does not match the model's dtype {model_dtype} ({where})",
        help=f"use {allowed}",
        notes=notes,
        severity=severity,  # type: ignore[arg-type]
    )
