"""The Python-source toolkit the extractors share: names of expressions, modules and
relative imports, ``if TYPE_CHECKING:`` branches, module-level name binding, and constant folding (one operator
table, one size guard), so that every extractor reads vLLM's source the same way.

Each extractor keeps its own evaluator (what an unknown value is differs: the env
reader evaluates a default with nothing set, the flag replay runs ``add_cli_args``, the
connector reader folds literals), but they fold an operator and compare two values
here.  Nothing is imported or executed."""

from __future__ import annotations

import ast
import operator
from typing import Any, Callable, Optional

# --------------------------------------------------------------------------- names


def dotted(node: ast.AST) -> str:
    """``os.path.join`` for an Attribute chain of Names, else ''."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def last_name(expr: ast.expr) -> str:
    """The last name of ``a.b.C``, ``C(...)`` or ``C[...]``: ``C``; else ''."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Call):
        return last_name(expr.func)
    if isinstance(expr, ast.Subscript):
        return last_name(expr.value)
    return ""


def module_of(path: str) -> str:
    """``vllm/config/cache.py`` -> ``vllm.config.cache``; a package's ``__init__.py`` -> the package."""
    mod = path[:-3] if path.endswith(".py") else path
    mod = mod.replace("/", ".")
    return mod[: -len(".__init__")] if mod.endswith(".__init__") else mod


def import_target(path: str, level: int, module: Optional[str]) -> Optional[str]:
    """The absolute module a ``from <level dots><module> import`` in file ``path`` reads;
    None for a relative import that climbs above the top package (Python refuses it)."""
    if level == 0:
        return module
    package = module_of(path).split(".")
    if not path.endswith("__init__.py"):
        package = package[:-1]
    if level - 1 > len(package):
        return None
    base = package[: len(package) - (level - 1)] + (module.split(".") if module else [])
    return ".".join(base) if base else None


# --------------------------------------------------------------------------- TYPE_CHECKING


