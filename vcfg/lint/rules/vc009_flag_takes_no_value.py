"""VC009 flag-takes-no-value: a boolean option followed by a value."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Fix
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._args import parsed, problems, span
from vcfg.lint.rules._fix import _edit_bytes, _path, delete_words, fix

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
    fixes=(
        FixInfo(
            "safe",
            "`--switch=true` or `--switch true` becomes `--switch`; `--switch=false` becomes its "
            "`--no-` form, or goes when the switch has none and is off by default",
        ),
    ),
)

TRUE = ("true", "1", "yes", "on")
FALSE = ("false", "0", "no", "off")

_BOOL = ("boolean_optional", "enable_disable", "store_true", "store_false", "store_const")


def boolean_before(lc: LaunchContext, p: Any) -> Optional[Any]:
    """The boolean option occurrence written right before problem ``p``'s word."""
    pa = parsed(lc)
    if pa is None:
        return None
    before = [
        o
        for o in pa.occurrences
        if o.origin == "cli"
        and o.flag is not None
        and o.flag.action in _BOOL
        and (o.name_span.line, o.name_span.col) < (p.span.line, p.span.col)
    ]
    if not before:
        return None
    o = max(before, key=lambda o: (o.name_span.line, o.name_span.col))
    # nothing else may stand between them
    between = [
        x
        for x in pa.occurrences
        if (o.name_span.line, o.name_span.col) < (x.name_span.line, x.name_span.col) < (p.span.line, p.span.col)
    ]
    return None if between else o


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for p in problems(lc, "unexpected-value"):
        yield RULE.diag(span(lc, p.span), p.message, help=_help(p.option or ""), fix=_joined_fix(lc, p))
    for p in problems(lc, "extra-argument"):
        o = boolean_before(lc, p)
        if o is None:
            continue
        flag = o.flag
        yield RULE.diag(
            span(lc, p.span),
            f"`{o.written}` takes no value",
            help=_help(flag.long_name),
            fix=_separate_fix(lc, p, o),
        )


def _word_at(lc: LaunchContext, at: int) -> Any:
    return next((w for w in lc.inv.args if w.span.start <= at < w.span.end), None)


def _switch_for(flag: Any, written: str, value: str) -> Optional[str]:
    """What ``written`` given ``value`` means as a bare switch ("" for nothing), or None."""
    v = value.strip().lower()
    if v in TRUE:
        return written
    if v not in FALSE:
        return None
    if flag.action == "store_true" and written == flag.long_name:
        return ""
    if written == flag.option_strings[0]:
        neg = "--no-" + written[2:]
        return neg if neg in flag.option_strings else None
    return None


def _joined_fix(lc: LaunchContext, p: Any) -> Optional[Fix]:
    """``--switch=value`` in one word."""
    w = _word_at(lc, p.span.start)
    pa = parsed(lc)
    o = next((x for x in pa.occurrences if x.name_span.start == (w.span.start if w else -1)), None) if pa else None
    if w is None or o is None or o.flag is None or not w.known or w.quoted or "=" not in w.value:
        return None
    written, _, value = w.value.partition("=")
    new = _switch_for(o.flag, written, value)
    if new is None or w.raw != w.value:
        return None
    if new == "":
        return fix([delete_words(lc, w.span, w.span)], "safe", f"remove `{w.value}` (off by default)")
    return fix([_edit_bytes(lc, _path(lc, w.span), w.span.start, w.span.end, new)], "safe", f"write `{new}`")


def _separate_fix(lc: LaunchContext, p: Any, o: Any) -> Optional[Fix]:
    """``--switch value`` in two words."""
    w = _word_at(lc, p.span.start)
    name = _word_at(lc, o.name_span.start)
    if w is None or name is None or not w.known or not name.known or name.raw != name.value:
        return None
    new = _switch_for(o.flag, name.value, w.value)
    if new is None:
        return None
    if new == name.value:
        return fix([delete_words(lc, w.span, w.span)], "safe", f"remove the stray `{w.value}`")
    if new == "":
        return fix([delete_words(lc, name.span, w.span)], "safe", f"remove `{name.value} {w.value}` (off by default)")
    return fix(
        [_edit_bytes(lc, _path(lc, name.span), name.span.start, name.span.end, new), delete_words(lc, w.span, w.span)],
        "safe",
        f"write `{new}`",
    )


def _help(option: str) -> str:
    if option.startswith("--"):
        return f"write `{option}` to turn it on, or its `--no-` form to turn it off"
    return "boolean options take no value"
