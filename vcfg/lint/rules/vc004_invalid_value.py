"""VC004 invalid-value: a value argparse would reject for the option's type."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic, Severity
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import problems, span

RULE = Rule(
    code="VC004",
    name="invalid-value",
    summary="a value the option's type does not accept",
    severity="error",
    why=(
        "Each option converts its value (int, float, human-readable ints such as 8k on "
        "the few options that allow them, JSON); a value that does not convert stops "
        "vLLM at once, and a missing value swallows the next option."
    ),
    when_vllm_fails="at parse time: vllm exits 2",
    example="vllm serve facebook/opt-125m --max-num-seqs 1k\n",
    use_instead="vllm serve facebook/opt-125m --max-num-seqs 1000\n",
)

#: argument problems this rule reports (vcfg.launch.args.ArgProblem codes)
CODES = ("invalid-value", "missing-value", "config-file", "config-equals")


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    broken = [x.span.line for x in lc.file.plan.problems if x.code in ("missing", "syntax")]
    for p in problems(lc, *CODES):
        if p.code == "missing-value" and any(line <= p.span.line for line in broken):
            continue  # VC000 explains it: an unterminated quote swallowed the value
        sev: Severity = "warning" if p.severity == "warning" else "error"
        yield RULE.diag(span(lc, p.span), p.message, severity=sev, help=_HELP.get(p.code))


_HELP = {
    "missing-value": "give the option a value",
    "config-equals": "write `--config FILE`: vLLM only expands the file when the option and the path are separate words",
}
