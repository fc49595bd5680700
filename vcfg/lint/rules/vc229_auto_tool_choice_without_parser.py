"""VC229 auto-tool-choice-without-parser: automatic tool choice needs a tool-call parser."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.13.0"

RULE = Rule(
    code="VC229",
    name="auto-tool-choice-without-parser",
    summary="`--enable-auto-tool-choice` without `--tool-call-parser`",
    severity="error",
    versions=VERSIONS,
    why=(
        "Automatic tool choice reads the model's tool calls with a tool-call parser; "
        "without `--tool-call-parser` the serve command refuses to start."
    ),
    when_vllm_fails="at start-up: the serve command's argument check, before the engine is built",
    example="vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice\n",
    use_instead="vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice --tool-call-parser hermes\n",
)

# 0.33.0 entrypoints/common/cli_args.py:553; 0.13.0 entrypoints/openai/cli_args.py:292
ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("enable_auto_tool_choice"),
        c.Operand("tool_call_parser", report=False),
    ),
    violated=lambda v: v.enable_auto_tool_choice is True,
    unless=lambda v: bool(v.tool_call_parser),
    message="`{enable_auto_tool_choice.name}` needs `--tool-call-parser`",
    help="add `--tool-call-parser` with the parser for the model's tool-call format",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
