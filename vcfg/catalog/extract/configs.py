"""vLLM's config dataclasses, read with `ast` (vLLM is never imported).

Which classes
-------------
* every class decorated ``@config`` under ``vllm/config/**`` (or the single file
  ``vllm/config.py`` of 0.10) and in the ``vllm/entrypoints`` modules;
  both decorator shapes are recognised: ``@config`` over ``@dataclass`` (<= 0.15,
  config/utils.py:22 @0.11) and a bare ``@config`` / ``@config(config=ConfigDict(...))``
  that is itself the pydantic dataclass (>= 0.16, config/utils.py:41-83 @0.33);
* the ``*FrontendArgs`` dataclasses of the entrypoints, whatever their decorator;
* plain dataclasses that a field of an included class refers to, and dataclass bases,
  so that `ConfigField.nested` and `ConfigClass.bases` always resolve.

`ConfigClass.fields` is the full dataclass field list: fields of dataclass bases
first (a redefinition keeps the base position), ``ClassVar`` excluded, ``InitVar``
included with ``init_var=True``, ``_private`` fields included.

Type vocabulary (the interface the flag extractor relies on)
------------------------------------------------------------
``ConfigField.hints`` holds the flattened members of the annotation after unwrapping
``Annotated[T, ...]``, ``SkipValidation[T]``, ``Optional``/``Union``/``X | Y`` and
``InitVar[T]`` (which sets ``init_var``), with type aliases resolved across modules.
Each member is rendered as one of:

* ``"bool" "int" "float" "str" "None"``;
* ``"dict"`` for ``dict[...]``/``Dict`` or a dict subclass (a TypedDict is
  ``"class:<Name>"``, as vLLM's ``is_dict_subclass`` excludes them);
* ``"Literal"``: then ``ConfigField.choices`` lists the literal values, flattened
  (nested ``Literal`` and aliases of ``Literal`` expanded), de-duplicated, in
  declaration order; ``"Literal"`` appears once however many literals the union holds;
* ``"list[<T>]" "set[<T>]" "tuple[<T>, ...]" "tuple[<T1>, <T2>]"``, where ``<T>`` is
  the element rendered the same way, except that a literal element is written
  ``Literal['a', 'b']`` and a union element ``int | str``;
* ``"<ClassName>"`` for a dataclass of the tree (``ConfigField.nested`` is set to the
  first such member);
* ``"class:<Name>"`` for any other class: Enums, Protocols, external classes,
  ``type[X]`` -> ``class:type``, ``Any`` -> ``class:Any``, ``Callable`` ->
  ``class:Callable``.

``ConfigField.type`` is the annotation as text, aliases resolved and wrappers removed
(``InitVar[...]`` kept).

Names are bound as Python binds them when vLLM runs, because that is what vLLM's
``_compute_kwargs`` sees: the ``else`` branch of ``if TYPE_CHECKING:`` wins
(``LoadFormats = str`` makes ``load_format`` a plain ``str``, config/load.py:16-21
@0.33), ``LazyLoader(..., "vllm.x")`` binds a module, and a quoted name *inside*
``Optional[...]``/``Union[...]`` stays a ``ForwardRef`` (rendered ``"class:<Name>"``,
never nested); a whole quoted annotation is resolved.  Checked field by field
(names, order, hints, choices, defaults, constraints, init/InitVar, extra, bases)
against the runtime dataclasses of all 27 releases 0.10.0-0.33.0.

Defaults (JSON values, see `vcfg.catalog.model`): literals; names of module or
``ClassVar`` constants resolved; ``field(...)``/pydantic ``Field(...)`` read for
``default``, ``default_factory``, ``init`` and ``gt/ge/lt/le`` (-> `Constraint`);
factories ``dict``/``list``/``set`` -> ``{}``/``[]``/``[]``; a dataclass factory ->
``{"$config": "Name"}``; Enum members -> their value; anything else
``{"$dynamic": "<reason>"}``.  No default at all -> ``required=True``.

``extra_forbid`` is True for the >= 0.16 ``@config`` (extra="forbid" unless its
``ConfigDict`` says otherwise) and for an explicit ``ConfigDict(extra="forbid")``.
"""