def type_checking(test: ast.expr) -> Optional[bool]:
    """True for ``if TYPE_CHECKING:`` (its body is for type checkers only, its ``else``
    runs), False for ``if not TYPE_CHECKING:`` (the other way round), None for any
    other test.  ``typing.TYPE_CHECKING`` counts too."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = type_checking(test.operand)
        return None if inner is None else not inner
    if isinstance(test, (ast.Name, ast.Attribute)) and last_name(test) == "TYPE_CHECKING":
        return True
    return None


def runtime_branch(node: ast.If) -> Optional[list[ast.stmt]]:
    """The statements of a ``TYPE_CHECKING`` test that run; None for another ``if``."""
    tc = type_checking(node.test)
    if tc is None:
        return None
    return node.orelse if tc else node.body


def checker_branch(node: ast.If) -> Optional[list[ast.stmt]]:
    """The statements of a ``TYPE_CHECKING`` test that only type checkers see."""
    tc = type_checking(node.test)
    if tc is None:
        return None
    return node.body if tc else node.orelse


# --------------------------------------------------------------------------- name binding

#: the statements that bind a module-level name
Binder = ast.stmt


def module_bindings(body: list[ast.stmt]) -> tuple[dict[str, Binder], list[ast.ImportFrom]]:
    """The statement that binds each module-level name of ``body``, as Python binds it
    at run time, and the ``from X import *`` statements.

    A binding is an assignment to a plain name (an annotated one with a value), a class
    or function, or an import (``import a.b`` binds ``a``).  The branch of ``if
    TYPE_CHECKING:`` that runs, ``try`` bodies, their ``else`` and ``finally``, and
    ``with`` bodies count as the enclosing level, where a later binding replaces an
    earlier one.  A name bound only conditionally (either branch of another ``if``, an
    ``except`` handler, the branch only type checkers see; vLLM swaps aliases there,
    e.g. ``LoadFormats = str``, config/load.py:16-21 @0.33) is a fallback: kept when
    nothing binds the name unconditionally, the first such fallback winning."""
    out: dict[str, Binder] = {}
    stars: list[ast.ImportFrom] = []

    def bind(name: str, st: Binder, conditional: bool) -> None:
        if conditional and name in out:
            return
        out.pop(name, None)  # in the order of the bindings that count
        out[name] = st

    def visit(stmts: list[ast.stmt], conditional: bool) -> None:
        for st in stmts:
            if isinstance(st, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                bind(st.name, st, conditional)
            elif isinstance(st, ast.Assign):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        bind(t.id, st, conditional)
            elif isinstance(st, ast.AnnAssign):
                if isinstance(st.target, ast.Name) and st.value is not None:
                    bind(st.target.id, st, conditional)
            elif isinstance(st, ast.ImportFrom):
                for a in st.names:
                    if a.name == "*":
                        stars.append(st)
                    else:
                        bind(a.asname or a.name, st, conditional)
            elif isinstance(st, ast.Import):
                for a in st.names:
                    bind(a.asname or a.name.split(".")[0], st, conditional)
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
                visit(st.finalbody, conditional)
            elif isinstance(st, ast.With):
                visit(st.body, conditional)

    visit(body, False)
    return out, stars


def bound_import(st: Binder, name: str) -> Optional[ast.alias]:
    """The alias of import statement ``st`` that binds ``name``."""
    if isinstance(st, ast.Import):
        return next((a for a in st.names if (a.asname or a.name.split(".")[0]) == name), None)
    if isinstance(st, ast.ImportFrom):
        return next((a for a in st.names if (a.asname or a.name) == name), None)
    return None


# --------------------------------------------------------------------------- folding


class Unfoldable(Exception):
    """An operator the toolkit does not fold, or operands whose result could be huge
    (folding must stay cheap on any source: ``"x" * 10**9``, ``2 ** 10**6``)."""


BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.BitOr: operator.or_,
    ast.BitAnd: operator.and_,
}

#: bounds of a fold: bits of an integer result, items of a repeated or joined sequence
MAX_BITS = 1024
MAX_SIZE = 100_000


def _number(x: Any) -> bool:
    return isinstance(x, (int, float))


def check_size(op: ast.operator, a: Any, b: Any) -> None:
    """Raise `Unfoldable` when ``a <op> b`` could be huge."""
    if isinstance(op, ast.Pow):
        if not (_number(a) and _number(b)) or abs(b) > 256:
            raise Unfoldable("power")
        if isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a).bit_length() * b > MAX_BITS:
            raise Unfoldable("power")
    elif isinstance(op, ast.LShift):
        if not (isinstance(b, int) and 0 <= b <= 256):
            raise Unfoldable("shift")
    elif isinstance(op, ast.Mult):
        if isinstance(a, int) and isinstance(b, int):
            if abs(a).bit_length() + abs(b).bit_length() > MAX_BITS:
                raise Unfoldable("product")
        elif not (_number(a) and _number(b)):
            seq, n = (a, b) if isinstance(b, int) else (b, a)
            if not isinstance(n, int) or not hasattr(seq, "__len__") or n * len(seq) > MAX_SIZE:
                raise Unfoldable("repetition")
    elif isinstance(op, ast.Add) and hasattr(a, "__len__") and hasattr(b, "__len__"):
        if len(a) + len(b) > MAX_SIZE:
            raise Unfoldable("size")


def binop(op: ast.operator, a: Any, b: Any) -> Any:
    """``a <op> b`` as Python computes it (its exceptions included), or `Unfoldable`."""
    fn = BINOPS.get(type(op))
    if fn is None:
        raise Unfoldable(type(op).__name__)
    check_size(op, a, b)
    return fn(a, b)


def compare(op: ast.cmpop, a: Any, b: Any) -> bool:
    """``a <op> b`` for folded values (a ``TypeError`` as Python raises it).  ``is`` is
    identity only for None and booleans; other folded values are copies, compared by value."""
    if isinstance(op, ast.Is):
        return a is b if b is None or a is None or isinstance(b, bool) else bool(a == b)
    if isinstance(op, ast.IsNot):
        return a is not b if b is None or a is None or isinstance(b, bool) else bool(a != b)
    if isinstance(op, ast.In):
        return a in b
    if isinstance(op, ast.NotIn):
        return a not in b
    fn = _CMPOPS.get(type(op))
    if fn is None:  # pragma: no cover - every ast.cmpop is listed
        raise Unfoldable(type(op).__name__)
    return bool(fn(a, b))


_CMPOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
