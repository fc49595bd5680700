"""VC103 removed-env-var: a variable an earlier release had and the target removed."""

from __future__ import annotations

from typing import Iterator

from vcfg.lint.context import LaunchContext
from vcfg.diagnostics import Diagnostic
from vcfg.lint.rule import Rule
from vcfg.lint.rules._env import is_serve, script_bindings
from vcfg.lint.rules._util import first_absent_since, name_span

RULE = Rule(
    code="VC103",
    name="removed-env-var",
    summary="a variable the target release no longer reads",
    severity="warning",
    why=(
        "Releases drop variables regularly; a launch script written for an older vLLM "
        "keeps setting them and the setting silently stops applying (for example "
        "VLLM_RPC_TIMEOUT, removed in 0.23)."
    ),
    when_vllm_fails="never: the variable is ignored (a warning in the log since 0.20)",
    example="export VLLM_RPC_TIMEOUT=600000\nvllm serve m\n",
    use_instead="vllm serve m\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc):
        return
    target = lc.target
    for b in script_bindings(lc):
        name = b.name
        if lc.catalog.env(name) is not None:
            continue
        entry = target.knowledge.removed_env(name, target.version)
        last, removed = first_absent_since(target, lambda c: c.env(name) is not None)
        if entry is None and removed is None:
            continue
        when = removed or getattr(entry, "removed_in", None)
        message = f"`{name}` was removed in vllm {when}" if when else f"`{name}` was removed"
        help = None
        if entry is not None and getattr(entry, "replacement", None):
            help = f"use {entry.replacement_text()} instead"
        elif entry is not None and getattr(entry, "note", None):
            help = entry.note
        else:
            help = f"vllm {target.version} ignores it; remove it"
        yield RULE.diag(name_span(lc.file, b.span, name), message, help=help)
