"""VC202 batched-tokens-below-num-seqs: a step's token budget smaller than its number of
sequences."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC202",
    name="batched-tokens-below-num-seqs",
    summary="`--max-num-batched-tokens` below `--max-num-seqs`",
    severity="error",
    why=(
        "Every running sequence needs at least one token of the step's budget, so vLLM "
        "refuses a budget smaller than the number of sequences. When only one of the two "
        "is set, vLLM picks the other from the GPU's memory class and keeps them "
        "consistent, so vcfg checks only launches that set both."
    ),
    when_vllm_fails="when the scheduler config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --max-num-seqs 512 --max-num-batched-tokens 256\n",
    use_instead="vllm serve Qwen/Qwen3-8B --max-num-seqs 512 --max-num-batched-tokens 2048\n",
)

# 0.33 config/scheduler.py:331-336 (0.10.0 config.py:2474); an unset max_num_seqs is
# clamped to the token budget (engine/arg_utils.py:3232), so only given values count.
ENTRY = c.Constraint(
    code=RULE.code,
    operands=(
        c.Operand("max_num_batched_tokens", given=True, convert=c.positive_int),
        c.Operand("max_num_seqs", given=True, convert=c.positive_int),
    ),
    violated=lambda v: v.max_num_batched_tokens < v.max_num_seqs,
    message=(
        "`{max_num_batched_tokens.name}` {max_num_batched_tokens} is smaller than `{max_num_seqs.name}` {max_num_seqs}"
    ),
    help="raise `--max-num-batched-tokens` to at least {max_num_seqs} or lower `--max-num-seqs`",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
