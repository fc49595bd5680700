"""VC003 deprecated-flag: an option the release marks deprecated."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, span
from vcfg.lint.rules._util import first_present_after

RULE = Rule(
    code="VC003",
    name="deprecated-flag",
    summary="an option the release marks deprecated",
    severity="warning",
    why=(
        "A deprecated option still works but is removed a few releases later; the "
        "launch script then stops working on upgrade."
    ),
    when_vllm_fails="not yet: a deprecation warning in the log; a parse error once removed",
    example="vllm serve facebook/opt-125m --disable-log-requests\n",
    use_instead="vllm serve facebook/opt-125m\n",
    versions=">=0.10.2,<0.17",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    pa = parsed(lc)
    if pa is None:
        return
    for ov in pa.occurrences:
        f = ov.flag
        if f is None or not f.deprecated:
            continue
        gone = _removed_later(lc, f.long_name)
        yield RULE.diag(
            span(lc, ov.name_span),
            f"`{ov.written_name}` is deprecated in vllm {lc.target.version}",
            help=f"it is removed in {gone}" if gone else "it will be removed in a later release",
        )


def _removed_later(lc: LaunchContext, option: str):  # type: ignore[no-untyped-def]
    """The first bundled release after the target that no longer has ``option``."""
    return first_present_after(lc.target, lambda cat: cat.flag(option) is None)
