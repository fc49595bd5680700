"""VC242 negative-sse-keep-alive: a negative `--sse-keep-alive-interval`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.33.0"

RULE = Rule(
    code="VC242",
    name="negative-sse-keep-alive",
    summary="a negative `--sse-keep-alive-interval`",
    severity="error",
    versions=VERSIONS,
    why=(
        "The interval between keep-alive comments on a streaming response is a number of "
        "seconds, 0 to turn them off; the serve command refuses a negative one before the "
        "server starts. The option has no config field whose bounds say so: the check is "
        "the serve command's own."
    ),
    when_vllm_fails="when the serve command checks its arguments, before the engine is built",
    example="vllm serve Qwen/Qwen3-8B --sse-keep-alive-interval -1\n",
    use_instead="vllm serve Qwen/Qwen3-8B --sse-keep-alive-interval 0\n",
    sources=("vllm@0.33.0:vllm/entrypoints/common/cli_args.py:559",),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(c.Operand("sse_keep_alive_interval", given=True),),
    violated=lambda v: not isinstance(v.sse_keep_alive_interval, bool) and v.sse_keep_alive_interval < 0,
    message="`{sse_keep_alive_interval.name}` must be 0 or more, got {sse_keep_alive_interval}",
    help="use a number of seconds, or 0 to send no keep-alive comments",
    schema={"minimum": 0},
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
