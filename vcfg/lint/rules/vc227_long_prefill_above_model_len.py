"""VC227 long-prefill-above-model-len: a long-prefill threshold longer than any prompt."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.13.0"

RULE = Rule(
    code="VC227",
    name="long-prefill-above-model-len",
    summary="`--long-prefill-token-threshold` above `--max-model-len`",
    severity="error",
    versions=VERSIONS,
    why=(
        "A prompt counts as long when it exceeds the threshold; a threshold above the "
        "model length could never be reached, and vLLM refuses it. From 0.27 the check "
        "always runs; before, only with `--max-num-partial-prefills` above 1 (vcfg "
        "checks releases before 0.27.1 only in that case)."
    ),
    when_vllm_fails="when the scheduler config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --max-model-len 8192 --long-prefill-token-threshold 16384\n",
    use_instead="vllm serve Qwen/Qwen3-8B --max-model-len 8192 --long-prefill-token-threshold 2048\n",
)


def _entry(versions: str, **kw) -> c.Constraint:  # type: ignore[no-untyped-def]
    return c.Constraint(
        code=RULE.code,
        versions=versions,
        operands=(
            c.Operand("long_prefill_token_threshold", given=True, convert=c.positive_int),
            c.Operand("max_model_len", given=True, convert=c.positive_int),
            c.Operand("max_num_partial_prefills", absent=1, report=False),
        ),
        violated=lambda v: v.long_prefill_token_threshold > v.max_model_len,
        message=(
            "`{long_prefill_token_threshold.name}` {long_prefill_token_threshold} is "
            "greater than `{max_model_len.name}` {max_model_len}"
        ),
        help="lower the threshold to at most {max_model_len}, or leave it unset",
        **kw,
    )


# 0.33.0 config/scheduler.py:355 and 0.27.1 scheduler.py:278, unconditional;
# 0.13.0 scheduler.py:286 and 0.20.2 scheduler.py:295 inside
# `if self.max_num_partial_prefills > 1`
ENTRIES = (
    _entry(">=0.27.1"),
    _entry(
        ">=0.13.0,<0.27.1",
        unless=lambda v: not (isinstance(v.max_num_partial_prefills, int) and v.max_num_partial_prefills > 1),
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for entry in ENTRIES:
        yield from c.check(RULE, entry, lc)
