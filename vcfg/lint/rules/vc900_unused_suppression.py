"""VC900 unused-suppression: a `# vcfg: disable=` comment that silenced nothing."""

from __future__ import annotations

from typing import Iterable, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.rule import Rule
from vcfg.lint.suppressions import Suppression

RULE = Rule(
    code="VC900",
    name="unused-suppression",
    summary="a suppression comment that silenced nothing",
    severity="warning",
    scope="suppressions",
    why=(
        "Suppressions outlive the problems they hid: once the script is fixed, a stale "
        "`# vcfg: disable=...` would silently hide the next real mistake on that line."
    ),
    example="vllm serve m --port 8001  # vcfg: disable=VC001\n",
    use_instead="vllm serve m --port 8001\n",
)


def check(sups: Iterable[Suppression]) -> Iterator[Diagnostic]:
    """The file's suppressions, each knowing which codes it silenced (``used``)."""
    for s in sups:
        codes = set(s.codes)
        unused = sorted(codes - s.used) if "all" not in codes else ([] if s.used else ["all"])
        if unused:
            yield RULE.diag(
                s.span,
                f"unused suppression of {', '.join(unused)}",
                help="remove the comment, or the codes it no longer needs",
            )
