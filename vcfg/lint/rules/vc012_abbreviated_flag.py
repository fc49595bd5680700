"""VC012 abbreviated-flag: an option written as an unambiguous prefix."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._args import problems, span
from vcfg.lint.rules._fix import replace, text_of
from vcfg.lint.rules._flags import removed_at

RULE = Rule(
    code="VC012",
    name="abbreviated-flag",
    summary="an option abbreviated to a prefix",
    severity="warning",
    why=(
        "argparse accepts any unambiguous prefix of an option, so `--max-num-seq` works "
        "today; the day a release adds another option with that prefix, the launch fails "
        "as ambiguous, or the abbreviation may be a typo that happens to match."
    ),
    when_vllm_fails="at parse time, on the release that makes the prefix ambiguous",
    example="vllm serve facebook/opt-125m --max-num-seq 64\n",
    use_instead="vllm serve facebook/opt-125m --max-num-seqs 64\n",
    fixes=(
        FixInfo(
            "safe",
            "the abbreviation is written in full (the option vLLM's parser picks today); a "
            "removed option's word is VC002's, never rewritten into the option it abbreviates",
        ),
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    removed = removed_at(lc)  # a removed option's word is VC002's: never "fixed" into another option
    for p in problems(lc, "abbreviation"):
        if (p.span.start, p.span.end) in removed:
            continue
        written = text_of(lc, p.span)
        fx = None
        if p.option and written and written.startswith("--") and "=" not in written:
            fx = replace(lc, p.span, p.option, "safe", f"write `{p.option}`")
        yield RULE.diag(span(lc, p.span), p.message, help=f"write `{p.option}` in full" if p.option else None, fix=fx)
