"""VC000 parse-error: the file cannot be read the way bash (or YAML) reads it."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic, Severity, Span
from vcfg.lint.context import FileContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC000",
    name="parse-error",
    summary="the script cannot be parsed as the shell would parse it",
    severity="error",
    scope="file",
    why=(
        "A syntax error, an unterminated quote or a line of options that bash runs as a "
        "command of its own (a missing `\\` at the end of the line before it) means vLLM "
        "never receives the arguments the script seems to pass."
    ),
    when_vllm_fails="before vLLM starts: bash fails, or starts vLLM without the split-off options",
    example="vllm serve facebook/opt-125m\n  --port 8001\n",
    use_instead="vllm serve facebook/opt-125m \\\n  --port 8001\n",
)

#: problems that are about vcfg's limits rather than the user's script
_INFO = {"too-deep", "limit"}


def check(fc: FileContext) -> Iterator[Diagnostic]:
    for p in fc.plan.problems:
        if p.code == "internal":
            continue  # a vcfg bug: an internal error with exit 2 (`vcfg.lint.engine`)
        sev: Severity = "info" if p.code in _INFO else "error"
        yield RULE.diag(p.span.for_finding(fc.path), p.message, severity=sev)
    if fc.truncated:
        yield RULE.diag(
            Span.point(fc.path, 1, 1), "file larger than 20 MiB: only its beginning was read", severity="warning"
        )
