"""Expressions of vLLM's parser-building code, evaluated over plain values.

The half of the replay (see `vcfg.catalog.extract.flags_interp`) that answers "what is this
name / attribute / expression": module-level names followed across imports
(`vcfg.catalog.extract.flags_symbols`), classes and their attributes along the MRO, enums,
``Literal`` aliases, dict and list displays with ``**`` merges, comprehensions, f-strings
and a whitelist of builtins and methods of plain values.  Anything else evaluates to
`Unknown` with a note; nothing is imported or executed.
"""

from __future__ import annotations

import ast
import copy
import itertools
from typing import Any, Callable, Optional

from vcfg.catalog.extract.flags_kwargs import KwargsRules, compute_kwargs
from vcfg.catalog.extract.flags_symbols import (
    Binding,
    ModuleBinding,
    ModuleIndex,
    decorator_names,
    find_method,
)
from vcfg.catalog.extract.flags_values import (
    SUPPRESS,
    ActionRef,
    BoundBuiltin,
    BuiltinFunc,
    BuiltinType,
    ClassRef,
    ConfigInstance,
    Dynamic,
    EnumClass,
    EnumMember,
    EnvsRef,
    FieldKwargs,
    FuncRef,
    GroupRef,
    LambdaRef,
    LiteralForm,
    LiteralType,
    Method,
    ModuleRef,
    ParserRef,
    PlatformRef,
    Recorded,
    SubparsersRef,
    SuperRef,
    Unknown,
    from_json,
    with_origin,
)
from vcfg.catalog.extract.pysource import Unfoldable, binop, compare
from vcfg.catalog.model import ConfigClass
from vcfg.records import record

_MAX_STEPS = 400_000


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _StepLimit(Exception):
    pass


_EXTERNAL: dict[str, Any] = {
    "argparse.SUPPRESS": SUPPRESS,
    "argparse.BooleanOptionalAction": ActionRef("BooleanOptionalAction"),
    "argparse.Action": ActionRef("Action", custom=True),
    "argparse.ArgumentTypeError": Unknown("exception"),
    "json.loads": FuncRef("json.loads"),
    "typing.get_args": BuiltinFunc("get_args"),
    "typing.Literal": LiteralForm(),
    "typing_extensions.Literal": LiteralForm(),
    "typing.Any": BuiltinType("Any"),
    "itertools.permutations": BuiltinFunc("permutations"),
    "ssl.CERT_NONE": 0,
}

_BUILTIN_NAMES = {
    "int", "float", "str", "bool", "dict", "list", "set", "tuple", "type", "object",
    "frozenset", "bytes",
}  # fmt: skip
_BUILTIN_FUNCS = {
    "len", "sorted", "list", "tuple", "set", "dict", "str", "int", "float", "bool",
    "get_args", "permutations", "reversed", "enumerate", "zip", "any", "all", "min",
    "max", "isinstance", "frozenset", "getattr", "hasattr", "repr",
}  # fmt: skip

# Methods of plain values the replay may call (none has side effects beyond the value).
_SAFE_METHODS = {
    str: {
        "replace",
        "lower",
        "upper",
        "join",
        "strip",
        "lstrip",
        "rstrip",
        "split",
        "startswith",
        "endswith",
        "removeprefix",
        "removesuffix",
        "format",
        "title",
    },
    list: {"append", "remove", "extend", "pop", "insert", "copy", "index", "count", "sort"},
    dict: {"get", "pop", "update", "items", "keys", "values", "copy", "setdefault"},
    tuple: {"index", "count"},
    set: {"add", "discard", "remove", "union", "copy"},
}

#: vLLM helpers known by name, used when a name does not resolve in the tree (moved
#: to a module out of reach, or a tree trimmed down to the files that matter).
_KNOWN_HELPERS = {
    "get_kwargs": FuncRef("get_kwargs"),
    "optional_type": FuncRef("optional_type"),
    "parse_type": FuncRef("parse_type"),
    "load_general_plugins": FuncRef("load_general_plugins"),
    "human_readable_int": FuncRef("human_readable_int"),
    "human_readable_int_or_auto": FuncRef("human_readable_int_or_auto"),
    "union_dict_and_str": FuncRef("union_dict_and_str"),
    "get_args": BuiltinFunc("get_args"),
    "Literal": LiteralForm(),
    "permutations": BuiltinFunc("permutations"),
}

