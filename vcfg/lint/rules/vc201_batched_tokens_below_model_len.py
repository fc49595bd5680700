"""VC201 batched-tokens-below-model-len: a batch smaller than one full-length prompt
while chunked prefill is off."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.11.2"

RULE = Rule(
    code="VC201",
    name="batched-tokens-below-model-len",
    summary="`--max-num-batched-tokens` below `--max-model-len` with chunked prefill off",
    severity="error",
    versions=VERSIONS,
    why=(
        "Without chunked prefill a prompt must be scheduled in one step, so one step's "
        "token budget caps the prompt length: vLLM refuses a budget smaller than "
        "`--max-model-len`. Before 0.11.2 vLLM turned chunked prefill back on for "
        "generative models, so the combination only became fatal then. When you leave "
        "`--max-num-batched-tokens` unset vLLM raises its default to the model length, so "
        "vcfg only checks values you wrote (and a `--max-model-len` you wrote: the model's "
        "own limit is not known before its config is read)."
    ),
    when_vllm_fails="when the scheduler config is built, before the model loads",
    example=(
        "vllm serve Qwen/Qwen3-8B --no-enable-chunked-prefill \\\n"
        "  --max-model-len 32768 --max-num-batched-tokens 8192\n"
    ),
    use_instead=(
        "vllm serve Qwen/Qwen3-8B --no-enable-chunked-prefill \\\n"
        "  --max-model-len 32768 --max-num-batched-tokens 32768\n"
    ),
)

# 0.33 config/scheduler.py:317-329 (0.11.2 config/scheduler.py:251); the user's value is
# kept as given (engine/arg_utils.py:3190 only adjusts an unset one).
ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("max_num_batched_tokens", given=True, convert=c.positive_int),
        c.Operand("max_model_len", given=True, convert=c.positive_int),
        c.Operand("enable_chunked_prefill", report=False),
    ),
    violated=lambda v: v.max_num_batched_tokens < v.max_model_len,
    unless=lambda v: v.enable_chunked_prefill is not False,
    message=(
        "`{max_num_batched_tokens.name}` {max_num_batched_tokens} is smaller than "
        "`{max_model_len.name}` {max_model_len} with chunked prefill off"
    ),
    help=(
        "raise `--max-num-batched-tokens` to at least {max_model_len}, lower "
        "`--max-model-len`, or leave chunked prefill on"
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
