"""Type hints of config fields, flattened for vcfg (`ConfigField.hints`, `type`):
aliases resolved across modules, unions and literals merged (see `configs`)."""

from __future__ import annotations

import ast
from typing import Any, Optional

from vcfg.catalog.extract.configs_tree import (
    _DICT_NAMES,
    _LIST_NAMES,
    _MAX_DEPTH,
    _NONE_NAMES,
    _PRIMS,
    _SET_NAMES,
    _TUPLE_NAMES,
    _TYPE_NAMES,
    _UNION,
    _UNWRAP,
    _Classes,
    _decorators,
    _Dynamic,
    _Module,
    _Tree,
)
from vcfg.catalog.extract.configs_values import _is_dict_subclass, _Values
from vcfg.catalog.extract.pysource import last_name
from vcfg.records import record

# --------------------------------------------------------------------------- types


@record(frozen=True)
class _M:
    """One member of a flattened annotation."""

    kind: str  # bool int float str None dict Literal list set tuple config class
    text: str
    name: str = ""  # config / class name
    values: tuple[Any, ...] = ()  # Literal values
    args: tuple[tuple["_M", ...], ...] = ()  # collection element unions
    ellipsis: bool = False

    def hint(self) -> str:
        if self.kind in ("bool", "int", "float", "str", "None", "dict", "Literal"):
            return self.kind
        if self.kind == "config":
            return self.name
        if self.kind == "class":
            return f"class:{self.name}"
        return self._collection()

    def inner(self) -> str:
        if self.kind == "Literal":
            return _literal_text(self.values)
        return self.hint()

    def _collection(self) -> str:
        parts = [_union_inner(a) for a in self.args]
        if self.kind == "tuple":
            if self.ellipsis:
                return f"tuple[{parts[0] if parts else 'class:Any'}, ...]"
            return f"tuple[{', '.join(parts)}]" if parts else "tuple[class:Any, ...]"
        return f"{self.kind}[{parts[0] if parts else 'class:Any'}]"


def _literal_text(values: tuple[Any, ...]) -> str:
    return "Literal[" + ", ".join(repr(v) for v in values) + "]"


def _merge_literals(members: list[_M]) -> list[_M]:
    """Fold all Literal members into one (at the place of the first), de-duplicated."""
    values: list[Any] = []
    first = -1
    out: list[_M] = []
    for m in members:
        if m.kind == "Literal":
            for v in m.values:
                if not any(v == w and type(v) is type(w) for w in values):
                    values.append(v)
            if first < 0:
                first = len(out)
                out.append(m)
        else:
            out.append(m)
    if first >= 0:
        vals = tuple(values)
        out[first] = _M("Literal", _literal_text(vals), values=vals)
    # de-duplicate identical members
    seen: set[str] = set()
    uniq: list[_M] = []
    for m in out:
        key = m.kind + "|" + m.text
        if key not in seen:
            seen.add(key)
            uniq.append(m)
    return uniq


def _union_inner(members: tuple[_M, ...]) -> str:
    return " | ".join(m.inner() for m in members)


def _union_text(members: list[_M] | tuple[_M, ...]) -> str:
    return " | ".join(m.text for m in members)