from __future__ import annotations

import ast
import math
from typing import Any, Iterator, Optional

from vcfg.catalog.model import ConfigClass, ConfigField, Constraint, Loc
from vcfg.catalog.extract.pysource import import_target, last_name, type_checking
from vcfg.catalog.extract.source import VllmSource
from vcfg.records import dump
from vcfg.records import field, record

_MAX_DEPTH = 25
_ENTRYPOINTS = "vllm/entrypoints"
_FRONTEND_SUFFIX = "FrontendArgs"

_UNWRAP = {"Annotated", "SkipValidation", "Required", "NotRequired", "Final", "ReadOnly"}
_UNION = {"Union", "UnionType"}
_PRIMS = {"bool": "bool", "int": "int", "float": "float", "str": "str"}
_NONE_NAMES = {"None", "NoneType"}
_DICT_NAMES = {"dict", "Dict", "OrderedDict", "DefaultDict", "defaultdict"}
_LIST_NAMES = {"list", "List"}
_SET_NAMES = {"set", "Set"}
_TUPLE_NAMES = {"tuple", "Tuple"}
_TYPE_NAMES = {"type", "Type"}
_FIELD_FUNCS = {"field", "Field", "PydanticField"}
_ENUM_BASES = {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"}
_ENV_MODULE = "vllm.envs"
#: Standard-library constants that are the same on every platform.
_STDLIB_CONSTANTS = {"ssl.CERT_NONE": 0, "ssl.CERT_OPTIONAL": 1, "ssl.CERT_REQUIRED": 2}


class _Dynamic(Exception):
    """A value that cannot be known statically; the message is the short reason."""


# --------------------------------------------------------------------------- modules


@record
class _Module:
    name: str  # dotted, e.g. "vllm.config.cache"
    rel: str  # file, e.g. "vllm/config/cache.py"
    is_pkg: bool
    tree: ast.Module
    defs: dict[str, ast.AST] = field(default_factory=dict)  # ClassDef or value expr
    imports: dict[str, tuple[str, Optional[str]]] = field(default_factory=dict)
    stars: list[str] = field(default_factory=list)


def _index_module(mod: _Module) -> None:
    """Module-level names as Python binds them at run time: the ``else`` branch of
    ``if TYPE_CHECKING:`` wins (vLLM swaps aliases there, e.g. ``LoadFormats = str``,
    config/load.py:16-21 @0.33); names bound only for type checkers, in other ``if``
    branches or in ``except`` handlers are kept as fallbacks."""

    def visit(stmts: list[ast.stmt], conditional: bool) -> None:
        for st in stmts:
            if isinstance(st, ast.ClassDef):
                bind(st.name, st, None, conditional)
            elif isinstance(st, ast.Assign):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        bind(t.id, st.value, None, conditional)
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                if st.value is not None:
                    bind(st.target.id, st.value, None, conditional)
            elif isinstance(st, ast.ImportFrom):
                src = (
                    (import_target(mod.rel, st.level, st.module) or "") if st.level else st.module or ""
                )
                for a in st.names:
                    if a.name == "*":
                        mod.stars.append(src)
                    else:
                        bind(a.asname or a.name, None, (src, a.name), conditional)
            elif isinstance(st, ast.Import):
                for a in st.names:
                    if a.asname:
                        bind(a.asname, None, (a.name, None), conditional)
                    else:
                        top = a.name.split(".")[0]
                        bind(top, None, (top, None), conditional)
            elif isinstance(st, ast.If):
                tc = type_checking(st.test)
                if tc is None:
                    visit(st.body, True)
                    visit(st.orelse, True)
                else:  # the branch that runs gets the enclosing level
                    visit(st.orelse if tc else st.body, conditional)
                    visit(st.body if tc else st.orelse, True)
            elif isinstance(st, ast.Try):
                visit(st.body, conditional)
                for h in st.handlers:
                    visit(h.body, True)
                visit(st.orelse, conditional)

    def bind(
        name: str,
        node: Optional[ast.AST],
        imp: Optional[tuple[str, Optional[str]]],
        conditional: bool,
    ) -> None:
        if conditional and (name in mod.defs or name in mod.imports):
            return
        mod.defs.pop(name, None)
        mod.imports.pop(name, None)
        if node is not None:
            mod.defs[name] = node
        elif imp is not None:
            mod.imports[name] = imp

    visit(mod.tree.body, False)


class _Tree:
    """Lazily parsed modules of one vLLM tree, with name lookup across imports."""

    def __init__(self, src: VllmSource, warnings: list[str]) -> None:
        self.src = src
        self.warnings = warnings
        self._mods: dict[str, Optional[_Module]] = {}

    def module(self, dotted: str) -> Optional[_Module]:
        if dotted in self._mods:
            return self._mods[dotted]
        mod: Optional[_Module] = None
        if dotted == "vllm" or dotted.startswith("vllm."):
            base = dotted.replace(".", "/")
            for rel, is_pkg in ((base + ".py", False), (base + "/__init__.py", True)):
                text = self.src.read(rel)
                if text is None:
                    continue
                mod = self._parse(dotted, rel, is_pkg, text)
                break
        self._mods[dotted] = mod
        return mod

    def module_of_file(self, rel: str, text: Optional[str] = None) -> Optional[_Module]:
        is_pkg = rel.endswith("/__init__.py")
        dotted = rel[: -len("/__init__.py")] if is_pkg else rel[: -len(".py")]
        dotted = dotted.replace("/", ".")
        if dotted in self._mods:
            return self._mods[dotted]
        if text is None:
            text = self.src.read(rel)
        mod = self._parse(dotted, rel, is_pkg, text) if text is not None else None
        self._mods[dotted] = mod
        return mod

    def _parse(self, dotted: str, rel: str, is_pkg: bool, text: str) -> Optional[_Module]:
        # ``text`` is the file's own text (read to decide whether to parse at all); the
        # tree comes from the source's cache, shared with the other extractors
        tree = self.src.tree(rel)
        if tree is None:
            self.warnings.append(f"{rel}: cannot parse ({self.src.parse_errors.get(rel, 'unreadable')})")
            return None
        mod = _Module(name=dotted, rel=rel, is_pkg=is_pkg, tree=tree)
        _index_module(mod)
        return mod

    def lookup(self, mod: _Module, name: str, depth: int = 0) -> tuple[str, Any, Any]:
        """("class", module, ClassDef) | ("value", module, expr) | ("module", dotted, None)
        | ("external", dotted name, None) | ("missing", name, None)."""
        if depth > _MAX_DEPTH:
            return ("missing", name, None)
        node = mod.defs.get(name)
        if isinstance(node, ast.ClassDef):
            return ("class", mod, node)
        if node is not None:
            lazy = _lazy_module(node)
            if lazy is not None:
                return ("module", lazy, None)
            return ("value", mod, node)
        imp = mod.imports.get(name)
        if imp is not None:
            src_mod, attr = imp
            if attr is None:
                return ("module", src_mod, None)
            target = self.module(src_mod)
            if target is not None and target is not mod:
                found = self.lookup(target, attr, depth + 1)
                if found[0] != "missing":
                    return found
            sub = f"{src_mod}.{attr}"
            if self.module(sub) is not None:
                return ("module", sub, None)
            return ("external", sub, None)
        for star in mod.stars:
            target = self.module(star)
            if target is not None and target is not mod:
                found = self.lookup(target, name, depth + 1)
                if found[0] != "missing":
                    return found
        return ("missing", name, None)

    def lookup_expr(self, mod: _Module, expr: ast.expr, depth: int = 0) -> tuple[str, Any, Any]:
        """Like `lookup` for a Name or a dotted Attribute (``module.Class``)."""
        if isinstance(expr, ast.Name):
            return self.lookup(mod, expr.id, depth)
        if isinstance(expr, ast.Attribute):
            base = self.lookup_expr(mod, expr.value, depth + 1)
            if base[0] == "module":
                target = self.module(base[1])
                if target is not None:
                    return self.lookup(target, expr.attr, depth + 1)
                return ("external", f"{base[1]}.{expr.attr}", None)
            if base[0] == "external":
                return ("external", f"{base[1]}.{expr.attr}", None)
            if base[0] == "class":
                cmod, cdef = base[1], base[2]
                val = _class_scope(cdef).get(expr.attr)
                if isinstance(val, ast.ClassDef):
                    return ("class", cmod, val)
                if val is not None:
                    return ("value", cmod, val)
            return ("missing", ast.unparse(expr), None)
        return ("missing", ast.unparse(expr), None)


def _lazy_module(node: ast.AST) -> Optional[str]:
    """``LazyLoader("x", globals(), "vllm.a.b")`` binds a module (utils/import_utils.py @0.33)."""
    if (
        isinstance(node, ast.Call)
        and last_name(node.func) == "LazyLoader"
        and len(node.args) >= 3
        and isinstance(node.args[2], ast.Constant)
        and isinstance(node.args[2].value, str)
    ):
        return node.args[2].value
    return None





def _class_scope(cdef: ast.ClassDef) -> dict[str, ast.AST]:
    """Names bound in a class body (constants, ClassVars, nested classes)."""
    out: dict[str, ast.AST] = {}
    for st in cdef.body:
        if isinstance(st, ast.ClassDef):
            out[st.name] = st
        elif isinstance(st, ast.Assign):
            for t in st.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = st.value
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
            if st.value is not None:
                out[st.target.id] = st.value
    return out


# --------------------------------------------------------------------------- decorators


@record
class _Deco:
    is_config: bool = False  # decorated @config
    is_dataclass: bool = False  # a dataclass (either shape)
    extra: Optional[str] = None  # ConfigDict(extra=...) given explicitly
    new_shape: bool = False  # @config that is itself the dataclass (>= 0.16)


def _config_dict_extra(call: ast.Call) -> Optional[str]:
    for kw in call.keywords:
        if kw.arg == "config" and isinstance(kw.value, ast.Call):
            for kw2 in kw.value.keywords:
                if kw2.arg == "extra" and isinstance(kw2.value, ast.Constant):
                    return str(kw2.value.value)
    return None


def _decorators(cdef: ast.ClassDef) -> _Deco:
    d = _Deco()
    has_dc = False
    for dec in cdef.decorator_list:
        name = last_name(dec)
        if name == "config":
            d.is_config = True
            if isinstance(dec, ast.Call):
                d.extra = _config_dict_extra(dec) or d.extra
        elif name in ("dataclass", "pydantic_dataclass", "dataclasses"):
            has_dc = True
            if isinstance(dec, ast.Call):
                d.extra = _config_dict_extra(dec) or d.extra
    d.is_dataclass = has_dc or d.is_config
    d.new_shape = d.is_config and not has_dc
    return d


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
            for k, v in zip(e.keys, e.values):
                if k is None:
                    raise _Dynamic("dict unpacking")
                key = self.value(k, mod, scope, d)
                if not isinstance(key, (str, int, float, bool)) and key is not None:
                    raise _Dynamic("dict key")
                out[str(key) if not isinstance(key, str) else key] = self.value(v, mod, scope, d)
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

    def _attribute(
        self, e: ast.Attribute, mod: _Module, scope: Optional[dict[str, ast.AST]], depth: int
    ) -> Any:
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
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.Div):
            return a / b
        if isinstance(op, ast.FloorDiv):
            return a // b
        if isinstance(op, ast.Mod):
            return a % b
        if isinstance(op, ast.Pow) and isinstance(b, (int, float)) and abs(b) < 256:
            return a**b
        if isinstance(op, ast.LShift) and isinstance(b, int) and 0 <= b < 256:
            return a << b
        if isinstance(op, ast.BitOr):
            return a | b
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        pass
    raise _Dynamic(ast.unparse(e)[:60])


