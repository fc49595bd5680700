"""VC205 max-model-len-above-limit: `--max-model-len` longer than the model's config allows."""

from __future__ import annotations

from typing import Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import QWEN3_8B, local_model, name_span, positive_int

#: the override variable as the docs page names it; the check reads it from the
#: knowledge packs (settings.toml), and a test keeps the two the same
ALLOW = "VLLM_ALLOW_LONG_MAX_MODEL_LEN"


RULE = Rule(
    code="VC205",
    name="max-model-len-above-limit",
    summary="`--max-model-len` above the length the model's config.json allows",
    severity="error",
    why=(
        "vLLM derives the longest sequence a model supports from its config.json (the "
        "smallest of `max_position_embeddings` and similar keys, times the RoPE scaling "
        "factor for scaling types that do not already include it). A longer "
        f"`--max-model-len` is refused unless `{ALLOW}=1` reaches the server, because "
        "positions beyond the trained range give garbage. vcfg checks this when the "
        "model argument is a local directory with a config.json; `-1`/`auto` let vLLM "
        "pick the length and are not checked."
    ),
    when_vllm_fails="when the model config is built, before any worker starts",
    example="vllm serve ./qwen3-8b --max-model-len 65536\n",
    use_instead="vllm serve ./qwen3-8b --max-model-len 40960\n",
    example_files=(QWEN3_8B,),
)


def _override(lc: LaunchContext) -> Optional[str]:
    """The variable that lets a longer length through (knowledge: settings.toml)."""
    s = lc.target.knowledge.setting("long-max-model-len.override", lc.target.version)
    return s.value if s is not None else None


def _allowed(lc: LaunchContext) -> bool:
    """True when the override reaches the launch, or may (something vcfg cannot see
    could set it); False when the script leaves it unset or sets it to a false value."""
    allow = _override(lc)
    if allow is None:
        return False
    b = lc.inv.env.get(allow)
    if b is None:
        return bool(lc.inv.env_unknowns)
    if b.unset or not b.exported:
        return False
    if b.value is None or b.value.text is None:
        return True  # a value vcfg cannot compute
    var = lc.catalog.env(allow)
    truthy = [str(t) for t in (var.truthy if var is not None and var.truthy else ["1", "true"])]
    text = b.value.text.strip()
    if var is None or not var.case_sensitive:
        return text.lower() in [t.lower() for t in truthy]
    return text in truthy


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    m = local_model(lc)
    if m is None:
        return
    o = option(lc, "max_model_len")
    want = positive_int(o)  # -1 / auto: vLLM picks the length
    if want is None or not o.given:
        return
    f = m.facts
    limit = f.max_len
    # vllm/config/model.py:2654-2683 (0.33.0): a longer value is accepted up to
    # config.json's model_max_length, or with the override variable
    mml = m.model_max_length()
    if want <= limit or (mml is not None and want <= mml) or _allowed(lc):
        return
    yield RULE.diag(
        name_span(lc, o),
        f"`{o.name}` {want} is above the model's limit {limit} ({f.max_len_key} in config.json)",
        help=f"lower it to at most {limit}"
        + (f", or export {allow}=1 if the model handles longer positions" if (allow := _override(lc)) else ""),
        notes=(f"from {m.config_path}",),
    )
