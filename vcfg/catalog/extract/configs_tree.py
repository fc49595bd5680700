"""The modules of a vLLM tree as the config extractor (`configs`) reads them: names
bound at module level (the branch of ``if TYPE_CHECKING:`` that runs wins), imports,
lazy modules, class scopes, decorators; and the vocabulary the extractor shares."""

from __future__ import annotations

import ast
from typing import Any, Optional

from vcfg.catalog.extract.pysource import bound_import, import_target, last_name, module_bindings
from vcfg.catalog.extract.source import VllmSource
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
    """Module-level names as Python binds them at run time (`pysource.module_bindings`):
    classes and values in ``defs``, imports in ``imports``, ``from X import *`` in
    ``stars``; functions are neither a config type nor a value."""
    binds, stars = module_bindings(mod.tree.body)

    def source(st: ast.ImportFrom) -> str:
        return (import_target(mod.rel, st.level, st.module) or "") if st.level else st.module or ""

    for name, st in binds.items():
        if isinstance(st, ast.ClassDef):
            mod.defs[name] = st
        elif isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
            mod.defs[name] = st.value
        elif isinstance(st, ast.ImportFrom):
            a = bound_import(st, name)
            if a is not None:
                mod.imports[name] = (source(st), a.name)
        elif isinstance(st, ast.Import):
            a = bound_import(st, name)
            if a is not None:
                mod.imports[name] = (a.name, None) if a.asname else (name, None)
    mod.stars.extend(source(st) for st in stars)


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
