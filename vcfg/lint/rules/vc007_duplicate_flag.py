"""VC007 duplicate-flag: the same option given twice; the last one wins."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import problems, span

RULE = Rule(
    code="VC007",
    name="duplicate-flag",
    summary="an option given more than once",
    severity="warning",
    why=(
        "argparse keeps the last value of a repeated option (vLLM only logs a warning), "
        "and a dotted key such as `--kv-transfer-config.kv_role` given after a whole JSON "
        "value replaces that JSON, so the first value silently does not apply."
    ),
    when_vllm_fails="never: the last value wins silently",
    example="vllm serve facebook/opt-125m --port 8000 --max-num-seqs 64 --port 8001\n",
    use_instead="vllm serve facebook/opt-125m --max-num-seqs 64 --port 8001\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for p in problems(lc, "duplicate", "dotted-overrides"):
        yield RULE.diag(span(lc, p.span), p.message, help="keep one of them")
