"""VC006 out-of-range: a value outside the config field's bounds."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Severity
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, span
from vcfg.lint.rules._config_json import config_objects, judged_field, value_span

RULE = Rule(
    code="VC006",
    name="out-of-range",
    summary="a value outside the bounds of the config field behind the option",
    severity="error",
    why=(
        "argparse only converts the type; the bounds declared on vLLM's config fields "
        "(for example gpu-memory-utilization in (0, 1], tensor-parallel-size >= 1) are "
        "checked later, when the engine config is built, after the model's config was "
        "fetched. Numbers inside a JSON-valued option (`--speculative-config`, "
        "`--compilation-config`, ...) are held to the same bounds of their config class."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve facebook/opt-125m --gpu-memory-utilization 1.5\n",
    use_instead="vllm serve facebook/opt-125m --gpu-memory-utilization 0.9\n",
)

_OPS = (
    ("gt", ">", lambda v, b: v > b),
    ("ge", ">=", lambda v, b: v >= b),
    ("lt", "<", lambda v, b: v < b),
    ("le", "<=", lambda v, b: v <= b),
)


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
        need = _violated(fld.constraint, v)
        if not need:
            continue
        severity, notes = _built(lc, cls)
        if severity is None:
            continue
        yield RULE.diag(
            span(lc, ov.value_span or ov.span),
            f"`{f.long_name}` must be {need}, got {_num(v)}",
            help=f"{f.config_class}.{f.config_field} is declared with these bounds",
            notes=notes,
            severity=severity,
        )
    # the same bounds on the keys of JSON-valued options (one walk: VC022-VC025's)
    for obj in config_objects(lc):
        for key, v in obj.value.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            fld = judged_field(obj.cls, key)
            if fld is None or fld.constraint is None:
                continue
            need = _violated(fld.constraint, v)
            if need:
                yield RULE.diag(
                    value_span(lc, obj, key),
                    f"`{key}` in {obj.where} must be {need}, got {_num(v)}",
                    help=f"{obj.cls.name}.{key} is declared with these bounds at {fld.loc}",
                )


def _built(lc: LaunchContext, cls: Any) -> tuple[Optional[Severity], tuple[str, ...]]:
    """(severity, notes) of a bound on a field of ``cls``, which vLLM may build only on a
    condition (``ConfigClass.built_when``): None when the condition is known not to
    hold (LoRAConfig without --enable-lora: the value is never checked), a warning when
    vcfg cannot tell (MultiModalConfig: only for a multimodal model)."""
    when = getattr(cls, "built_when", None)
    if not when:
        return "error", ()
    kind, _, what = when.partition(":")
    if kind == "option":
        on = option(lc, what).value
        if on is True:
            return "error", ()
        if on is False or on is None:
            return None, ()
        return "warning", (f"vllm builds {cls.name} only with `--{what.replace('_', '-')}` ({cls.built_when_loc})",)
    if kind == "model":
        return "warning", (f"vllm builds {cls.name} only for a {what} model ({cls.built_when_loc})",)
    return "error", ()


def _violated(c, v):  # type: ignore[no-untyped-def]
    """The bounds text when ``v`` breaks one of them, else None."""
    if c is None:
        return None
    if any((bound := getattr(c, key)) is not None and not ok(v, bound) for key, _, ok in _OPS):
        return " and ".join(f"{sym} {_num(b)}" for sym, b in _bounds(c))
    return None


def _bounds(c):  # type: ignore[no-untyped-def]
    return [(sym, getattr(c, key)) for key, sym, _ in _OPS if getattr(c, key) is not None]


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
