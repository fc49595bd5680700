"""A static evaluator for the callables of vLLM's ``environment_variables`` dict.

It computes the value an entry's callable returns when *no* variable is set, by
interpreting a whitelisted subset of Python over the AST (literals, operators, str
methods, ``int/float/bool/str``, ``os.getenv``/``os.environ``, ``os.path`` string
functions, module-level helpers and the closures they return).  Nothing is imported or
executed.  Conventions (see `vcfg.catalog.extract.envs` for why):

- ``~`` is never expanded; a string default read from *another* variable stays symbolic
  through ``os.path.join``/``expanduser`` as ``${NAME:-fallback}`` and is the fallback
  for any other operation;
- a value that depends on the machine or on code outside envs.py is
  ``{"$dynamic": "<reason>"}``, and so is a construct not modelled
  (``"not understood: <what>"``);
- operations that could build huge values (``"x" * 10**9``) are refused.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
from typing import TYPE_CHECKING, Any, Callable, Optional

from vcfg.catalog.extract.pysource import MAX_SIZE, Unfoldable, binop, compare
from vcfg.records import field, record

if TYPE_CHECKING:
    from vcfg.catalog.extract.envs import EnvsModule

__all__ = ["Evaluator", "dynamic"]


class _Dyn:
    """A value not knowable statically."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


class _Sym:
    """A string naming another variable: ``${XDG_CACHE_HOME:-~/.cache}``.

    Kept through path joins; any other operation sees ``fallback`` (the variable unset).
    """

    __slots__ = ("text", "fallback")

    def __init__(self, text: str, fallback: Any):
        self.text = text
        self.fallback = fallback


class _Unknown(Exception):
    """A construct the evaluator does not model."""


class _Raised(Exception):
    """The evaluated code raises."""


@record
class _Closure:
    params: list[str]
    defaults: dict[str, ast.expr]
    body: Any  # an expression (lambda) or a list of statements (def)
    scope: "_Scope"
    name: str = "<lambda>"


@record
class _Scope:
    vars: dict[str, Any] = field(default_factory=dict)
    parent: Optional["_Scope"] = None

    def lookup(self, name: str) -> Any:
        s: Optional[_Scope] = self
        while s is not None:
            if name in s.vars:
                return s.vars[name]
            s = s.parent
        raise KeyError(name)


@record(frozen=True)
class _Builtin:
    name: str
    fn: Callable[..., Any]
    #: receives `_Sym`/`_Dyn` arguments as they are (path functions, getenv)
    raw: bool = False


@record(frozen=True)
class _Mod:
    name: str


_DYN_FUNCS = {
    "tempfile.gettempdir": "system temp directory",
    "tempfile.mkdtemp": "system temp directory",
    "os.cpu_count": "cpu count",
    "os.getpid": "process id",
    "os.getcwd": "working directory",
    "uuid.uuid4": "random",
    "uuid.uuid1": "random",
    "os.path.exists": "filesystem",
    "os.path.isfile": "filesystem",
    "os.path.isdir": "filesystem",
    "os.access": "filesystem",
    "socket.gethostname": "host name",
    "platform.machine": "platform",
    "platform.system": "platform",
}
_MODULES = {"os", "sys", "json", "tempfile", "uuid", "logging", "functools", "warnings",
            "hashlib", "os.path", "os.environ", "sys.modules", "socket", "platform"}  # fmt: skip
_STR_METHODS = {
    "lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "startswith",
    "endswith", "replace", "casefold", "isdigit", "join", "removeprefix",
    "removesuffix", "title", "capitalize",
}  # fmt: skip
_CONTAINER_METHODS = {"get", "keys", "values", "items", "index", "count", "copy"}
_MAX_DEPTH = 40


def dynamic(reason: str) -> dict[str, str]:
    return {"$dynamic": reason}