# --------------------------------------------------------------------------- classes


@record
class ConfigScan:
    """What `scan_configs` found: the classes, which of them are ``@config``, and
    the constructs it skipped."""

    classes: list[ConfigClass]
    decorated: list[str]
    warnings: list[str]


class _Classes:
    """The set of classes to emit, discovered as the scan goes."""

    def __init__(self) -> None:
        self.order: list[tuple[_Module, ast.ClassDef]] = []
        self._seen: set[tuple[str, str]] = set()

    def want(self, mod: _Module, cdef: ast.ClassDef) -> None:
        key = (mod.name, cdef.name)
        if key not in self._seen:
            self._seen.add(key)
            self.order.append((mod, cdef))


def _constraint_of(
    call: ast.Call, vals: _Values, mod: _Module, scope: dict[str, ast.AST]
) -> Optional[Constraint]:
    bounds: dict[str, float] = {}
    for kw in call.keywords:
        if kw.arg in ("gt", "ge", "lt", "le"):
            try:
                v = vals.value(kw.value, mod, scope)
            except _Dynamic:
                continue
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                bounds[kw.arg] = v
    return Constraint(**bounds) if bounds else None


def _annotated_constraint(
    ann: ast.expr, vals: _Values, mod: _Module, scope: dict[str, ast.AST]
) -> Optional[Constraint]:
    """Bounds given as metadata: ``Annotated[int, Field(ge=1)]`` / ``Annotated[int, Gt(0)]``."""
    for node in ast.walk(ann):
        if isinstance(node, ast.Subscript) and last_name(node.value) == "Annotated":
            sl = node.slice
            if not isinstance(sl, ast.Tuple):
                continue
            bounds: dict[str, float] = {}
            for meta in sl.elts[1:]:
                if not isinstance(meta, ast.Call):
                    continue
                fname = last_name(meta.func)
                if fname in _FIELD_FUNCS:
                    c = _constraint_of(meta, vals, mod, scope)
                    if c is not None:
                        bounds.update(dump(c, exclude_none=True))
                elif fname in ("Gt", "Ge", "Lt", "Le") and len(meta.args) == 1:
                    try:
                        v = vals.value(meta.args[0], mod, scope)
                    except _Dynamic:
                        continue
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        bounds[fname.lower()] = v
            if bounds:
                return Constraint(**bounds)
    return None


