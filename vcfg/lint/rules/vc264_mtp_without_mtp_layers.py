"""VC264 mtp-without-mtp-layers: `--speculative-config '{"method": "mtp", ...}'` for a model
whose checkpoint has no multi-token-prediction layers."""

from __future__ import annotations

from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.constraints import holds
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, value_span_of
from vcfg.lint.rules._model import QWEN3_8B, Model, local_model

VERSIONS = ">=0.13.0"
#: 0.15.0-0.20.1 build an MTP-less checkpoint as a plain draft model (0.15 supports
#: draft models), which vcfg does not judge; 0.13 and 0.14 refuse a draft model
#: (0.13.0 config/speculative.py:379, NotImplementedError), from 0.20.2 the MTP check
#: refuses it
UNJUDGED = ">=0.15.0,<0.20.2"
#: 0.13/0.14 replace every MTP model type named as a method by ``mtp`` before choosing
#: the draft (0.13.0 config/speculative.py:244-248); those names are exactly the
#: methods ending in ``_mtp`` (MTPModelTypes of 0.13.0 and 0.14.1, checked)
ALIASED = "<0.15.0"

#: model types vLLM's MTP draft set-up knows by name (0.33.0 config/speculative.py:711-1040,
#: ``hf_config_override``), and the model types behind the named MTP methods (lines
#: 36-66); a superset only makes the rule quieter.  The rule stays silent for them and
#: for any config that mentions MTP or next-n layers
MTP_MODEL_TYPES = frozenset({
    "bailing_hybrid", "deepseek_v3", "deepseek_v32", "deepseek_v4", "deepseek_v41", "dots3_note",
    "ernie4_5_moe", "exaone4_5", "exaone_moe", "gemma4", "glm4_moe", "glm4_moe_lite", "glm_moe_dsa",
    "glm_ocr", "hy_v3", "hy_v4", "inkling_mm_model", "inkling_model", "intern_s2_preview",
    "interns2_mobius", "kimi_k3", "longcat_flash", "mimo", "mimo_v2", "mimo_v2_flash", "minimax_m3",
    "nemotron_h", "nemotron_h_puzzle", "pangu_ultra_moe", "qwen3_5", "qwen3_5_moe",
    "qwen3_5_moe_text", "qwen3_next", "qwen4_exp", "qwen4_exp_text", "step3p5", "step3p7", "step5",
    "step5_vl",
})  # fmt: skip
#: words in a model's path or architecture that make vLLM pick another draft method
#: for the same checkpoint (0.20.2 config/speculative.py:580-600)
OTHER_DRAFTS = ("eagle", "dflash", "dspark", "medusa", "mlp_speculator", "mtp", "nextn")


RULE = Rule(
    code="VC264",
    name="mtp-without-mtp-layers",
    summary="speculative method `mtp` for a model without multi-token-prediction layers",
    severity="error",
    versions=VERSIONS,
    why=(
        '`"method": "mtp"` drafts tokens with the extra multi-token-prediction layers '
        "some checkpoints ship (DeepSeek-V3, GLM-4.5, Qwen3-Next, MiMo, ...), taken from the "
        "served model itself. A model without such layers has nothing to draft with, and "
        "vLLM stops with an unsupported speculative method. vcfg checks this when the model "
        "is a local directory or in the Hugging Face cache and its config.json names no "
        "MTP or next-n layers and is of no model type vLLM's MTP set-up knows; give a "
        'separate draft model (`"model"`) or another method (`ngram`, `eagle3`).'
    ),
    when_vllm_fails="when the speculative config is built, after the model's config is read",
    example=('vllm serve ./qwen3-8b \\\n  --speculative-config \'{"method": "mtp", "num_speculative_tokens": 1}\'\n'),
    use_instead=(
        "vllm serve ./qwen3-8b \\\n"
        '  --speculative-config \'{"method": "ngram", "num_speculative_tokens": 3, '
        '"prompt_lookup_max": 4}\'\n'
    ),
    example_files=(QWEN3_8B,),
    sources=(
        "vllm@0.13.0:vllm/config/speculative.py:379",
        "vllm@0.20.2:vllm/config/speculative.py:620",
        "vllm@0.33.0:vllm/config/speculative.py:1253",
        "vllm@0.33.0:vllm/config/speculative.py:1497",
    ),
)


def _mentions_mtp(m: Model) -> bool:
    def walk(v: Any, depth: int) -> bool:
        if depth > 4:
            return True  # too deep to tell: assume it may
        if isinstance(v, dict):
            for k, x in v.items():
                low = str(k).lower()
                if "mtp" in low or "nextn" in low or "next_n" in low:
                    return True
                if walk(x, depth + 1):
                    return True
        elif isinstance(v, list):
            return any(walk(x, depth + 1) for x in v[:64])
        elif isinstance(v, str):
            low = v.lower()
            return any(w in low for w in OTHER_DRAFTS)
        return False

    return walk(m.raw, 0)


def _known_type(m: Model) -> bool:
    for sec in m.sections():
        t = sec.get("model_type")
        if isinstance(t, str) and (t in MTP_MODEL_TYPES or "mtp" in t):
            return True
    return False


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    pa = parsed(lc)
    ov = pa.get("speculative_config") if pa is not None else None
    if ov is None or not ov.known or not isinstance(ov.value, dict):
        return
    if holds(UNJUDGED, lc.target.version):
        return
    spec = ov.value
    method = spec.get("method")
    if isinstance(method, str) and method.endswith("_mtp") and holds(ALIASED, lc.target.version):
        method = "mtp"
    if method != "mtp" or spec.get("model") is not None:
        return  # another method, or a separate draft model: its config decides
    if spec.get("num_speculative_tokens") is None:
        return
    m = local_model(lc)
    if m is None or _known_type(m) or _mentions_mtp(m):
        return
    model_text = str(pa.model.value).lower() if pa.model is not None else ""
    if any(w in model_text for w in OTHER_DRAFTS):
        return
    yield RULE.diag(
        value_span_of(lc, ov, "method"),
        f"speculative method `{spec.get('method')}` for a model without MTP layers: {m.facts.model_type} config.json names none",
        help="name a draft model in `model`, or use another method such as `ngram` or `eagle3`",
        notes=(f"from {m.config_path}",),
    )