def _first_dyn(values: Any) -> Optional[_Dyn]:
    for v in values:
        if isinstance(v, _Dyn):
            return v
    return None


def _plain(v: Any) -> Any:
    """The value a non-path operation sees (a `_Sym` as its fallback)."""
    return v.fallback if isinstance(v, _Sym) else v


class Evaluator:
    """Evaluates an entry's callable with no environment variable set, statically.

    Only a whitelisted subset of Python is modelled (literals, operators, str methods,
    ``int/float/bool/str``, ``os.getenv``/``os.environ``, ``os.path`` string functions,
    module-level helpers and closures).  Nothing of vLLM is imported or executed.
    """

    def __init__(self, module: "EnvsModule", own: str):
        self.module = module
        self.own = own
        self.depth = 0
        shared = module.memo.get(("globals", 0))
        if shared is None:  # module-level helpers as closures, built once per module
            shared = module.memo[("globals", 0)] = _Scope()
            for name, fn in module.functions.items():
                shared.vars[name] = self._closure_of_def(fn, shared)
        self.globals = shared

    def default_of(self, value: ast.expr) -> Any:
        try:
            fn = self.expr(value, self.globals)
            result = self.call(fn, [], {})
        except _Raised:
            return dynamic("raises when unset")
        except (_Unknown, RecursionError, TypeError, ValueError, AttributeError,
                KeyError, IndexError, ZeroDivisionError, OverflowError) as e:  # fmt: skip
            reason = str(e) if isinstance(e, _Unknown) and str(e) else "not understood"
            return dynamic(f"not understood: {reason}" if isinstance(e, _Unknown) else reason)
        return self.to_json(result)

    # -- results
    def to_json(self, v: Any) -> Any:
        if isinstance(v, _Dyn):
            return dynamic(v.reason)
        if isinstance(v, _Sym):
            return v.text
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, float):
            return v if v == v and v not in (float("inf"), float("-inf")) else str(v)
        if isinstance(v, (list, tuple)):
            return [self.to_json(x) for x in v]
        if isinstance(v, (set, frozenset)):
            items = [self.to_json(x) for x in v]
            try:
                return sorted(items)
            except TypeError:
                return items
        if isinstance(v, dict):
            return {str(k): self.to_json(x) for k, x in v.items()}
        return dynamic(f"a {type(v).__name__} value")

    # -- calls
    def _closure_of_def(self, fn: ast.FunctionDef, scope: _Scope) -> _Closure:
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        defaults = dict(zip(params[len(params) - len(fn.args.defaults) :], fn.args.defaults))
        for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
            params.append(a.arg)
            if d is not None:
                defaults[a.arg] = d
        return _Closure(params, defaults, fn.body, scope, fn.name)

    def call(self, fn: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if isinstance(fn, _Dyn):
            return fn
        if isinstance(fn, _Builtin):
            if fn.raw:
                return fn.fn(*args, **kwargs)
            d = _first_dyn(list(args) + list(kwargs.values()))
            if d is not None:
                return d
            return fn.fn(*[_plain(a) for a in args], **{k: _plain(v) for k, v in kwargs.items()})
        if not isinstance(fn, _Closure):
            raise _Unknown(f"call of {type(fn).__name__}")
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _Unknown("recursion")
        try:
            local = _Scope(parent=fn.scope)
            if len(args) > len(fn.params):
                raise _Unknown("arguments")
            for p, a in zip(fn.params, args):
                local.vars[p] = a
            for k, v in kwargs.items():
                local.vars[k] = v
            for p in fn.params:
                if p not in local.vars:
                    if p not in fn.defaults:
                        raise _Unknown("missing argument")
                    local.vars[p] = self.expr(fn.defaults[p], fn.scope)
            if isinstance(fn.body, list):
                done, value = self.exec_block(fn.body, local)
                return value if done else None
            return self.expr(fn.body, local)
        finally:
            self.depth -= 1

    # -- statements
    def exec_block(self, stmts: list[ast.stmt], scope: _Scope) -> tuple[bool, Any]:
        for stmt in stmts:
            if isinstance(stmt, ast.Return):
                return True, (self.expr(stmt.value, scope) if stmt.value else None)
            if isinstance(stmt, ast.If):
                test = self.expr(stmt.test, scope)
                if isinstance(test, _Dyn):
                    return True, test
                done, value = self.exec_block(stmt.body if _plain(test) else stmt.orelse, scope)
                if done:
                    return True, value
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                if stmt.value is None:
                    continue
                value = self.expr(stmt.value, scope)
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        scope.vars[t.id] = value
                    elif isinstance(t, (ast.Subscript, ast.Attribute)):
                        pass  # e.g. os.environ[N] = ... : no effect on the default
                    else:
                        raise _Unknown("assignment")
            elif isinstance(stmt, ast.FunctionDef):
                scope.vars[stmt.name] = self._closure_of_def(stmt, scope)
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                mod = stmt.module if isinstance(stmt, ast.ImportFrom) else None
                for a in stmt.names:
                    what = mod or a.name
                    scope.vars[(a.asname or a.name).split(".")[0]] = _Dyn(f"imports {what}")
            elif isinstance(stmt, ast.Raise):
                raise _Raised()
            elif isinstance(stmt, ast.Try):
                try:
                    done, value = self.exec_block(stmt.body, scope)
                except _Raised as e:
                    raise _Unknown("try") from e
                if done:
                    return True, value
                done, value = self.exec_block(stmt.orelse + stmt.finalbody, scope)
                if done:
                    return True, value
            elif isinstance(stmt, (ast.Expr, ast.Pass, ast.Assert, ast.Global, ast.Nonlocal)):
                pass  # logging, warnings: no effect on the value
            else:
                raise _Unknown(type(stmt).__name__.lower())
        return False, None

    # -- expressions
    def expr(self, node: ast.expr, scope: _Scope) -> Any:
        method = getattr(self, "_e_" + type(node).__name__, None)
        if method is None:
            raise _Unknown(type(node).__name__.lower())
        return method(node, scope)

    def _e_Constant(self, node: ast.Constant, scope: _Scope) -> Any:
        return node.value

    def _e_Name(self, node: ast.Name, scope: _Scope) -> Any:
        try:
            return scope.lookup(node.id)
        except KeyError:
            pass
        if node.id in self.module.assigns and node.id not in ("environment_variables", "logger"):
            return self.expr(self.module.assigns[node.id], self.globals)
        if node.id in _MODULES:
            return _Mod(node.id)
        if node.id == "__import__":
            return _Builtin("__import__", lambda m, *a, **k: _Dyn(f"imports {m}"))
        if node.id in ("__name__", "__file__"):
            return _Dyn(node.id)
        return self._builtin(node.id)

    def _builtin(self, name: str) -> Any:
        safe = {
            "int", "float", "bool", "str", "list", "tuple", "set", "frozenset", "dict",
            "max", "min", "len", "abs", "round", "sorted", "any", "all", "callable",
            "isinstance", "hasattr", "repr",
        }  # fmt: skip
        if name not in safe:
            raise _Unknown(f"name {name}")
        fn = getattr(builtins, name)
        if name in ("int", "float"):
            return _Builtin(name, self._number(fn))
        if name in ("max", "min", "sorted", "list", "tuple", "set", "frozenset"):
            return _Builtin(name, self._guard_iter(fn))
        if name == "callable":
            return _Builtin(name, lambda x: isinstance(x, (_Closure, _Builtin)))
        if name == "hasattr":
            return _Builtin(name, _hasattr)
        return _Builtin(name, fn)

    @staticmethod
    def _number(conv: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any) -> Any:
            try:
                return conv(*a)
            except (ValueError, TypeError) as e:
                raise _Raised() from e

        return run

    @staticmethod
    def _guard_iter(fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*a: Any, **k: Any) -> Any:
            for x in a:
                if isinstance(x, (list, tuple, set, frozenset)):
                    d = _first_dyn(x)
                    if d is not None:
                        return d
            return fn(*a, **k)

        return run

    def _e_Lambda(self, node: ast.Lambda, scope: _Scope) -> Any:
        params = [a.arg for a in node.args.posonlyargs + node.args.args]
        defaults = dict(zip(params[len(params) - len(node.args.defaults) :], node.args.defaults))
        return _Closure(params, defaults, node.body, scope)

    def _e_Attribute(self, node: ast.Attribute, scope: _Scope) -> Any:
        obj = self.expr(node.value, scope)
        if isinstance(obj, _Dyn):
            return obj
        if isinstance(obj, _Mod):
            q = f"{obj.name}.{node.attr}"
            if obj.name == "<module>":
                return _Dyn(f"value of {node.attr}")
            if q in ("os.getenv", "os.environ.get"):
                return _Builtin(q, self._getenv, raw=True)
            if q in _MODULES:
                return _Mod(q)
            if q in _DYN_FUNCS:
                reason = _DYN_FUNCS[q]
                return _Builtin(q, lambda *a, **k: _Dyn(reason))
            if q == "os.path.join":
                return _Builtin(q, _join, raw=True)
            if q in ("os.path.expanduser", "os.path.expandvars", "os.path.normpath"):
                return _Builtin(q, lambda p: p, raw=True)  # "~" stays symbolic
            if q in ("os.path.abspath", "os.path.realpath"):
                return _Builtin(q, _abspath, raw=True)
            if q in ("os.path.dirname", "os.path.basename"):
                return _Builtin(q, getattr(__import__("posixpath"), node.attr))
            if q == "json.loads":
                return _Builtin(q, self._number(json.loads))
            if q == "os.sep":
                return "/"
            return _Dyn(q)
        obj = _plain(obj)
        if isinstance(obj, str) and node.attr in _STR_METHODS:
            return _Builtin(node.attr, self._str_method(obj, node.attr))
        if isinstance(obj, (dict, list, tuple)) and node.attr in _CONTAINER_METHODS:
            return _Builtin(node.attr, getattr(obj, node.attr))
        raise _Unknown(f"attribute {node.attr}")

    @staticmethod
    def _str_method(s: str, name: str) -> Callable[..., Any]:
        fn = getattr(s, name)

        def run(*a: Any) -> Any:
            for x in a:
                if isinstance(x, _Dyn) or (isinstance(x, (list, tuple)) and _first_dyn(x)):
                    return _Dyn("computed text")
            return fn(*a)

        return run

    def _getenv(self, key: Any, default: Any = None) -> Any:
        # No variable is set: os.getenv(K, d) is d.  A path default built from another
        # variable keeps that variable by name (see the module docstring).
        if key != self.own and isinstance(key, str) and isinstance(default, (str, _Sym)):
            return _Sym("${%s:-%s}" % (key, _sym_text(default)), _plain(default))
        return default

    def _e_Call(self, node: ast.Call, scope: _Scope) -> Any:
        fn = self.expr(node.func, scope)
        args: list[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise _Unknown("starred")
            args.append(self.expr(a, scope))
        kwargs: dict[str, Any] = {}
        for k in node.keywords:
            if k.arg is None:
                raise _Unknown("**kwargs")
            kwargs[k.arg] = self.expr(k.value, scope)
        return self.call(fn, args, kwargs)

    def _e_Subscript(self, node: ast.Subscript, scope: _Scope) -> Any:
        obj = self.expr(node.value, scope)
        if isinstance(obj, _Mod):
            if obj.name == "os.environ":
                raise _Raised()  # KeyError: nothing is set
            if obj.name == "sys.modules":
                return _Mod("<module>")  # sys.modules[__name__]: envs itself
            raise _Unknown("subscript")
        if isinstance(node.slice, ast.Slice):
            parts = [self.expr(x, scope) if x is not None else None
                     for x in (node.slice.lower, node.slice.upper, node.slice.step)]  # fmt: skip
            d = _first_dyn([obj, *parts])
            return d if d else _plain(obj)[slice(*parts)]
        key = self.expr(node.slice, scope)
        d = _first_dyn([obj, key])
        if d is not None:
            return d
        try:
            return _plain(obj)[key]
        except (KeyError, IndexError, TypeError) as e:
            raise _Raised() from e

    def _e_JoinedStr(self, node: ast.JoinedStr, scope: _Scope) -> Any:
        parts: list[str] = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
                continue
            assert isinstance(v, ast.FormattedValue)
            x = self.expr(v.value, scope)
            if isinstance(x, _Dyn):
                return x
            spec = self.expr(v.format_spec, scope) if v.format_spec else ""
            if isinstance(spec, _Dyn):
                return spec
            if re.search(r"\d{5,}", str(spec)):
                raise _Unknown("format width")
            x = _plain(x)
            if v.conversion == ord("r"):
                x = repr(x)
            elif v.conversion == ord("s"):
                x = str(x)
            parts.append(format(x, spec))
        return "".join(parts)

    def _e_FormattedValue(self, node: ast.FormattedValue, scope: _Scope) -> Any:
        return self._e_JoinedStr(ast.JoinedStr(values=[node]), scope)

    def _e_BoolOp(self, node: ast.BoolOp, scope: _Scope) -> Any:
        is_or = isinstance(node.op, ast.Or)
        value: Any = None
        for sub in node.values:
            value = self.expr(sub, scope)
            if isinstance(value, _Dyn):
                return value
            if bool(_plain(value)) == is_or:
                return value
        return value

    def _e_UnaryOp(self, node: ast.UnaryOp, scope: _Scope) -> Any:
        v = self.expr(node.operand, scope)
        if isinstance(v, _Dyn):
            return v
        v = _plain(v)
        if isinstance(node.op, ast.Not):
            return not v
        if isinstance(node.op, ast.USub) and isinstance(v, (int, float)):
            return -v
        if isinstance(node.op, ast.UAdd) and isinstance(v, (int, float)):
            return +v
        raise _Unknown("unary operator")

    def _e_BinOp(self, node: ast.BinOp, scope: _Scope) -> Any:
        a, b = self.expr(node.left, scope), self.expr(node.right, scope)
        d = _first_dyn([a, b])
        if d is not None:
            return d
        a, b = _plain(a), _plain(b)
        try:
            return binop(node.op, a, b)
        except Unfoldable as e:
            raise _Unknown(str(e)) from None
        except (TypeError, ValueError, ZeroDivisionError, OverflowError) as e:
            raise _Raised() from e

    def _e_Compare(self, node: ast.Compare, scope: _Scope) -> Any:
        left = self.expr(node.left, scope)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.expr(right_node, scope)
            if isinstance(right, _Mod) and right.name == "os.environ":
                if isinstance(op, (ast.In, ast.NotIn)):
                    ok = isinstance(op, ast.NotIn)  # nothing is set
                else:
                    raise _Unknown("compare with os.environ")
            else:
                d = _first_dyn([left, right])
                if d is not None:
                    return d
                try:
                    ok = compare(op, _plain(left), _plain(right))
                except TypeError as e:
                    raise _Raised() from e
            if not ok:
                return False
            left = right
        return True

    def _e_IfExp(self, node: ast.IfExp, scope: _Scope) -> Any:
        test = self.expr(node.test, scope)
        if isinstance(test, _Dyn):
            return test
        return self.expr(node.body if _plain(test) else node.orelse, scope)

    def _e_NamedExpr(self, node: ast.NamedExpr, scope: _Scope) -> Any:
        value = self.expr(node.value, scope)
        if isinstance(node.target, ast.Name):
            scope.vars[node.target.id] = value
        return value

    def _e_Tuple(self, node: ast.Tuple, scope: _Scope) -> Any:
        return tuple(self.expr(e, scope) for e in node.elts)

    def _e_List(self, node: ast.List, scope: _Scope) -> Any:
        return [self.expr(e, scope) for e in node.elts]

    def _e_Set(self, node: ast.Set, scope: _Scope) -> Any:
        items = [self.expr(e, scope) for e in node.elts]
        d = _first_dyn(items)
        return d if d else set(_plain(i) for i in items)

    def _e_Dict(self, node: ast.Dict, scope: _Scope) -> Any:
        out: dict[Any, Any] = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                raise _Unknown("**dict")
            key = self.expr(k, scope)
            if isinstance(key, _Dyn):
                return key
            out[_plain(key)] = self.expr(v, scope)
        return out

    def _comprehension(self, node: Any, scope: _Scope) -> list[Any]:
        out: list[Any] = []

        def run(i: int, s: _Scope) -> None:
            if i == len(node.generators):
                out.append(self.expr(node.elt, s))
                if len(out) > MAX_SIZE:
                    raise _Unknown("size")
                return
            gen = node.generators[i]
            it = self.expr(gen.iter, s)
            if isinstance(it, _Dyn):
                raise _DynResult(it)
            if not isinstance(_plain(it), (list, tuple, set, frozenset, str, dict)):
                raise _Unknown("iteration")
            for item in _plain(it):
                inner = _Scope(parent=s)
                if not isinstance(gen.target, ast.Name):
                    raise _Unknown("comprehension target")
                inner.vars[gen.target.id] = item
                conds = [self.expr(c, inner) for c in gen.ifs]
                if any(isinstance(c, _Dyn) for c in conds):
                    raise _DynResult(_first_dyn(conds))
                if all(_plain(c) for c in conds):
                    run(i + 1, inner)

        run(0, scope)
        return out

    def _e_ListComp(self, node: ast.ListComp, scope: _Scope) -> Any:
        try:
            return self._comprehension(node, scope)
        except _DynResult as d:
            return d.value

    _e_GeneratorExp = _e_ListComp

    def _e_SetComp(self, node: ast.SetComp, scope: _Scope) -> Any:
        got = self._e_ListComp(node, scope)  # type: ignore[arg-type]
        return got if isinstance(got, _Dyn) else set(got)


class _DynResult(Exception):
    def __init__(self, value: Optional[_Dyn]):
        super().__init__()
        self.value = value or _Dyn("computed")


def _hasattr(obj: Any, attr: str) -> bool:
    if isinstance(obj, (str, int, float, list, tuple, dict)):
        return hasattr(obj, attr)
    raise _Unknown("hasattr")


def _sym_text(v: Any) -> str:
    return v.text if isinstance(v, _Sym) else str(v)


def _join(*parts: Any) -> Any:
    """os.path.join, keeping a `_Sym` symbolic."""
    if not parts:
        raise _Raised()
    d = _first_dyn(parts)
    if d is not None:
        return d
    text, plain = "", ""
    for p in parts:
        t, f = _sym_text(p), _plain(p)
        if not isinstance(f, str):
            raise _Raised()
        text = t if t.startswith("/") else (text.rstrip("/") + "/" + t if text else t)
        plain = f if f.startswith("/") else (plain.rstrip("/") + "/" + f if plain else f)
    if any(isinstance(p, _Sym) for p in parts):
        return _Sym(text, plain)
    return plain


def _abspath(p: Any) -> Any:
    text = _sym_text(p)
    if isinstance(p, _Dyn) or not isinstance(_plain(p), str):
        return p
    if text.startswith(("/", "~", "$")):
        return p
    return _Dyn("relative to the working directory")