def _is_field_call(e: ast.expr, tree: _Tree, mod: _Module) -> bool:
    if not isinstance(e, ast.Call):
        return False
    name = last_name(e.func)
    if name not in _FIELD_FUNCS:
        return False
    if isinstance(e.func, ast.Name):
        imp = mod.imports.get(e.func.id)
        if imp is not None:
            return imp[0].split(".")[0] in ("dataclasses", "pydantic")
    return True


class _Extractor:
    def __init__(self, src: VllmSource) -> None:
        self.src = src
        self.warnings: list[str] = []
        self.tree = _Tree(src, self.warnings)
        self.classes = _Classes()
        self.types = _Types(self.tree, self.classes)
        self.vals = _Values(self.tree, self.classes)
        self._fields_cache: dict[tuple[str, str], list[ConfigField]] = {}

    # -- discovery
    def roots(self) -> list[str]:
        files: list[str] = []
        if self.src.exists("vllm/config.py"):
            files.append("vllm/config.py")
        files += self.src.py_files("vllm/config")
        out = []
        for rel in files:
            text = self.src.read(rel)
            if not text or "@config" not in text:  # parsed later only if a name needs it
                continue
            mod = self.tree.module_of_file(rel, text)
            if mod is None:
                continue
            for cdef in _top_classes(mod.tree):
                if _decorators(cdef).is_config:
                    self.classes.want(mod, cdef)
                    out.append(cdef.name)
        for rel in self.src.py_files(_ENTRYPOINTS):
            text = self.src.read(rel)
            if not text or ("@config" not in text and _FRONTEND_SUFFIX not in text):
                continue
            mod = self.tree.module_of_file(rel, text)
            if mod is None:
                continue
            for cdef in _top_classes(mod.tree):
                deco = _decorators(cdef)
                if deco.is_config:
                    out.append(cdef.name)
                    self.classes.want(mod, cdef)
                elif deco.is_dataclass and cdef.name.endswith(_FRONTEND_SUFFIX):
                    self.classes.want(mod, cdef)
        return out

    # -- one class
    def fields(self, mod: _Module, cdef: ast.ClassDef, depth: int = 0) -> list[ConfigField]:
        key = (mod.name, cdef.name)
        if key in self._fields_cache:
            return self._fields_cache[key]
        merged: dict[str, ConfigField] = {}
        if depth < 10:
            for base in reversed(cdef.bases):
                kind, bmod, bdef = self.tree.lookup_expr(mod, base)
                if kind == "class" and bdef is not cdef and _decorators(bdef).is_dataclass:
                    self.classes.want(bmod, bdef)
                    for f in self.fields(bmod, bdef, depth + 1):
                        merged[f.name] = f
        scope: dict[str, ast.AST] = {}
        for st in cdef.body:
            if isinstance(st, ast.Assign):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        scope[t.id] = st.value
                continue
            if not (isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)):
                continue
            name = st.target.id
            outer = last_name(st.annotation)
            if outer == "ClassVar" or (
                isinstance(st.annotation, ast.Constant)
                and isinstance(st.annotation.value, str)
                and st.annotation.value.startswith("ClassVar")
            ):
                if st.value is not None:
                    scope[name] = st.value
                continue
            if outer == "KW_ONLY":
                continue
            try:
                merged[name] = self._field(mod, cdef, st, scope)
            except Exception as e:  # robustness: never let one field sink the class
                self.warnings.append(f"{mod.rel}:{st.lineno} {cdef.name}.{name}: {e!r}")
            if st.value is not None:
                scope[name] = st.value
        out = list(merged.values())
        self._fields_cache[key] = out
        return out

    def _field(
        self, mod: _Module, cdef: ast.ClassDef, st: ast.AnnAssign, scope: dict[str, ast.AST]
    ) -> ConfigField:
        name = st.target.id  # type: ignore[union-attr]
        ann = st.annotation
        init_var = last_name(ann) == "InitVar"
        members = self.types.members(ann, mod)
        members = _merge_literals(members)
        hints: list[str] = []
        for m in members:
            h = m.hint()
            if h not in hints:
                hints.append(h)
        choices: Optional[list[Any]] = None
        for m in members:
            if m.kind == "Literal":
                choices = list(m.values)
        nested = next((m.name for m in members if m.kind == "config"), None)
        type_text = _union_text(members)
        if init_var:
            type_text = f"InitVar[{type_text}]"

        default: Any = None
        required = False
        init = True
        constraint: Optional[Constraint] = _annotated_constraint(ann, self.vals, mod, scope)
        value = st.value
        while (
            isinstance(value, ast.Call) and last_name(value.func) == "cast" and len(value.args) == 2
        ):
            value = value.args[1]
        copied = self._get_field(value, mod) if value is not None else None
        if copied is not None:  # get_field(Other, "name"): that field's default (<= 0.10)
            default, required = copied.default, copied.required
        elif value is None:
            required = True
        elif _is_field_call(value, self.tree, mod):
            assert isinstance(value, ast.Call)
            kws = {kw.arg: kw.value for kw in value.keywords if kw.arg}
            dflt = kws.get("default")
            if dflt is None and value.args and last_name(value.func) != "field":
                dflt = value.args[0]
            if "init" in kws:
                try:
                    init = bool(self.vals.value(kws["init"], mod, scope))
                except _Dynamic:
                    pass
            c = _constraint_of(value, self.vals, mod, scope)
            if c is not None:
                constraint = c
            is_ellipsis = isinstance(dflt, ast.Constant) and dflt.value is Ellipsis
            if dflt is not None and not is_ellipsis:
                default = self._default(dflt, mod, scope)
            elif "default_factory" in kws:
                try:
                    default = self.vals.factory(kws["default_factory"], mod)
                except _Dynamic as err:
                    default = {"$dynamic": str(err)}
            else:
                required = True
        else:
            default = self._default(value, mod, scope)
        return ConfigField(
            name=name,
            type=type_text,
            hints=hints,
            choices=choices,
            default=default,
            required=required,
            constraint=constraint,
            nested=nested,
            init=init,
            init_var=init_var,
            loc=Loc(file=mod.rel, line=st.lineno),
        )

    def _get_field(self, value: ast.expr, mod: _Module) -> Optional[ConfigField]:
        if not (
            isinstance(value, ast.Call)
            and last_name(value.func) == "get_field"
            and len(value.args) == 2
            and isinstance(value.args[1], ast.Constant)
        ):
            return None
        kind, where, node = self.tree.lookup_expr(mod, value.args[0])
        if kind != "class" or not _decorators(node).is_dataclass:
            return None
        for f in self.fields(where, node, 5):
            if f.name == value.args[1].value:
                return f
        return None

    def _default(self, e: ast.expr, mod: _Module, scope: dict[str, ast.AST]) -> Any:
        try:
            return self.vals.value(e, mod, scope)
        except _Dynamic as err:
            return {"$dynamic": str(err)}

    # -- everything
    def run(self) -> ConfigScan:
        decorated = self.roots()
        out: list[ConfigClass] = []
        names: dict[str, str] = {}
        i = 0
        while i < len(self.classes.order):  # the list grows as fields name new classes
            mod, cdef = self.classes.order[i]
            i += 1
            try:
                cls = self._class(mod, cdef)
            except Exception as e:  # robustness
                self.warnings.append(f"{mod.rel}:{cdef.lineno} {cdef.name}: skipped ({e!r})")
                continue
            if cls.name in names:
                if names[cls.name] != mod.rel:
                    self.warnings.append(
                        f"{mod.rel}:{cdef.lineno} {cdef.name}: same name as in "
                        f"{names[cls.name]}; kept the first"
                    )
                continue
            names[cls.name] = mod.rel
            out.append(cls)
        return ConfigScan(classes=out, decorated=decorated, warnings=self.warnings)

    def _class(self, mod: _Module, cdef: ast.ClassDef) -> ConfigClass:
        deco = _decorators(cdef)
        fields = self.fields(mod, cdef)
        # >= 0.16 @config builds ConfigDict(extra="forbid") and merges the given one
        # (config/utils.py:71 @0.33); older classes forbid only when told to.
        forbid = deco.extra == "forbid" if deco.extra is not None else deco.new_shape
        bases = [ast.unparse(b) for b in cdef.bases if ast.unparse(b) != "object"]
        bases = [b.split(".")[-1] if "[" not in b else b for b in bases]
        return ConfigClass(
            name=cdef.name,
            loc=Loc(file=mod.rel, line=cdef.lineno),
            bases=bases,
            extra_forbid=forbid,
            fields=fields,
        )


def _top_classes(tree: ast.Module) -> Iterator[ast.ClassDef]:
    for st in tree.body:
        if isinstance(st, ast.ClassDef):
            yield st
        elif isinstance(st, (ast.If, ast.Try)):
            for sub in ast.iter_child_nodes(st):
                if isinstance(sub, ast.ClassDef):
                    yield sub


def scan_configs(src: VllmSource) -> ConfigScan:
    """All config classes of ``src``, with the list of ``@config`` names and warnings."""
    return _Extractor(src).run()


def extract_configs(src: VllmSource) -> list[ConfigClass]:
    """The config classes of ``src`` (see the module docstring for what is included)."""
    return scan_configs(src).classes
