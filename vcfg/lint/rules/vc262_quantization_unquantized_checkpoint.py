"""VC262 quantization-unquantized-checkpoint: `--quantization awq`/`gptq` for a checkpoint
that holds no quantization config."""

from __future__ import annotations

from typing import Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import QWEN3_8B, Model, local_model, span_of_value

#: methods that read their settings from the checkpoint, and the files vLLM looks for
#: when config.json has no quantization_config (``get_config_filenames``: 0.10.0
#: quantization/awq.py:66, gptq.py:98, awq_marlin.py:92, gptq_marlin.py:143; 0.33.0
#: quantization/auto_awq.py:238, auto_gptq.py:187, which serve awq, awq_marlin,
#: auto_awq and gptq, gptq_marlin, auto_gptq, quantization/__init__.py:157-169).
#: The awq names take the union of the releases' file names (fewer findings, never more).
CHECKPOINT_FILES: dict[str, tuple[str, ...]] = {
    "awq": ("quant_config.json", "quantize_config.json"),
    "awq_marlin": ("quant_config.json", "quantize_config.json"),
    "auto_awq": ("quant_config.json", "quantize_config.json"),
    "gptq": ("quantize_config.json",),
    "gptq_marlin": ("quantize_config.json",),
    "auto_gptq": ("quantize_config.json",),
}
#: where vLLM looks for a checkpoint's quantization settings in config.json
#: (0.33.0 model_loader/weight_utils.py:240-247)
CONFIG_KEYS = ("quantization_config", "compression_config")


RULE = Rule(
    code="VC262",
    name="quantization-unquantized-checkpoint",
    summary="`--quantization awq` or `gptq` for a checkpoint without quantization settings",
    severity="error",
    why=(
        "AWQ and GPTQ do not quantize a model: they run one that was quantized beforehand, "
        "and read its bit width and group size from the checkpoint (`quantization_config` "
        "in config.json, or a `quant_config.json`/`quantize_config.json` beside it). For an "
        "unquantized checkpoint vLLM finds no such settings and stops. To quantize a "
        "full-precision model when it loads, use an online method such as `fp8`; to run "
        "AWQ or GPTQ, point at a quantized checkpoint. vcfg checks this when the model is a "
        "local directory, or a Hugging Face cache snapshot that holds config.json."
    ),
    when_vllm_fails="when the engine config is built, after the model's config is read",
    example="vllm serve ./qwen3-8b --quantization awq\n",
    use_instead="vllm serve ./qwen3-8b --quantization fp8\n",
    example_files=(QWEN3_8B,),
    sources=(
        "vllm@0.10.0:vllm/model_executor/model_loader/weight_utils.py:203",
        "vllm@0.33.0:vllm/model_executor/model_loader/weight_utils.py:380",
        "vllm@0.33.0:vllm/config/vllm.py:925",
    ),
)


def _has_settings(m: Model) -> bool:
    return any(isinstance(sec.get(k), dict) for sec in m.sections() for k in CONFIG_KEYS)


def _settings_file(m: Model, names: tuple[str, ...]) -> Optional[bool]:
    """Whether the folder holds a file vLLM takes for the settings (``*.json`` ending
    with one of ``names``, weight_utils.py:370-374); None when it cannot be listed."""
    try:
        return any(p.name.endswith(names) for p in m.folder.glob("*.json"))
    except OSError:
        return None


def _has_weights(m: Model) -> bool:
    """A snapshot with its weights was downloaded whole (the *.json files vLLM reads
    come with them)."""
    try:
        return any(True for _ in m.folder.glob("*.safetensors"))
    except OSError:
        return False


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    q = option(lc, "quantization")
    if not q.given or not isinstance(q.value, str):
        return
    names = CHECKPOINT_FILES.get(q.value)
    if names is None:
        return
    m = local_model(lc)
    if m is None or _has_settings(m):
        return
    if m.cached and not _has_weights(m):
        return  # a snapshot of config.json alone: vLLM would download the other files
    found = _settings_file(m, names)
    if found is not False:
        return
    yield RULE.diag(
        span_of_value(lc, q),
        f"`{q.name} {q.value}` on a checkpoint that is not quantized: its config.json has no "
        f"quantization_config and the folder no {' or '.join(names)}",
        help="give a quantized checkpoint, or quantize on load with an online method such as `fp8`",
        notes=(f"from {m.config_path}",),
    )
