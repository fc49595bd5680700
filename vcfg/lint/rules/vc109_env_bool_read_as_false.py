"""VC109 env-bool-read-as-false: a yes-like value that vLLM reads as false."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._env import is_serve, script_bindings

RULE = Rule(
    code="VC109",
    name="env-bool-read-as-false",
    summary="a yes-like value that vLLM reads as false for that variable",
    severity="warning",
    why=(
        "Some boolean variables are read by comparing the text with a fixed word: one "
        "only accepts `1`, another only `true`. Any other value, `true` or `yes` "
        "included, silently means false, which for a variable that defaults to true turns "
        "the setting off."
    ),
    when_vllm_fails="never: the variable is silently read as false",
    example="export VLLM_USE_STANDALONE_COMPILE=true\nvllm serve facebook/opt-125m\n",
    use_instead="export VLLM_USE_STANDALONE_COMPILE=1\nvllm serve facebook/opt-125m\n",
)

#: values people write meaning "on"
_YES = {"1", "true", "yes", "on", "y", "t", "enable", "enabled"}


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc):
        return
    for b in script_bindings(lc):
        var = lc.catalog.env(b.name)
        if var is None or var.parse != "bool_word" or not var.truthy:
            continue
        if b.value is None or b.value.text is None:
            continue
        text = b.value.text.strip()
        if text.lower() in _YES and text.lower() not in var.truthy:
            accepted = " or ".join(f"`{t}`" for t in var.truthy)
            yield RULE.diag(
                b.value.span.for_finding(lc.path),
                f"`{b.name}={text}` is read as false: vllm {lc.target.version} only takes {accepted} as true",
                help=f"write `{b.name}={var.truthy[0]}`",
            )
