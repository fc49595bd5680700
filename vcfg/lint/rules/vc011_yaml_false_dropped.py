"""VC011 yaml-false-dropped: a `false` in a `--config` YAML that vLLM drops."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import problems, span

RULE = Rule(
    code="VC011",
    name="yaml-false-dropped",
    summary="a false value in a --config YAML file that vllm serve ignores",
    severity="warning",
    why=(
        "`vllm serve --config file.yaml` turns `key: true` into `--key`, but drops "
        "`key: false` instead of passing `--no-key`: the option keeps its default, which "
        "for options that default to on means the opposite of what the file says."
    ),
    when_vllm_fails="never: the option silently keeps its default",
    example_kind="yaml",
    example="enable-prefix-caching: false\n",
    use_instead="no-enable-prefix-caching: true\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for p in problems(lc, "yaml-false-dropped"):
        yield RULE.diag(span(lc, p.span), p.message, help="pass the `--no-` form on the command line instead")
