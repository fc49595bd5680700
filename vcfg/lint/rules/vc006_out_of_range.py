"""VC006 out-of-range: a value outside the config field's bounds."""

from __future__ import annotations

from typing import Iterator

from vcfg.lint.context import LaunchContext
from vcfg.diagnostics import Diagnostic
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, span

RULE = Rule(
    code="VC006",
    name="out-of-range",
    summary="a value outside the bounds of the config field behind the option",
    severity="error",
    why=(
        "argparse only converts the type; the bounds declared on vLLM's config fields "
        "(for example gpu-memory-utilization in (0, 1], tensor-parallel-size >= 1) are "
        "checked later, when the engine config is built, after the model's config was "
        "fetched."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve facebook/opt-125m --gpu-memory-utilization 1.5\n",
    use_instead="vllm serve facebook/opt-125m --gpu-memory-utilization 0.9\n",
)

_OPS = (("gt", ">", lambda v, b: v > b), ("ge", ">=", lambda v, b: v >= b),
        ("lt", "<", lambda v, b: v < b), ("le", "<=", lambda v, b: v <= b))


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    pa = parsed(lc)
    if pa is None:
        return
    for ov in pa.options.values():
        f = ov.flag
        if f is None or not ov.known or not f.config_class or not f.config_field:
            continue
        v = ov.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        cls = lc.catalog.config(f.config_class)
        fld = cls.field(f.config_field) if cls is not None else None
        if fld is None or fld.constraint is None:
            continue
        c = fld.constraint
        broken = [(sym, bound) for key, sym, ok in _OPS
                  if (bound := getattr(c, key)) is not None and not ok(v, bound)]
        if broken:
            need = " and ".join(f"{sym} {_num(b)}" for sym, b in _bounds(c))
            yield RULE.diag(
                span(lc, ov.value_span or ov.span),
                f"`{f.long_name}` must be {need}, got {_num(v)}",
                help=f"{f.config_class}.{f.config_field} is declared with these bounds",
            )


def _bounds(c):  # type: ignore[no-untyped-def]
    return [(sym, getattr(c, key)) for key, sym, _ in _OPS if getattr(c, key) is not None]


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
