"""VC228 log-outputs-without-log-requests: output logging needs request logging."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.13.0"

RULE = Rule(
    code="VC228",
    name="log-outputs-without-log-requests",
    summary="`--enable-log-outputs` without `--enable-log-requests`",
    severity="error",
    versions=VERSIONS,
    why=(
        "Outputs are logged by the request logger, which only exists with "
        "`--enable-log-requests`; the serve command refuses the combination."
    ),
    when_vllm_fails="at start-up: the serve command's argument check, before the engine is built",
    example="vllm serve Qwen/Qwen3-8B --enable-log-outputs\n",
    use_instead="vllm serve Qwen/Qwen3-8B --enable-log-requests --enable-log-outputs\n",
)

# 0.33.0 entrypoints/common/cli_args.py:555; 0.13.0 entrypoints/openai/cli_args.py:294
ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("enable_log_outputs"),
        c.Operand("enable_log_requests", report=False),
    ),
    violated=lambda v: v.enable_log_outputs is True,
    unless=lambda v: bool(v.enable_log_requests),
    message="`{enable_log_outputs.name}` needs `--enable-log-requests`",
    help="add `--enable-log-requests`",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
