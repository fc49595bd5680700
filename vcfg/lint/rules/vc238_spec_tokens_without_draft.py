"""VC238 spec-tokens-without-draft: `num_speculative_tokens` with neither a method nor a
draft model."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._spec import OPERANDS, merged

VERSIONS = ">=0.13.0"

RULE = Rule(
    code="VC238",
    name="spec-tokens-without-draft",
    summary="`num_speculative_tokens` (or `--spec-tokens`) without a speculative method or draft model",
    severity="error",
    versions=VERSIONS,
    why=(
        "A token count alone does not say how to draft: with no `method` and no draft "
        "`model`, vLLM has no proposer to build (from 0.33 it takes the method to be "
        "`draft_model`, which needs a model) and refuses the speculative config."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --speculative-config '{\"num_speculative_tokens\": 3}'\n",
    use_instead=(
        "vllm serve Qwen/Qwen3-8B \\\n"
        '  --speculative-config \'{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}\'\n'
    ),
    sources=(
        "vllm@0.13.0:vllm/config/speculative.py:268",
        "vllm@0.33.0:vllm/config/speculative.py:1292",
    ),
)


def _violated(v: object) -> bool:
    spec = merged(v)
    return (
        spec is not None
        and spec.get("num_speculative_tokens") is not None
        and spec.get("model") is None
        and spec.get("method") is None
    )


ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=OPERANDS,
    violated=_violated,
    message="`num_speculative_tokens` without a speculative `method` or draft `model`",
    help='add "method" (e.g. "ngram" with "prompt_lookup_max") or a draft "model"',
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
