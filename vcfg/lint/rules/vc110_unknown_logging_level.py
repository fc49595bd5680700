"""VC110 unknown-logging-level: a VLLM_LOGGING_LEVEL that is not a logging level."""

from __future__ import annotations

from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.13.0"

RULE = Rule(
    code="VC110",
    name="unknown-logging-level",
    summary="`VLLM_LOGGING_LEVEL` is not one of Python's logging level names",
    severity="error",
    versions=VERSIONS,
    why=(
        "vLLM upper-cases VLLM_LOGGING_LEVEL and hands it to `logging.config.dictConfig` "
        "when it configures its logger, which refuses a name Python's logging does not "
        "know (numbers included): every vllm command then fails while importing vllm. "
        "With VLLM_CONFIGURE_LOGGING=0 the level is not used and vcfg stays silent."
    ),
    when_vllm_fails="at import, before the arguments are parsed",
    example="VLLM_LOGGING_LEVEL=LOUD vllm serve Qwen/Qwen3-8B\n",
    use_instead="VLLM_LOGGING_LEVEL=DEBUG vllm serve Qwen/Qwen3-8B\n",
)

#: the names ``logging._checkLevel`` accepts (Python's logging module, 3.9-3.13)
LEVELS = ("CRITICAL", "FATAL", "ERROR", "WARN", "WARNING", "INFO", "DEBUG", "NOTSET")


def _upper(text: Any) -> Any:
    return text.upper() if isinstance(text, str) else c.UNKNOWN


# 0.33.0 envs.py:861 (.upper()) and logger.py:207-277 (dictConfig); 0.13.0 envs.py:642,
# logger.py:158-203
ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(c.Operand("env:VLLM_LOGGING_LEVEL", convert=_upper),),
    violated=lambda v: v.VLLM_LOGGING_LEVEL not in LEVELS,
    message="`VLLM_LOGGING_LEVEL={VLLM_LOGGING_LEVEL}` is not a logging level",
    help="use one of DEBUG, INFO, WARNING, ERROR, CRITICAL (any case)",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    off = c.script_binding(lc, "VLLM_CONFIGURE_LOGGING")
    if off is not None and (off.unset or off.value is None or off.value.text != "1"):
        return  # not the default: the level may go unused (or vcfg cannot tell)
    yield from c.check(RULE, ENTRY, lc)
