"""VC263 batched-tokens-below-derived-len: with chunked prefill off, a batch smaller than
the model length vLLM derives from config.json (no `--max-model-len` given)."""

from __future__ import annotations

from typing import Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import QWEN3_8B, Model, local_model, name_span, positive_int

VERSIONS = ">=0.11.2"  # as VC201: before, vLLM turned chunked prefill back on

#: the knowledge-pack settings (settings.toml, with vLLM's sources): RoPE types whose
#: length vLLM takes otherwise (``original_max_position_embeddings``) and model types it
#: does not scale; for them vcfg stays silent
LONGROPE = "derived-max-model-len.other-rope-types"
UNSCALED_MODEL_TYPES = "derived-max-model-len.unscaled-model-types"
#: files that change the derived length when present (tokenizer's model_max_length,
#: a sentence-transformers encoder's max_seq_length: config/model.py:2568-2572, 2622)
ENCODER_FILE = "sentence_bert_config.json"


RULE = Rule(
    code="VC263",
    name="batched-tokens-below-derived-len",
    summary="`--max-num-batched-tokens` below the model's own length with chunked prefill off",
    severity="error",
    versions=VERSIONS,
    why=(
        "Without chunked prefill a prompt is scheduled in one step, so vLLM refuses a step "
        "budget (`--max-num-batched-tokens`) below the model length. Without "
        "`--max-model-len` that length is the one vLLM derives from the model's "
        "config.json (`max_position_embeddings` and similar keys, times the RoPE scaling "
        "factor, capped by the tokenizer's `model_max_length`). VC201 checks a "
        "`--max-model-len` you wrote; this rule the derived one, when the model is a local "
        "directory or a Hugging Face cache snapshot with the files vLLM reads."
    ),
    when_vllm_fails="when the scheduler config is built, after the model's config is read",
    example="vllm serve ./qwen3-8b --no-enable-chunked-prefill --max-num-batched-tokens 8192\n",
    use_instead=(
        "vllm serve ./qwen3-8b --no-enable-chunked-prefill --max-num-batched-tokens 8192 --max-model-len 8192\n"
    ),
    example_files=(QWEN3_8B,),
    sources=(
        "vllm@0.11.2:vllm/config/scheduler.py:251",
        "vllm@0.33.0:vllm/config/scheduler.py:317",
        "vllm@0.33.0:vllm/config/model.py:2620",
    ),
)


def _tokenizer_cap(m: Model) -> tuple[bool, Optional[int]]:
    """(known, the tokenizer's model_max_length when it caps the length)."""
    from vcfg.bounded import json_loads
    from vcfg.fileio import MAX_BYTES, read_regular

    path = m.folder / "tokenizer_config.json"
    try:
        if not path.is_file():
            return (not m.cached), None  # a cache snapshot may lack it: unknown
        data = json_loads(read_regular(str(path))[:MAX_BYTES])
    except (OSError, ValueError, RecursionError):
        return False, None
    v = data.get("model_max_length") if isinstance(data, dict) else None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
        return True, None
    return True, int(v)


def derived_len(lc: LaunchContext, m: Model) -> Optional[tuple[int, str]]:
    """The max_model_len vLLM derives for an unset --max-model-len, and where it comes
    from, when vcfg can tell."""
    f = m.facts
    rope = f.rope_scaling or {}
    kb, version = lc.target.knowledge, lc.target.version
    other, unscaled = (kb.setting(n, version) for n in (LONGROPE, UNSCALED_MODEL_TYPES))
    if other is not None and rope.get("rope_type", rope.get("type")) in other.values:
        return None
    # vLLM matches these as part of the model type (``"gemma3" not in model_type``:
    # gemma3_text too)
    if unscaled is not None and isinstance(f.model_type, str) and any(u in f.model_type for u in unscaled.values):
        return None
    for dest in ("tokenizer", "disable_sliding_window"):
        o = option(lc, dest)
        if not o.known or (o.given and o.value not in (None, False, "")):
            return None
    if (m.folder / ENCODER_FILE).exists():
        return None
    known, cap = _tokenizer_cap(m)
    if not known:
        return None
    if cap is not None and cap < f.max_len:
        return cap, "model_max_length in tokenizer_config.json"
    return f.max_len, f"{f.max_len_key} in config.json"


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    cp = option(lc, "enable_chunked_prefill")
    if not cp.given or cp.value is not False:
        return
    bt = option(lc, "max_num_batched_tokens")
    budget = positive_int(bt)
    if budget is None or not bt.given:
        return
    ml = option(lc, "max_model_len")
    if ml.given or not ml.known:
        return  # VC201 judges a written --max-model-len (unknown: argv may hide one)
    m = local_model(lc)
    if m is None:
        return
    got = derived_len(lc, m)
    if got is None or budget >= got[0]:
        return
    length, source = got
    yield RULE.diag(
        name_span(lc, bt),
        f"`{bt.name}` {budget} is smaller than the model's length {length} ({source}) with chunked prefill off",
        help=f"raise it to at least {length}, give a smaller `--max-model-len`, or leave chunked prefill on",
        notes=(f"from {m.config_path}",),
    )
