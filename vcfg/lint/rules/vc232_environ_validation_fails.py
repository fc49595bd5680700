"""VC232 environ-validation-fails: `--fail-on-environ-validation` with a VLLM_* variable
vLLM does not define."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._env import is_serve, near_miss, script_bindings
from vcfg.lint.rules._util import name_span

FLAG_DEST = "fail_on_environ_validation"

RULE = Rule(
    code="VC232",
    name="environ-validation-fails",
    summary="`--fail-on-environ-validation` with a VLLM_* variable the release does not define",
    severity="error",
    why=(
        "When the engine config is built, vLLM compares every `VLLM_*` variable of its "
        "environment with the names `vllm/envs.py` defines: an unknown one is a warning "
        "in the log, and with `--fail-on-environ-validation` an error that stops the "
        "server. Every name counts, the script's own `VLLM_*` variables and names vLLM "
        "reads outside `envs.py` included."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="export VLLM_ENGINE_READY_TIMEOUT=1200\nvllm serve m --fail-on-environ-validation\n",
    use_instead="export VLLM_ENGINE_READY_TIMEOUT_S=1200\nvllm serve m --fail-on-environ-validation\n",
    sources=(
        "vllm@0.20.2:vllm/envs.py:1828",
        "vllm@0.33.0:vllm/platforms/interface.py:1465",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2261",
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc) or option(lc, FLAG_DEST).value is not True:
        return
    cat, target = lc.catalog, lc.target
    for b in script_bindings(lc):
        name = b.name
        if not name.startswith("VLLM_") or cat.env(name) is not None:
            continue
        if target.knowledge.plugin_env(name) is not None:
            continue  # a platform plugin may validate its own variables
        near = near_miss(lc, name)
        yield RULE.diag(
            name_span(lc.file, b.span, name),
            f"`{name}` is not a vllm {target.version} variable, and `--fail-on-environ-validation` makes that an error",
            help=f"did you mean `{near[0]}`?" if near else "unset it, or drop `--fail-on-environ-validation`",
        )
