"""Default values of config fields, folded statically (literals, constants across
modules, factories, enum members, arithmetic); anything else ``{"$dynamic": ...}``."""

from __future__ import annotations

import ast
import math
from typing import Any, Optional

from vcfg.catalog.extract.configs_tree import (
    _DICT_NAMES,
    _ENUM_BASES,
    _ENV_MODULE,
    _MAX_DEPTH,
    _STDLIB_CONSTANTS,
    _class_scope,
    _Classes,
    _decorators,
    _Dynamic,
    _Module,
    _Tree,
)
from vcfg.catalog.extract.pysource import (
    Unfoldable,
    binop,
    last_name,
)

# --------------------------------------------------------------------------- values


class _Values:
    def __init__(self, tree: _Tree, classes: "_Classes") -> None:
        self.tree = tree
        self.classes = classes

    def value(
        self,
        e: ast.expr,
        mod: _Module,
        scope: Optional[dict[str, ast.AST]],
        depth: int = 0,
    ) -> Any:
        if depth > _MAX_DEPTH:
            raise _Dynamic("too deep")
        d = depth + 1
        if isinstance(e, ast.Constant):
            v = e.value
            if isinstance(v, float) and (math.isinf(v) or math.isnan(v)):
                raise _Dynamic(repr(v))
            if isinstance(v, (bytes, complex)) or v is Ellipsis:
                raise _Dynamic(ast.unparse(e))
            return v
        if isinstance(e, ast.UnaryOp):
            v = self.value(e.operand, mod, scope, d)
            try:
                if isinstance(e.op, ast.USub):
                    return -v
                if isinstance(e.op, ast.UAdd):
                    return +v
                if isinstance(e.op, ast.Not):
                    return not v
            except TypeError:
                pass
            raise _Dynamic(ast.unparse(e))
        if isinstance(e, ast.BinOp):
            a = self.value(e.left, mod, scope, d)
            b = self.value(e.right, mod, scope, d)
            return _binop(e.op, a, b, e)
        if isinstance(e, (ast.Tuple, ast.List, ast.Set)):
            return [self.value(x, mod, scope, d) for x in e.elts]
        if isinstance(e, ast.Dict):
            out = {}
            for key_node, val_node in zip(e.keys, e.values):
                if key_node is None:
                    raise _Dynamic("dict unpacking")
                key = self.value(key_node, mod, scope, d)
                if not isinstance(key, (str, int, float, bool)) and key is not None:
                    raise _Dynamic("dict key")
                out[str(key) if not isinstance(key, str) else key] = self.value(val_node, mod, scope, d)
            return out
        if isinstance(e, ast.Name):
            if scope is not None and e.id in scope:
                node = scope[e.id]
                if isinstance(node, ast.expr):
                    return self.value(node, mod, None, d)
            return self._resolved(self.tree.lookup(mod, e.id), e, d)
        if isinstance(e, ast.Attribute):
            return self._attribute(e, mod, scope, d)
        if isinstance(e, ast.Call):
            if last_name(e.func) == "cast" and len(e.args) == 2:
                return self.value(e.args[1], mod, scope, d)
            cls = self._config_class(e.func, mod)
            if cls is not None:
                if e.args or e.keywords:
                    raise _Dynamic(f"call {cls}(...)")
                return {"$config": cls}
            fname = ast.unparse(e.func)
            if fname in ("float", "int", "str", "bool") and len(e.args) == 1 and not e.keywords:
                v = self.value(e.args[0], mod, scope, d)
                try:
                    res = {"float": float, "int": int, "str": str, "bool": bool}[fname](v)
                except (TypeError, ValueError) as err:
                    raise _Dynamic(f"call {fname}") from err
                if isinstance(res, float) and (math.isinf(res) or math.isnan(res)):
                    raise _Dynamic(f"{fname}({v!r})")
                return res
            raise _Dynamic(f"call {fname[:60]}")
        raise _Dynamic(ast.unparse(e)[:60])

    def _resolved(self, found: tuple[str, Any, Any], e: ast.expr, depth: int) -> Any:
        kind, where, node = found
        if kind == "value":
            if where.name == _ENV_MODULE:
                raise _Dynamic(f"env {last_name(e)}")
            return self.value(node, where, None, depth)
        raise _Dynamic(f"name {ast.unparse(e)[:60]}")

    def _attribute(self, e: ast.Attribute, mod: _Module, scope: Optional[dict[str, ast.AST]], depth: int) -> Any:
        if e.attr in ("value", "name") and isinstance(e.value, ast.Attribute):
            member = self.tree.lookup_expr(mod, e.value.value, depth)
            if member[0] == "class" and _is_enum(member[2]):
                if e.attr == "name":
                    return e.value.attr
                return self._attribute(e.value, mod, scope, depth + 1)
        base = self.tree.lookup_expr(mod, e.value, depth)
        if base[0] in ("module", "external"):
            const = f"{base[1].split('.')[-1]}.{e.attr}"
            if const in _STDLIB_CONSTANTS and base[1] == "ssl":
                return _STDLIB_CONSTANTS[const]
        if base[0] == "module" and base[1] == _ENV_MODULE:
            raise _Dynamic(f"env {e.attr}")
        if base[0] == "class":
            cmod, cdef = base[1], base[2]
            node = _class_scope(cdef).get(e.attr)
            if isinstance(node, ast.expr):
                if isinstance(node, ast.Call) and last_name(node.func) == "auto":
                    raise _Dynamic(f"enum {cdef.name}.{e.attr} = auto()")
                return self.value(node, cmod, _class_scope(cdef), depth)
            raise _Dynamic(f"attribute {ast.unparse(e)[:60]}")
        if base[0] == "module":
            target = self.tree.module(base[1])
            if target is not None:
                return self._resolved(self.tree.lookup(target, e.attr), e, depth)
        raise _Dynamic(f"attribute {ast.unparse(e)[:60]}")

    def _config_class(self, func: ast.expr, mod: _Module) -> Optional[str]:
        if not isinstance(func, (ast.Name, ast.Attribute)):
            return None
        kind, where, node = self.tree.lookup_expr(mod, func)
        if kind == "class" and _decorators(node).is_dataclass:
            self.classes.want(where, node)
            return node.name
        return None

    def factory(self, e: ast.expr, mod: _Module) -> Any:
        name = last_name(e) if isinstance(e, (ast.Name, ast.Attribute)) else ""
        if isinstance(e, ast.Name) and e.id in ("dict", "list", "set", "tuple", "frozenset"):
            return {} if e.id == "dict" else []
        cls = self._config_class(e, mod)
        if cls is not None:
            return {"$config": cls}
        if isinstance(e, (ast.Name, ast.Attribute)):
            kind, where, node = self.tree.lookup_expr(mod, e)
            if kind == "class" and _is_dict_subclass(self.tree, where, node):
                return {}
        if isinstance(e, ast.Lambda) and not e.args.args:
            try:
                return self.value(e.body, mod, None, 1)
            except _Dynamic as err:
                raise _Dynamic(f"factory lambda: {err}") from err
        if name in ("OrderedDict", "defaultdict", "Counter"):
            return {}
        raise _Dynamic(f"factory {ast.unparse(e)[:60]}")


def _is_dict_subclass(tree: _Tree, mod: _Module, cdef: ast.ClassDef, depth: int = 0) -> bool:
    """A subclass of dict that is not a TypedDict (arg_utils.py:198 @0.33)."""
    if depth > 8 or any(last_name(b) == "TypedDict" for b in cdef.bases):
        return False
    for b in cdef.bases:
        if last_name(b) in _DICT_NAMES:
            return True
        target = b.value if isinstance(b, ast.Subscript) else b
        kind, where, node = tree.lookup_expr(mod, target)
        if kind == "class" and node is not cdef:
            if _is_dict_subclass(tree, where, node, depth + 1):
                return True
    return False


def _is_enum(cdef: ast.ClassDef) -> bool:
    return any(last_name(b) in _ENUM_BASES for b in cdef.bases)


def _binop(op: ast.operator, a: Any, b: Any, e: ast.expr) -> Any:
    try:
        return binop(op, a, b)
    except (Unfoldable, TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise _Dynamic(ast.unparse(e)[:60]) from None
