"""The ``@field_validator``s of a config class, read statically: which fields have one
and what it does to a value before pydantic judges it (`ConfigField.validator`).

vcfg judges a config key's JSON value as pydantic would (vcfg/launch/args/lax.py); a
validator that runs first may change that.  Three shapes are recognised, each a few
lines in vLLM's source, and anything else is ``coerce`` (the value is not judged):

- ``none``: a ``mode="wrap"`` validator that returns ``None`` untouched and hands
  anything else to pydantic (``_skip_none_validation``, 0.33.0 config/compilation.py:
  218-236, config/kernel.py:438-449): every value but ``None`` is judged;
- ``lower-dash``: a ``mode="before"`` validator that turns text into
  ``value.lower().replace("-", "_")`` (0.33.0 config/kernel.py:399-418): text is judged
  after that;
- ``upper``: a ``mode="before"`` validator that returns ``value.upper()`` for text.
"""

from __future__ import annotations

import ast
from typing import Optional

#: the names of the shapes, in ConfigField.validator
NONE_PASSES = "none"
LOWER_DASH = "lower-dash"
UPPER = "upper"
COERCE = "coerce"


def _decorator(d: ast.expr) -> Optional[tuple[list[str], str]]:
    """(field names, mode) of a ``@field_validator(...)`` decorator."""
    if not isinstance(d, ast.Call):
        return None
    f = d.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    if name != "field_validator":
        return None
    names = [a.value for a in d.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    mode = "after"
    for kw in d.keywords:
        if kw.arg == "mode" and isinstance(kw.value, ast.Constant):
            mode = str(kw.value.value)
    return names, mode


def _body(fn: ast.FunctionDef) -> list[ast.stmt]:
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return body


def _is_name(e: ast.expr, name: str) -> bool:
    return isinstance(e, ast.Name) and e.id == name


def _returns(st: ast.stmt, name: str) -> bool:
    return isinstance(st, ast.Return) and st.value is not None and _is_name(st.value, name)


def _none_passes(fn: ast.FunctionDef, value: str, handler: str) -> bool:
    body = _body(fn)
    if len(body) != 2 or not isinstance(body[0], ast.If) or body[0].orelse:
        return False
    test = body[0].test
    if not (
        isinstance(test, ast.Compare)
        and _is_name(test.left, value)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return False
    if len(body[0].body) != 1 or not _returns(body[0].body[0], value):
        return False
    ret = body[1]
    return (
        isinstance(ret, ast.Return)
        and isinstance(ret.value, ast.Call)
        and _is_name(ret.value.func, handler)
        and len(ret.value.args) == 1
        and _is_name(ret.value.args[0], value)
    )


def _text_transform(fn: ast.FunctionDef, value: str) -> Optional[str]:
    """``if isinstance(value, str): return <value.lower().replace("-", "_") | value.upper()>;
    return value`` -> its shape name."""
    body = _body(fn)
    if len(body) != 2 or not isinstance(body[0], ast.If) or body[0].orelse or not _returns(body[1], value):
        return None
    test = body[0].test
    if not (
        isinstance(test, ast.Call)
        and _is_name(test.func, "isinstance")
        and len(test.args) == 2
        and _is_name(test.args[0], value)
        and _is_name(test.args[1], "str")
    ):
        return None
    if len(body[0].body) != 1 or not isinstance(body[0].body[0], ast.Return):
        return None
    r = body[0].body[0].value
    text = ast.unparse(r) if r is not None else ""
    if text == f"{value}.lower().replace('-', '_')":
        return LOWER_DASH
    if text == f"{value}.upper()":
        return UPPER
    return None


def _shape(fn: ast.FunctionDef, mode: str) -> str:
    params = [a.arg for a in fn.args.args if a.arg not in ("cls", "self")]
    if mode == "wrap" and len(params) >= 2 and _none_passes(fn, params[0], params[1]):
        return NONE_PASSES
    if mode == "before" and params:
        found = _text_transform(fn, params[0])
        if found:
            return found
    return COERCE


def class_validators(cdef: ast.ClassDef) -> dict[str, tuple[str, int]]:
    """Field name (or ``*``) -> (shape, line of the validator) for ``cdef``'s own
    ``@field_validator`` methods; ``mode="after"`` validators (they see a value pydantic
    has already accepted, and raise on their own terms) are left out.  A field with two
    validators of different shapes is ``coerce``."""
    out: dict[str, tuple[str, int]] = {}
    for st in cdef.body:
        if not isinstance(st, ast.FunctionDef):
            continue
        for d in st.decorator_list:
            found = _decorator(d)
            if found is None:
                continue
            names, mode = found
            if mode == "after":
                continue
            shape = _shape(st, mode)
            for n in names:
                prev = out.get(n)
                out[n] = (shape if prev is None or prev[0] == shape else COERCE, st.lineno)
    return out
