"""VC101 unknown-env-var: a VLLM_* variable the target release does not define."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._env import direct_reads, is_serve, near_miss, script_bindings
from vcfg.lint.rules._util import name_absent_since, name_present_after, name_span
from vcfg.lint.rules.vc232_environ_validation_fails import FLAG_DEST

RULE = Rule(
    code="VC101",
    name="unknown-env-var",
    summary="a VLLM_* variable the release does not define",
    severity="warning",
    why=(
        "vLLM reads only the variables listed in vllm/envs.py; a misspelt name is "
        "ignored, so the setting silently does not apply. Since 0.20 vLLM logs a warning "
        "for unknown VLLM_* names when the engine config is built; before, nothing. "
        "A VLLM_* name close to none that vLLM reads (a script's own `VLLM_PORT_BASE`) "
        "is taken for the script's variable and not reported."
    ),
    when_vllm_fails="never: the variable is ignored (a warning in the log since 0.20)",
    example="export VLLM_ENGINE_READY_TIMEOUT=1200\nvllm serve m\n",
    use_instead="export VLLM_ENGINE_READY_TIMEOUT_S=1200\nvllm serve m\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc) or _fails_on_environ(lc):
        return  # VC232 reports every unknown name as an error
    cat, target = lc.catalog, lc.target
    allowed = set(target.config.allowed_env) | set(direct_reads(target))
    for b in script_bindings(lc):
        name = b.name
        if not name.startswith("VLLM_") or cat.env(name) is not None or name in allowed:
            continue
        if target.knowledge.plugin_env(name) is not None:
            continue
        if target.knowledge.removed_env(name, target.version) is not None:
            continue  # VC103
        if name_absent_since(target, "env", name)[1]:
            continue  # VC103
        span = name_span(lc.file, b.span, name)
        later = name_present_after(target, "env", name)
        if later:
            yield RULE.diag(
                span,
                f"`{name}` does not exist in vllm {target.version}",
                help=f"it was added in {later}; this script targets {target.version}",
            )
            continue
        near = near_miss(lc, name)
        if not near:
            continue  # the script's own variable (VLLM_PORT_BASE): the prefix says nothing
        yield RULE.diag(
            span,
            f"unknown vLLM variable `{name}`",
            help=f"did you mean `{near[0]}`?",
        )


def _fails_on_environ(lc: LaunchContext) -> bool:
    from vcfg.lint.options import option

    return option(lc, FLAG_DEST).value is True