class _Types:
    """Turns annotation expressions into `_M` members."""

    def __init__(self, tree: _Tree, dataclass_names: "_Classes") -> None:
        self.tree = tree
        self.classes = dataclass_names

    def members(self, expr: Optional[ast.expr], mod: _Module, depth: int = 0) -> list[_M]:
        if expr is None:
            return [_M("class", "Any", name="Any")]
        if depth > _MAX_DEPTH:
            return [_M("class", ast.unparse(expr), name=last_name(expr) or "?")]
        d = depth + 1
        if isinstance(expr, ast.Constant):
            if expr.value is None:
                return [_M("None", "None")]
            if isinstance(expr.value, str):  # forward reference
                if depth > 0:
                    # Inside Optional[...]/Union[...]/list[...] a quoted name stays a
                    # typing.ForwardRef in the dataclass field's type at run time, so
                    # vLLM's _compute_kwargs sees a non-builtin class, not a dataclass
                    # (``Optional[Union[dict, "PoolerConfig"]]``, config.py:396 @0.10).
                    name = expr.value.strip()
                    return [_M("class", name, name=name)]
                try:
                    inner = ast.parse(expr.value, mode="eval").body
                except SyntaxError:
                    return [_M("class", expr.value, name=expr.value)]
                return self.members(inner, mod, d)
            if expr.value is Ellipsis:
                return [_M("class", "...", name="Ellipsis")]
            return [_M("class", repr(expr.value), name=type(expr.value).__name__)]
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
            left, right = self.members(expr.left, mod, d), self.members(expr.right, mod, d)
            return _merge_literals(left + right)
        if isinstance(expr, (ast.Name, ast.Attribute)):
            return self._named(expr, mod, d)
        if isinstance(expr, ast.Subscript):
            return self._subscript(expr, mod, d)
        if isinstance(expr, ast.Call) and last_name(expr.func) == "TypeAliasType":
            if len(expr.args) >= 2:
                return self.members(expr.args[1], mod, d)
        text = ast.unparse(expr)
        return [_M("class", text, name=last_name(expr) or text)]

    # -- names
    def _named(self, expr: ast.expr, mod: _Module, depth: int) -> list[_M]:
        name = last_name(expr)
        if name in _NONE_NAMES:
            return [_M("None", "None")]
        if name in _PRIMS and isinstance(expr, ast.Name):
            return [_M(_PRIMS[name], name)]
        if name in _DICT_NAMES:
            return [_M("dict", name)]
        if name in _LIST_NAMES:
            return [_M("list", "list")]
        if name in _SET_NAMES:
            return [_M("set", "set")]
        if name in _TUPLE_NAMES:
            return [_M("tuple", "tuple", ellipsis=True)]
        if name in _TYPE_NAMES:
            return [_M("class", name, name="type")]
        if name == "Any":
            return [_M("class", "Any", name="Any")]
        if name == "Callable":
            return [_M("class", "Callable", name="Callable")]
        found = self.tree.lookup_expr(mod, expr, depth)
        kind, where, node = found
        if kind == "class":
            return [self._class_member(where, node)]
        if kind == "value":
            return self._alias(where, node, depth)
        return [_M("class", name, name=name)]

    def _alias(self, mod: _Module, value: ast.AST, depth: int) -> list[_M]:
        if not isinstance(value, ast.expr):
            return [_M("class", "?", name="?")]
        if isinstance(value, ast.Call):
            fname = last_name(value.func)
            if fname == "TypeAliasType" and len(value.args) >= 2:
                return self.members(value.args[1], mod, depth + 1)
            if fname == "NewType" and len(value.args) >= 2:
                return self.members(value.args[1], mod, depth + 1)
            if fname == "TypeVar":
                first = value.args[0] if value.args else None
                name = str(first.value) if isinstance(first, ast.Constant) else "TypeVar"
                return [_M("class", name, name=name)]
        return self.members(value, mod, depth + 1)

    def _class_member(self, mod: _Module, cdef: ast.ClassDef) -> _M:
        if _decorators(cdef).is_dataclass:
            self.classes.want(mod, cdef)
            return _M("config", cdef.name, name=cdef.name)
        if _is_dict_subclass(self.tree, mod, cdef):
            return _M("dict", cdef.name)
        return _M("class", cdef.name, name=cdef.name)

    # -- subscripts
    def _subscript(self, expr: ast.Subscript, mod: _Module, depth: int) -> list[_M]:
        name = last_name(expr.value)
        sl = expr.slice
        elts = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
        if name in _UNWRAP:
            return self.members(elts[0], mod, depth)
        if name == "Optional":
            return _merge_literals(self.members(elts[0], mod, depth) + [_M("None", "None")])
        if name in _UNION:
            out: list[_M] = []
            for e in elts:
                out += self.members(e, mod, depth)
            return _merge_literals(out)
        if name in ("InitVar", "ClassVar"):
            return self.members(elts[0], mod, depth)
        if name == "Literal":
            vals: list[Any] = []
            for e in elts:
                vals += self._literal_values(e, mod, depth)
            return _merge_literals([_M("Literal", "", values=tuple(vals))])
        if name in _DICT_NAMES:
            return [_M("dict", ast.unparse(expr))]
        if name in _LIST_NAMES or name in _SET_NAMES:
            elem = tuple(_merge_literals(self.members(elts[0], mod, depth)))
            kind = "list" if name in _LIST_NAMES else "set"
            return [_M(kind, f"{kind}[{_union_text(elem)}]", args=(elem,))]
        if name in _TUPLE_NAMES:
            if len(elts) == 2 and isinstance(elts[1], ast.Constant) and elts[1].value is Ellipsis:
                elem = tuple(_merge_literals(self.members(elts[0], mod, depth)))
                text = f"tuple[{_union_text(elem)}, ...]"
                return [_M("tuple", text, args=(elem,), ellipsis=True)]
            args = tuple(tuple(_merge_literals(self.members(e, mod, depth))) for e in elts)
            text = "tuple[" + ", ".join(_union_text(a) for a in args) + "]"
            return [_M("tuple", text, args=args)]
        if name in _TYPE_NAMES:
            return [_M("class", f"type[{ast.unparse(sl)}]", name="type")]
        if name == "Callable":
            return [_M("class", ast.unparse(expr), name="Callable")]
        # a generic class: resolve its origin
        base = self._named(expr.value, mod, depth)
        if len(base) == 1 and base[0].kind in ("class", "config", "dict"):
            b = base[0]
            return [_M(b.kind, ast.unparse(expr), name=b.name)]
        return base

    def _literal_values(self, e: ast.expr, mod: _Module, depth: int) -> list[Any]:
        if depth > _MAX_DEPTH:
            return []
        if isinstance(e, ast.Constant):
            return [e.value]
        if (
            isinstance(e, ast.UnaryOp)
            and isinstance(e.op, ast.USub)
            and isinstance(e.operand, ast.Constant)
            and isinstance(e.operand.value, (int, float))
        ):
            return [-e.operand.value]
        if isinstance(e, ast.Subscript) and last_name(e.value) == "Literal":
            sl = e.slice
            out: list[Any] = []
            for x in sl.elts if isinstance(sl, ast.Tuple) else [sl]:
                out += self._literal_values(x, mod, depth + 1)
            return out
        if isinstance(e, (ast.Name, ast.Attribute)):
            members = self._named(e, mod, depth + 1)
            out = []
            for m in members:
                if m.kind == "Literal":
                    out += list(m.values)
            if out:
                return out
            try:
                return [_Values(self.tree, self.classes).value(e, mod, None, depth + 1)]
            except _Dynamic:
                return []
        return []
