"""VC005 invalid-choice: a value outside the option's choices."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import problems, span, text_at
from vcfg.lint.rules._util import did_you_mean

RULE = Rule(
    code="VC005",
    name="invalid-choice",
    summary="a value outside the option's choices",
    severity="error",
    why="argparse checks choices before anything else starts; a typo stops vLLM at once.",
    when_vllm_fails="at parse time: vllm exits 2 with 'invalid choice'",
    example="vllm serve facebook/opt-125m --dtype bf16\n",
    use_instead="vllm serve facebook/opt-125m --dtype bfloat16\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    pa = lc.args
    for p in problems(lc, "invalid-choice"):
        help = None
        ov = pa.get(_dest(lc, p.option)) if p.option else None
        flag = ov.flag if ov is not None else lc.catalog.flag(p.option or "")
        if flag is not None and flag.choices:
            shown = [str(c) for c in flag.choices if c is not None and c != "None"]
            near = did_you_mean(text_at(lc, p.span).strip("'\""), shown, cutoff=0.6)
            help = (f"did you mean `{near[0]}`? " if near else "") + "expected one of " + ", ".join(shown[:20])
        yield RULE.diag(span(lc, p.span), p.message, help=help)


def _dest(lc: LaunchContext, option: str) -> str:
    f = lc.catalog.flag(option)
    return f.dest if f is not None else ""
