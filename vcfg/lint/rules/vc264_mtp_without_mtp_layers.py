"""VC264 mtp-without-mtp-layers: `--speculative-config '{"method": "mtp", ...}'` for a model
whose checkpoint has no multi-token-prediction layers."""

from __future__ import annotations

from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, value_span_of
from vcfg.lint.rules._model import QWEN3_8B, Model, local_model, model_value

VERSIONS = ">=0.13.0"
#: the knowledge-pack settings (settings.toml, with vLLM's sources): the model types
#: vLLM's MTP set-up knows; the releases that build an MTP-less checkpoint as a plain
#: draft model (not judged); the releases where a ``*_mtp`` method is read as ``mtp``
MODEL_TYPES = "mtp.model-types"
UNJUDGED = "mtp.draft-model-unjudged"
ALIASED = "mtp.method-names-aliased"
#: and the words in a model's path or architecture that make vLLM pick another draft
#: method for the same checkpoint
OTHER_DRAFTS = "mtp.other-draft-words"


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


def _mentions_mtp(m: Model, words: list[str]) -> bool:
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
            return any(w in low for w in words)
        return False

    return walk(m.raw, 0)


def _known_type(m: Model, known: list[str]) -> bool:
    for sec in m.sections():
        t = sec.get("model_type")
        if isinstance(t, str) and (t in known or "mtp" in t):
            return True
    return False


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    pa = parsed(lc)
    ov = pa.get("speculative_config") if pa is not None else None
    if ov is None or not ov.known or not isinstance(ov.value, dict):
        return
    kb, version = lc.target.knowledge, lc.target.version
    if kb.setting(UNJUDGED, version) is not None:
        return
    spec = ov.value
    method = spec.get("method")
    if isinstance(method, str) and method.endswith("_mtp") and kb.setting(ALIASED, version) is not None:
        method = "mtp"
    if method != "mtp" or spec.get("model") is not None:
        return  # another method, or a separate draft model: its config decides
    if spec.get("num_speculative_tokens") is None:
        return
    m = local_model(lc)
    types = kb.setting(MODEL_TYPES, version)
    others = kb.setting(OTHER_DRAFTS, version)
    words = others.values if others is not None else []
    if m is None or _known_type(m, types.values if types is not None else []) or _mentions_mtp(m, words):
        return
    mv = model_value(lc, pa)
    model_text = str(mv.value).lower() if mv is not None else ""
    if any(w in model_text for w in words):
        return
    yield RULE.diag(
        value_span_of(lc, ov, "method"),
        f"speculative method `{spec.get('method')}` for a model without MTP layers: {m.facts.model_type} config.json names none",
        help="name a draft model in `model`, or use another method such as `ngram` or `eagle3`",
        notes=(f"from {m.config_path}",),
    )
