"""VC102 invalid-env-value: a value vLLM cannot parse for that variable."""

from __future__ import annotations

from typing import Iterator

from vcfg.catalog.envparse import check_env_value
from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._env import is_serve, script_bindings

RULE = Rule(
    code="VC102",
    name="invalid-env-value",
    summary="a value vLLM cannot parse for the variable",
    severity="error",
    why=(
        "vLLM parses a variable when something first reads it, and reads every one at "
        "the end of engine start-up: a value like `true` for a variable parsed with "
        "`bool(int(...))`, or `10min` for an integer, aborts the server after the model "
        "has loaded, with an error that does not name the variable."
    ),
    when_vllm_fails="after the model loaded (the engine reads every variable at the end of start-up)",
    example="export VLLM_ENGINE_READY_TIMEOUT_S=10min\nvllm serve m\n",
    use_instead="export VLLM_ENGINE_READY_TIMEOUT_S=600\nvllm serve m\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc):
        return
    for b in script_bindings(lc):
        var = lc.catalog.env(b.name)
        if var is None or b.value is None or b.value.text is None:
            continue
        problem = check_env_value(var, b.value.text)
        if problem:
            span = b.value.span.for_finding(lc.path) if b.value.value else b.span.for_finding(lc.path)
            help = None
            if var.choices:
                help = "expected one of " + ", ".join(var.choices[:12])
            elif var.parse == "bool_int":
                help = "use 1 or 0"
            yield RULE.diag(span, f"`{b.name}`: {problem}", help=help)
