"""Where the value of a hand-written ``vllm serve`` option goes: the config class field
``EngineArgs.create_engine_config`` passes it to.

Most options are generated from a config field (``**parallel_kwargs["x"]``) and carry
their class and field from there (`flags.py`).  A few are written by hand
(``parser.add_argument("--shutdown-timeout", type=int, ...)``) and reach a field only
through the engine config's constructor calls: ``VllmConfig(...,
shutdown_timeout=self.shutdown_timeout)`` (0.33.0 engine/arg_utils.py:2915),
``ParallelConfig(..., data_parallel_rpc_port=data_parallel_rpc_port)`` (:2584, a local
computed from ``self.data_parallel_rpc_port``).  This reads those calls, so the field's
declared bounds (VC006) and the serve schema apply to the option too.

A keyword counts only when it passes the option's own value under the field's own
name: ``self.<name>``, or a local ``<name>`` that some assignment in the function
computes from ``self.<name>``; anything else (``self.x or 0``, another name) is left
out.
"""

from __future__ import annotations

import ast
from typing import Iterable, Optional

ARG_UTILS = "vllm/engine/arg_utils.py"
ENGINE_ARGS = "EngineArgs"
BUILDER = "create_engine_config"


def _self_attr(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == name
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _builder(tree: ast.Module) -> Optional[ast.FunctionDef]:
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and cls.name == ENGINE_ARGS:
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef) and fn.name == BUILDER:
                    return fn
    return None


def _locals_from_self(fn: ast.FunctionDef) -> set[str]:
    """Local names some assignment computes from ``self.<the same name>``."""
    out: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if any(_self_attr(sub, name) for sub in ast.walk(node.value)):
                out.add(name)
    return out


def passed_fields(text: str, classes: Iterable[str]) -> dict[str, tuple[str, int]]:
    """``{name: (config class, line)}`` for every keyword ``name=`` of a call to one of
    ``classes`` in ``EngineArgs.create_engine_config`` that passes the option's own
    value (see the module docstring); empty when the function is not found."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    fn = _builder(tree)
    if fn is None:
        return {}
    names = set(classes)
    from_self = _locals_from_self(fn)
    out: dict[str, tuple[str, int]] = {}
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names):
            continue
        for kw in node.keywords:
            if kw.arg is None:
                continue
            v = kw.value
            if _self_attr(v, kw.arg) or (isinstance(v, ast.Name) and v.id == kw.arg and kw.arg in from_self):
                out.setdefault(kw.arg, (node.func.id, kw.value.lineno))
    return out
