"""VC008 comma-joined-list: a list option given one comma-joined word."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, span

RULE = Rule(
    code="VC008",
    name="comma-joined-list",
    summary="a list option given as one comma-joined word",
    severity="warning",
    why=(
        "Options that take several values (nargs) expect them as separate words; "
        "`a,b` is one value containing a comma, which vLLM then treats as one name."
    ),
    when_vllm_fails="later, when the value is used (often as a name that does not exist)",
    example="vllm serve facebook/opt-125m --served-model-name opt,opt-125m\n",
    use_instead="vllm serve facebook/opt-125m --served-model-name opt opt-125m\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    pa = parsed(lc)
    if pa is None:
        return
    for ov in pa.occurrences:
        f = ov.flag
        if f is None or f.nargs not in ("+", "*") or ov.origin != "cli" or len(ov.words) != 1:
            continue
        text = ov.words[0].text
        if not text or "," not in text or text.startswith(("{", "[")):
            continue
        parts = [x for x in text.split(",") if x]
        if len(parts) < 2:
            continue
        yield RULE.diag(
            span(lc, ov.words[0].span),
            f"`{ov.written}` takes separate words; `{text}` is one value",
            help=f"write `{ov.written} {' '.join(parts)}`",
        )
