"""VC262 quantization-unquantized-checkpoint: `--quantization awq`/`gptq` for a checkpoint
that holds no quantization config."""

from __future__ import annotations

from typing import Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import QWEN3_8B, Model, local_model, span_of_value

#: the knowledge-pack settings (settings.toml, with vLLM's sources): the files beside
#: config.json each method that reads its settings from the checkpoint looks for
#: (``quantization.checkpoint-files.awq``; a method without one is not judged), and the
#: config.json keys that hold the settings
CHECKPOINT_FILES = "quantization.checkpoint-files."
CONFIG_KEYS = "quantization.config-keys"

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


def _has_settings(m: Model, keys: list[str]) -> bool:
    return any(isinstance(sec.get(k), dict) for sec in m.sections() for k in keys)


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
    kb, version = lc.target.knowledge, lc.target.version
    files = kb.setting(CHECKPOINT_FILES + q.value, version)
    if files is None:
        return
    names = tuple(files.values)
    keys = kb.setting(CONFIG_KEYS, version)
    m = local_model(lc)
    if m is None or _has_settings(m, keys.values if keys is not None else []):
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
