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

#: problems that are about vcfg's limits rather than the user's script (a Helm chart's
#: template is not YAML until rendered: its launches are checked in `helm template`'s output)
_INFO = {"too-deep", "limit", "template"}


def check(fc: FileContext) -> Iterator[Diagnostic]:
    problems = fc.plan.problems
    # Windows line endings are one mistake: the file's one finding names the continued
    # lines they end (each such `\` was a finding, and the next line another)
    ended = crlf_ended(fc)
    for p in problems:
        if p.code == "internal":
            continue  # a vcfg bug: an internal error with exit 2 (`vcfg.lint.engine`)
        message = p.message
        if ended:
            if p.code == "crlf-continuation" or (p.code == "split-command" and p.span.line - 1 in ended):
                continue
            if p.code == "crlf":
                message += f"; so {_lines(sorted(ended))} {'ends its' if len(ended) == 1 else 'end their'} command "
                message += "there, and the next line runs as a command of its own"
        sev: Severity = "info" if p.code in _INFO else "error"
        yield RULE.diag(p.span.for_finding(fc.path), message, severity=sev)
    if fc.truncated:
        yield RULE.diag(
            Span.point(fc.path, 1, 1), "file larger than 20 MiB: only its beginning was read", severity="warning"
        )


def crlf_ended(fc: FileContext) -> frozenset[int]:
    """The lines whose `\\` a Windows line ending keeps from continuing the command, in a
    file whose Windows line endings VC000 reports (else none)."""
    problems = fc.plan.problems
    if not any(p.code == "crlf" for p in problems):
        return frozenset()
    return frozenset(p.span.line for p in problems if p.code == "crlf-continuation")


def _lines(lines: list[int]) -> str:
    """``line 2``, ``lines 2 and 3``, ``lines 2, 3, 4, 5, 6 and 4 more``."""
    if len(lines) == 1:
        return f"line {lines[0]}"
    if len(lines) <= 6:
        return "lines " + ", ".join(str(n) for n in lines[:-1]) + f" and {lines[-1]}"
    return "lines " + ", ".join(str(n) for n in lines[:5]) + f" and {len(lines) - 5} more"