_OPAQUE = (Unknown, Dynamic, PlatformRef, EnvsRef)


def _opaque(v: Any) -> bool:
    return isinstance(v, _OPAQUE)


def _is_plain(v: Any) -> bool:
    if v is None or isinstance(v, (bool, int, float, str)):
        return True
    if isinstance(v, (list, tuple, set, frozenset)):
        return all(_is_plain(x) for x in v)
    if isinstance(v, dict):
        return all(_is_plain(x) for x in v.values())
    return isinstance(v, (EnumMember, BuiltinType, FuncRef, LiteralType, ConfigInstance))


def _method_kind(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    decos = decorator_names(fn)
    if "staticmethod" in decos:
        return "static"
    return "class" if "classmethod" in decos else "instance"


def lambda_kind(node: ast.Lambda) -> str:
    body = ast.unparse(node.body).replace('"', "'")
    if body.endswith(".lower().replace('-', '_')"):
        return "lower_underscore"
    return "lambda"


@record
class Frame:
    path: str
    locals: dict[str, Any]
    owner: Optional[ClassRef] = None  # the class whose method runs (for super())
    bound: Optional[ClassRef] = None  # cls
    in_loop: int = 0


class Evaluator:
    """Evaluates expressions for the replay; `Interpreter` adds calls and statements."""

    def __init__(
        self,
        index: ModuleIndex,
        configs: dict[str, ConfigClass],
        rules: KwargsRules,
        *,
        argv: list[str],
        device_type: str,
        class_hook: Optional[Callable[["ClassRef", str], Any]] = None,
    ) -> None:
        self.index = index
        self.configs = configs
        self.rules = rules
        self.argv = argv
        self.device_type = device_type
        self.class_hook = class_hook
        self.records: list[Recorded] = []
        self.notes: list[str] = []
        self._kwargs_cache: dict[str, dict[str, FieldKwargs]] = {}
        self._value_cache: dict[tuple[str, str], Any] = {}
        self._resolving: set[tuple[str, str]] = set()
        self._depth = 0
        self._steps = 0
        self._dataclasses = set(configs)

    # ------------------------------------------------------------------ helpers
    def note(self, frame: Optional[Frame], node: Optional[ast.AST], msg: str) -> None:
        where = f"{frame.path}:{getattr(node, 'lineno', '?')}: " if frame else ""
        text = where + msg
        if text not in self.notes:
            self.notes.append(text)

    def get_kwargs(self, name: str, frame: Frame, node: ast.AST) -> Any:
        if name not in self._kwargs_cache:
            cls = self.configs.get(name)
            if cls is None:
                self.note(frame, node, f"get_kwargs({name}): class not in the config catalog")
                return Unknown(f"get_kwargs({name})")
            notes: list[str] = []
            self._kwargs_cache[name] = compute_kwargs(cls, self.rules, self._dataclasses, notes)
            for n in notes:
                self.note(None, None, n)
        return copy.deepcopy(self._kwargs_cache[name])

    # ------------------------------------------------------------------ names
    def module_value(self, path: str, name: str) -> Any:
        """The value module ``path`` binds to ``name`` (imports followed)."""
        key = (path, name)
        if key in self._value_cache:
            return self._value_cache[key]
        if key in self._resolving:
            return Unknown(f"recursive {name}")
        self._resolving.add(key)
        try:
            value = self._module_value(path, name)
        finally:
            self._resolving.discard(key)
        self._value_cache[key] = value
        return value

    def _module_value(self, path: str, name: str) -> Any:
        if name == "current_platform":
            return PlatformRef()
        b = self.index.resolve(path, name)
        if b is None:
            return Unknown(f"name {name}")
        return self.binding_value(b)

    def binding_value(self, b: Binding | ModuleBinding) -> Any:
        if isinstance(b, ModuleBinding):
            if b.module == "vllm.envs":
                return EnvsRef()
            if b.path is None:
                return _EXTERNAL.get(b.module, ModuleRef(b.module, None))
            return ModuleRef(b.module, b.path)
        node = b.node
        if b.name == "current_platform":
            return PlatformRef()
        if isinstance(node, ast.ClassDef):
            return self.class_value(ClassRef(node.name, b.path, node))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return FuncRef(node.name, b.path, node)
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            return self.eval(node.value, Frame(b.path, {}))
        return Unknown(f"binding {b.name}")

    def class_value(self, ref: ClassRef) -> Any:
        members = self.enum_members(ref)
        if members is not None:
            return EnumClass(ref.name, members)
        return ref

    def node_of(self, ref: ClassRef) -> ast.ClassDef:
        if ref.node is not None:
            return ref.node
        node = self.index.find_class(ref.path, ref.name)
        if node is None:  # not found: an empty class
            node = ast.ClassDef(name=ref.name, bases=[], keywords=[], body=[], decorator_list=[])
        return node

    def bases(self, ref: ClassRef) -> list[ClassRef]:
        out = []
        for b in self.node_of(ref).bases:
            v = self.eval(b, Frame(ref.path, {}))
            if isinstance(v, ClassRef):
                out.append(v)
        return out

    def mro(self, ref: ClassRef) -> list[ClassRef]:
        out: list[ClassRef] = []
        stack = [ref]
        while stack and len(out) < 50:
            c = stack.pop(0)
            if c not in out:
                out.append(c)
                stack = self.bases(c) + stack
        return out

    def enum_members(self, ref: ClassRef) -> Optional[tuple[EnumMember, ...]]:
        names = set()
        node = self.node_of(ref)
        for b in node.bases:
            names.add(b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", ""))
        if not names & {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"}:
            return None
        out = []
        for st in node.body:
            if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name):
                n = st.targets[0].id
                if n.startswith("_"):
                    continue
                v = self.eval(st.value, Frame(ref.path, {}))
                if isinstance(v, tuple) and len(v) == 1:
                    v = v[0]
                out.append(EnumMember(ref.name, n, v))
        return tuple(out)

    def class_attr(self, ref: ClassRef, attr: str, node: ast.AST, frame: Frame) -> Any:
        if attr == "__doc__":
            return None
        if attr == "__name__":
            return ref.name
        cfg = self.configs.get(ref.name)
        if cfg is not None:
            f = cfg.field(attr)
            if f is not None and not f.required:
                return from_json(f.default)
        for c in self.mro(ref):
            for st in self.node_of(c).body:
                if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == attr:
                    return Method(st, c.path, c, ref, _method_kind(st))  # type: ignore[arg-type]
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == attr:
                    if st.value is None:
                        break
                    return self.eval(self._field_default(st.value), Frame(c.path, {}))
                if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in st.targets):
                    return self.eval(st.value, Frame(c.path, {}))
        self.note(frame, node, f"{ref.name}.{attr}: not found")
        return Unknown(f"{ref.name}.{attr}")

    @staticmethod
    def _field_default(value: ast.expr) -> ast.expr:
        """``field(default=X)`` -> X (a dataclass class attribute's value)."""
        if isinstance(value, ast.Call):
            fn = value.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            if name in ("field", "Field"):
                for k in value.keywords:
                    if k.arg == "default":
                        return k.value
        return value

    def lookup(self, name: str, frame: Frame, node: ast.AST) -> Any:
        if name in frame.locals:
            return frame.locals[name]
        cfg = self.configs.get(name)
        if cfg is not None and isinstance(
            self.index.bindings(frame.path).get(name), (ast.ImportFrom, ast.Import, ast.ClassDef)
        ):
            # A config class: its facts come from the catalog, so its module is parsed
            # only if a method or base of it is needed (saves parsing config/vllm.py...).
            return ClassRef(name, cfg.loc.file)
        v = self.module_value(frame.path, name)
        if isinstance(v, Unknown) and v.what == f"name {name}":
            if name in _BUILTIN_NAMES:
                return BuiltinType(name)
            if name in _BUILTIN_FUNCS:
                return BuiltinFunc(name)
            if name in _KNOWN_HELPERS:
                return _KNOWN_HELPERS[name]
            self.note(frame, node, f"unresolved name {name}")
        return v

    # ------------------------------------------------------------------ expressions
    def eval(self, node: ast.expr, frame: Frame) -> Any:
        self._steps += 1
        if self._steps > _MAX_STEPS:
            raise _StepLimit()
        method = getattr(self, "_e_" + type(node).__name__, None)
        if method is None:
            self.note(frame, node, f"unsupported expression {type(node).__name__}")
            return Unknown(type(node).__name__)
        try:
            return method(node, frame)
        except (_Return, _Break, _Continue, _StepLimit):
            raise
        except Exception as e:  # noqa: BLE001 - a construct we do not model
            self.note(frame, node, f"cannot evaluate {ast.unparse(node)[:80]}: {e!r}")
            return Unknown(ast.unparse(node)[:80])

    def _e_Constant(self, node: ast.Constant, frame: Frame) -> Any:
        return node.value

    def _e_Name(self, node: ast.Name, frame: Frame) -> Any:
        return self.lookup(node.id, frame, node)

    def _e_JoinedStr(self, node: ast.JoinedStr, frame: Frame) -> Any:
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
                continue
            assert isinstance(v, ast.FormattedValue)
            val = self.eval(v.value, frame)
            if not _is_plain(val) or isinstance(val, (BuiltinType, FuncRef)):
                return Unknown("f-string")
            if v.conversion == ord("r"):
                val = repr(val)
            elif v.conversion == ord("s"):
                val = str(val)
            spec = self.eval(v.format_spec, frame) if v.format_spec is not None else ""
            parts.append(format(val, spec))
        return "".join(parts)

    def _elements(self, elts: list[ast.expr], frame: Frame) -> list[Any]:
        out: list[Any] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                v = self.eval(e.value, frame)
                it = self.iterate(v, frame, e)
                if it is None:
                    out.append(Unknown("starred"))
                else:
                    out.extend(it)
            else:
                out.append(self.eval(e, frame))
        return out

    def _e_List(self, node: ast.List, frame: Frame) -> Any:
        return self._elements(node.elts, frame)

    def _e_Tuple(self, node: ast.Tuple, frame: Frame) -> Any:
        return tuple(self._elements(node.elts, frame))

    def _e_Set(self, node: ast.Set, frame: Frame) -> Any:
        items = self._elements(node.elts, frame)
        try:
            return set(items)
        except TypeError:
            return Unknown("set")

    def unpack_into(
        self, out: dict[Any, Any], src: Any, expr: ast.AST, node: ast.AST, frame: Frame
    ) -> Optional[tuple[str, str]]:
        """``**src`` (written as ``expr``) merged into ``out``, in a dict literal or a
        call; returns the config field ``src`` came from, if it is a field's kwargs."""
        if isinstance(src, dict):
            out.update(src)
        else:
            self.note(frame, node, f"** of a non-dict {ast.unparse(expr)[:60]}")
            out["$unknown"] = src
        return src.origin if isinstance(src, FieldKwargs) else None

    def _e_Dict(self, node: ast.Dict, frame: Frame) -> Any:
        out: dict[Any, Any] = {}
        origin = None
        for k, v in zip(node.keys, node.values):
            if k is None:
                origin = self.unpack_into(out, self.eval(v, frame), v, node, frame) or origin
            else:
                out[self.eval(k, frame)] = self.eval(v, frame)
        return with_origin(out, origin) if origin is not None else out

    def _e_Attribute(self, node: ast.Attribute, frame: Frame) -> Any:
        obj = self.eval(node.value, frame)
        return self.attribute(obj, node.attr, node, frame)

    def attribute(self, obj: Any, attr: str, node: ast.AST, frame: Frame) -> Any:
        if isinstance(obj, ModuleRef):
            if obj.path is None:
                if obj.module == "sys" and attr == "argv":
                    return list(self.argv)
                key = f"{obj.module}.{attr}"
                if key in _EXTERNAL:
                    return _EXTERNAL[key]
                return Unknown(key)
            b = self.index.resolve_in_module(obj.module, attr)
            if b is None:
                return Unknown(f"{obj.module}.{attr}")
            return self.binding_value(b)
        if isinstance(obj, EnvsRef):
            return Dynamic(f"env {attr}")
        if isinstance(obj, PlatformRef):
            if attr == "device_type":
                return self.device_type
            return Dynamic(f"current_platform.{attr}")
        if isinstance(obj, ClassRef):
            if self.class_hook is not None:
                hooked = self.class_hook(obj, attr)
                if hooked is not None:
                    return hooked
            return self.class_attr(obj, attr, node, frame)
        if isinstance(obj, EnumClass):
            for m in obj.members:
                if m.name == attr:
                    return m
            return Unknown(f"{obj.name}.{attr}")
        if isinstance(obj, EnumMember):
            if attr == "value":
                return obj.value
            if attr == "name":
                return obj.name
        if isinstance(obj, SuperRef):
            mro = self.mro(obj.bound)
            start = mro.index(obj.after) + 1 if obj.after in mro else len(mro)
            for c in mro[start:]:
                fn = find_method(self.node_of(c), attr)
                if fn is not None:
                    return Method(fn, c.path, c, obj.bound, _method_kind(fn))
            return Unknown(f"super().{attr}")
        if isinstance(obj, (ParserRef, GroupRef, SubparsersRef)):
            return BoundBuiltin(obj, attr)
        if _opaque(obj):
            if isinstance(obj, Unknown):
                return obj
            return Dynamic(f"{getattr(obj, 'what', 'value')}.{attr}")
        for typ, names in _SAFE_METHODS.items():
            if isinstance(obj, typ) and attr in names:
                return BoundBuiltin(obj, attr)
        self.note(frame, node, f"attribute {attr} of {type(obj).__name__}")
        return Unknown(f".{attr}")

    def _e_Subscript(self, node: ast.Subscript, frame: Frame) -> Any:
        obj = self.eval(node.value, frame)
        if isinstance(obj, LiteralForm):
            sl = node.slice
            elts = sl.elts if isinstance(sl, ast.Tuple) else [sl]
            values: list[Any] = []
            for e in elts:
                v = self.eval(e, frame)
                vals = v.values if isinstance(v, LiteralType) else (v,)
                for x in vals:
                    if x not in values:
                        values.append(x)
            return LiteralType(tuple(values))
        key = self.eval(node.slice, frame)
        if _opaque(obj):
            return obj
        if isinstance(obj, (dict, list, tuple, str)):
            try:
                return obj[key]
            except (KeyError, IndexError, TypeError):
                self.note(frame, node, f"missing key {key!r} in {ast.unparse(node.value)[:60]}")
                return Unknown(f"[{key!r}]")
        return Unknown("subscript")

    def _e_Slice(self, node: ast.Slice, frame: Frame) -> Any:
        parts = (node.lower, node.upper, node.step)
        return slice(*[self.eval(x, frame) if x is not None else None for x in parts])

    def _e_BinOp(self, node: ast.BinOp, frame: Frame) -> Any:
        a, b = self.eval(node.left, frame), self.eval(node.right, frame)
        if _opaque(a) or _opaque(b):
            return a if _opaque(a) else b
        try:
            return binop(node.op, a, b)
        except Unfoldable:
            return Unknown("binop")

    def _e_UnaryOp(self, node: ast.UnaryOp, frame: Frame) -> Any:
        v = self.eval(node.operand, frame)
        if _opaque(v):
            return v
        if isinstance(node.op, ast.Not):
            return not v
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return +v
        return Unknown("unary")

    def _e_BoolOp(self, node: ast.BoolOp, frame: Frame) -> Any:
        is_and = isinstance(node.op, ast.And)
        v: Any = None
        for e in node.values:
            v = self.eval(e, frame)
            if _opaque(v):
                return v
            if is_and and not v:
                return v
            if not is_and and v:
                return v
        return v

    def _e_Compare(self, node: ast.Compare, frame: Frame) -> Any:
        left = self.eval(node.left, frame)
        for op, comp in zip(node.ops, node.comparators):
            right = self.eval(comp, frame)
            if _opaque(left) or _opaque(right):
                return left if _opaque(left) else right
            if not compare(op, left, right):
                return False
            left = right
        return True

    def _e_IfExp(self, node: ast.IfExp, frame: Frame) -> Any:
        t = self.eval(node.test, frame)
        if _opaque(t):
            test = ast.unparse(node.test)[:60]
            self.note(frame, node, f"condition not known statically: {test}")
            return Dynamic(ast.unparse(node)[:60])
        return self.eval(node.body if t else node.orelse, frame)

    def _e_Lambda(self, node: ast.Lambda, frame: Frame) -> Any:
        return LambdaRef(lambda_kind(node))

    def assign(self, target: ast.expr, value: Any, frame: Frame) -> None:
        """Bind ``target`` to ``value`` in ``frame`` (a comprehension's variables):
        `Interpreter`, which runs statements, does it."""
        raise NotImplementedError

    def _comprehension(self, gens: list[ast.comprehension], frame: Frame, emit: Callable[[Frame], None]) -> bool:
        def rec(i: int, f: Frame) -> bool:
            if i == len(gens):
                emit(f)
                return True
            g = gens[i]
            it = self.iterate(self.eval(g.iter, f), f, g.iter)
            if it is None:
                return False
            for item in it:
                inner = Frame(f.path, dict(f.locals), f.owner, f.bound, f.in_loop)
                self.assign(g.target, item, inner)
                if all(self.eval(c, inner) for c in g.ifs):
                    if not rec(i + 1, inner):
                        return False
            return True

        return rec(0, frame)

    def _e_ListComp(self, node: ast.ListComp, frame: Frame) -> Any:
        out: list[Any] = []
        ok = self._comprehension(node.generators, frame, lambda f: out.append(self.eval(node.elt, f)))
        return out if ok else Unknown("comprehension")

    _e_GeneratorExp = _e_ListComp  # consumed at once by join/list/any: a list will do

    def _e_SetComp(self, node: ast.SetComp, frame: Frame) -> Any:
        v = self._e_ListComp(node, frame)  # type: ignore[arg-type]
        return set(v) if isinstance(v, list) else v

    def _e_DictComp(self, node: ast.DictComp, frame: Frame) -> Any:
        out: dict[Any, Any] = {}

        def emit(f: Frame) -> None:
            out[self.eval(node.key, f)] = self.eval(node.value, f)

        return out if self._comprehension(node.generators, frame, emit) else Unknown("dictcomp")

    def iterate(self, v: Any, frame: Frame, node: ast.AST) -> Optional[list[Any]]:
        if isinstance(v, (list, tuple, str)):
            return list(v)
        if isinstance(v, (set, frozenset)):
            return sorted(v, key=repr)
        if isinstance(v, dict):
            return list(v.keys())
        if isinstance(v, EnumClass):
            return list(v.members)
        if isinstance(v, (type({}.items()), type({}.keys()), type({}.values()))):
            return list(v)
        if isinstance(v, itertools.permutations):
            return list(v)
        self.note(frame, node, f"cannot iterate {ast.unparse(node)[:60]}")
        return None

    # ------------------------------------------------------------------ calls

    def builtin(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.Call, frame: Frame) -> Any:
        if any(_opaque(a) for a in args):
            return args[0] if args and _opaque(args[0]) else Unknown(name)
        if name == "get_args":
            a = args[0] if args else None
            if isinstance(a, LiteralType):
                return a.values
            self.note(frame, node, f"get_args of {type(a).__name__}")
            return Unknown("get_args")
        if name == "permutations":
            return list(itertools.permutations(*args, **kwargs))
        if name in ("list", "tuple", "set", "sorted", "frozenset", "reversed", "enumerate"):
            if args:
                it = self.iterate(args[0], frame, node)
                if it is None:
                    return Unknown(name)
                args = [it, *args[1:]]
        fn: Any = {
            "len": len, "sorted": sorted, "list": list, "tuple": tuple, "set": set,
            "dict": dict, "str": str, "int": int, "float": float, "bool": bool,
            "reversed": lambda x: list(reversed(x)), "enumerate": lambda x: list(enumerate(x)),
            "zip": lambda *x: list(zip(*x)), "any": any, "all": all, "min": min, "max": max,
            "frozenset": frozenset, "repr": repr,
        }.get(name)  # fmt: skip
        if fn is None:
            return Unknown(name)
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001
            self.note(frame, node, f"{name}(...) raises {e!r}")
            return Unknown(name)

    def _e_Call(self, node: ast.Call, frame: Frame) -> Any:
        raise NotImplementedError  # `Interpreter._e_Call`
