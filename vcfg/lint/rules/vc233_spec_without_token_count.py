"""VC233 spec-without-token-count: a speculative config with neither
`num_speculative_tokens` nor a draft `model` to read it from."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._spec import OPERANDS, merged

VERSIONS = ">=0.13.0"

#: the one method that sets the count itself when none is given (its tree depth:
#: 0.13.0 config/speculative.py:473, 0.33.0 :1735)
SELF_COUNTING = ("suffix",)

RULE = Rule(
    code="VC233",
    name="spec-without-token-count",
    summary="a speculative config without `num_speculative_tokens` and without a draft `model`",
    severity="error",
    versions=VERSIONS,
    why=(
        "vLLM needs to know how many tokens to draft per step. Without "
        "`num_speculative_tokens` it takes the draft model's `n_predict`, which it can only "
        "read from a draft `model` named in the config; with no model (an `ngram` or `mtp` "
        "method, or `--spec-method` alone) there is nothing to read it from and the "
        "speculative config is refused. Only `suffix` decoding picks a count itself. A "
        "misspelt key (`num_speculative_token`) has the same effect where vLLM drops unknown "
        "keys (before 0.16)."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example=('vllm serve Qwen/Qwen3-8B \\\n  --speculative-config \'{"method": "ngram", "prompt_lookup_max": 4}\'\n'),
    use_instead=(
        "vllm serve Qwen/Qwen3-8B \\\n"
        '  --speculative-config \'{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}\'\n'
    ),
    sources=(
        "vllm@0.13.0:vllm/config/speculative.py:596",
        "vllm@0.33.0:vllm/config/speculative.py:1946",
    ),
)


def _violated(v: object) -> bool:
    spec = merged(v)
    return (
        spec is not None
        and spec.get("num_speculative_tokens") is None
        and spec.get("model") is None
        and spec.get("method") not in SELF_COUNTING
    )


ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=OPERANDS,
    violated=_violated,
    message="the speculative config gives no `num_speculative_tokens` and no draft `model` to read it from",
    help='add "num_speculative_tokens" (or `--spec-tokens N`)',
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
