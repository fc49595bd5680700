"""VC009 flag-takes-no-value: a boolean option followed by a value."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.lint.context import LaunchContext
from vcfg.diagnostics import Diagnostic
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, problems, span

RULE = Rule(
    code="VC009",
    name="flag-takes-no-value",
    summary="a boolean option given a value",
    severity="error",
    why=(
        "Boolean options are switches: `--enable-prefix-caching` turns the feature on, "
        "`--no-enable-prefix-caching` off. A word after them (`false`, `True`) is not their "
        "value but a stray argument, which argparse rejects."
    ),
    when_vllm_fails="at parse time: vllm exits 2 with 'unrecognized arguments'",
    example="vllm serve facebook/opt-125m --enable-prefix-caching false\n",
    use_instead="vllm serve facebook/opt-125m --no-enable-prefix-caching\n",
)

_BOOL = ("boolean_optional", "enable_disable", "store_true", "store_false", "store_const")


def boolean_before(lc: LaunchContext, p: Any) -> Optional[Any]:
    """The boolean option occurrence written right before problem ``p``'s word."""
    pa = parsed(lc)
    if pa is None:
        return None
    before = [o for o in pa.occurrences
              if o.origin == "cli" and o.flag is not None and o.flag.action in _BOOL
              and (o.name_span.line, o.name_span.col) < (p.span.line, p.span.col)]
    if not before:
        return None
    o = max(before, key=lambda o: (o.name_span.line, o.name_span.col))
    # nothing else may stand between them
    between = [x for x in pa.occurrences
               if (o.name_span.line, o.name_span.col) < (x.name_span.line, x.name_span.col)
               < (p.span.line, p.span.col)]
    return None if between else o


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for p in problems(lc, "unexpected-value"):
        yield RULE.diag(span(lc, p.span), p.message, help=_help(p.option or ""))
    for p in problems(lc, "extra-argument"):
        o = boolean_before(lc, p)
        if o is None:
            continue
        flag = o.flag
        yield RULE.diag(
            span(lc, p.span),
            f"`{o.written}` takes no value",
            help=_help(flag.long_name),
        )


def _help(option: str) -> str:
    if option.startswith("--"):
        return f"write `{option}` to turn it on, or its `--no-` form to turn it off"
    return "boolean options take no value"
