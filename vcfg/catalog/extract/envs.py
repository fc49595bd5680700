"""vLLM's environment variables, read statically from ``vllm/envs.py`` (never imported).

vLLM declares each variable as an entry ``"NAME": <callable>`` of the module-level dict
``environment_variables`` (0.33.0 envs.py:619), plus a typed stub ``NAME: type = default``
in the ``if TYPE_CHECKING:`` block (envs.py:14).  The stub is a type declaration only: its
default is wrong for several variables (research vllm-config-surface.md section 3.5), so the
catalog takes each fact from where vLLM really computes it:

- ``name``, ``loc``: the dict key and its line.
- ``type``: the stub's annotation as written; for the few un-stubbed names, inferred
  from the parsing idiom (``bool``, ``int | None``, ...).
- ``default``: the callable evaluated by a small static evaluator
  (`vcfg.catalog.extract.envs_eval`) with *no variable set*: ``bool(int(os.getenv(N, "0")))`` gives ``False``,
  ``int(os.getenv(N, "600"))`` gives ``600``; a default read from another variable is
  that variable's fallback (the other names are listed in ``reads``).  Two exceptions:

  * Paths are symbolic.  ``~`` is never expanded, and a path built from another
    variable keeps it in shell syntax, so ``VLLM_CACHE_ROOT`` defaults to
    ``"${XDG_CACHE_HOME:-~/.cache}/vllm"`` (envs.py:340 get_default_cache_root).
  * A value that depends on the machine or on code outside envs.py (torch version, CPU
    count, temp directory, a random name, another variable's *parsed* value) is
    ``{"$dynamic": "<reason>"}``; so is a construct the evaluator does not model.

- ``parse``: how the variable's own text is turned into a value, found by following
  every read of the variable (``os.getenv``/``os.environ``) up through the expression
  that uses it, into module-level helpers (``maybe_convert_int``) and factories
  (``env_with_choices``, ``deprecated_env``): ``bool(int(v))`` is ``bool_int``,
  ``v.lower() in (...)`` is ``bool_word`` (``truthy`` holds the tuple), ``int(v)`` with
  a URI check (get_vllm_port, envs.py:518) is ``port``, etc.  Anything else is ``other``.
- ``case_sensitive``: for ``choices``, the factory's flag; for ``bool_word``, False when
  the text is lower-cased before the test.
- ``choices``: the list given to ``env_with_choices`` and friends
  (a lambda listing an Enum's ``__members__`` is resolved by reading that class body,
  0.11.0 envs.py:612).  For a plain string variable whose stub says ``Literal[...]``
  the stub's values are kept as *advisory* choices: vLLM does not enforce them.
- ``can_raise``: a malformed value makes the callable raise (a conversion, a choice
  check, or an explicit ``raise`` in a helper it calls).
- ``reads``: other variables the callable (or a helper it calls) reads.

Comments and docstrings of envs.py are never stored.  A construct the extractor does not
understand yields ``parse="other"`` or a ``$dynamic`` default, never an exception.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterator, Optional, Sequence

from vcfg.catalog.extract.envs_eval import Evaluator, dynamic
from vcfg.catalog.extract.pysource import checker_branch, dotted
from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.model import EnvVar, Loc
from vcfg.errors import VcfgError
from vcfg.records import field, record

ENVS_FILE = "vllm/envs.py"

__all__ = ["extract_env_vars", "extract_env_vars_from_text", "ENVS_FILE"]


def extract_env_vars(src: VllmSource) -> list[EnvVar]:
    """Every variable of ``environment_variables`` in the source's ``vllm/envs.py``."""
    text = src.read(ENVS_FILE)
    if text is None:
        raise VcfgError(f"{src.description} has no {ENVS_FILE}")
    return extract_env_vars_from_text(text, read_module=src.read)


def extract_env_vars_from_text(
    text: str,
    read_module: Optional[Callable[[str], Optional[str]]] = None,
    *,
    file: str = ENVS_FILE,
    table: str = "environment_variables",
) -> list[EnvVar]:
    """Like `extract_env_vars`, from the text of an envs.py.

    ``read_module(rel_path)`` gives the text of another file of the tree (used only to
    resolve choices computed from an Enum class); None disables that.  ``file`` and
    ``table`` name another module in vLLM's form: a plugin's envs.py, whose dict of
    lambdas may have another name (vllm-ascend's ``env_variables``).
    """
    try:
        tree = ast.parse(text, filename=file)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        raise VcfgError(f"cannot parse {file}: {e}") from e
    module = EnvsModule(tree, read_module, table)
    out: list[EnvVar] = []
    for key, value in module.entries:
        try:
            out.append(_extract_one(module, key, value, file))
        except Exception:  # noqa: BLE001 - a construct not foreseen: keep the name only
            loc = Loc(file=file, line=key.lineno)
            out.append(EnvVar(name=str(key.value), type="Any", default=dynamic("not understood"), loc=loc))
    return out


# ----------------------------------------------------------------------------- module


class EnvsModule:
    """The parts of envs.py the extractor needs: stubs, helpers, the dict's entries."""

    def __init__(
        self,
        tree: ast.Module,
        read_module: Optional[Callable[[str], Optional[str]]],
        table: str = "environment_variables",
    ):
        self.read_module = read_module
        self.functions: dict[str, ast.FunctionDef] = {}
        self.assigns: dict[str, ast.expr] = {}
        self.stubs: dict[str, ast.expr] = {}
        self.entries: list[tuple[ast.Constant, ast.expr]] = []
        self._parents: dict[int, dict[int, ast.AST]] = {}
        self._nodes: dict[int, list[ast.AST]] = {}
        self.memo: dict[tuple[str, int], Any] = {}  # per-function facts, see users
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                self.functions[node.name] = node
            elif isinstance(node, ast.If) and checker_branch(node) is not None:
                for stmt in checker_branch(node) or []:
                    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                        self.stubs.setdefault(stmt.target.id, stmt.annotation)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        self.assigns[t.id] = node.value
                        if t.id == table and isinstance(node.value, ast.Dict):
                            self.entries = [
                                (k, v)
                                for k, v in zip(node.value.keys, node.value.values)
                                if isinstance(k, ast.Constant) and isinstance(k.value, str)
                            ]

    def nodes(self, root: ast.AST) -> list[ast.AST]:
        """Every node under ``root`` (cached: helpers are visited once per entry)."""
        got = self._nodes.get(id(root))
        if got is None:
            got = self._nodes[id(root)] = list(ast.walk(root))
        return got

    def parents(self, root: ast.AST) -> dict[int, ast.AST]:
        """child id -> parent, for the subtree under ``root`` (cached)."""
        got = self._parents.get(id(root))
        if got is None:
            got = {}
            for node in self.nodes(root):
                for child in ast.iter_child_nodes(node):
                    got[id(child)] = node
            self._parents[id(root)] = got
        return got


_GETTERS = {"os.getenv", "os.environ.get", "environ.get", "getenv"}
_ENVIRON = ("os.environ", "environ")


# ----------------------------------------------------------------------------- one entry


def _extract_one(module: EnvsModule, key: ast.Constant, value: ast.expr, file: str = ENVS_FILE) -> EnvVar:
    name = str(key.value)  # the keys are string constants (EnvsModule.entries)
    default = Evaluator(module, name).default_of(value)
    flow = _Classifier(module, name).classify(value)
    parse = flow.kind
    choices = flow.choices
    case_sensitive = flow.case_sensitive
    stub = module.stubs.get(name)
    if parse == "str" and choices is None and stub is not None:
        choices = _literal_strings(stub)  # advisory only: vLLM does not check these
    can_raise = parse in _RAISING or flow.raises
    return EnvVar(
        name=name,
        type=ast.unparse(stub) if stub is not None else _infer_type(parse, default, flow),
        default=default,
        parse=parse,  # type: ignore[arg-type]
        choices=choices,
        case_sensitive=case_sensitive,
        truthy=flow.truthy if parse == "bool_word" else None,
        can_raise=can_raise,
        reads=_Reads(module, name).of(value),
        loc=Loc(file=file, line=key.lineno),
    )


_RAISING = {"int", "float", "bool_int", "json", "choices", "set_choices", "port"}


def _infer_type(parse: str, default: Any, flow: "_Flow") -> str:
    base = {
        "bool_int": "bool",
        "bool_word": "bool",
        "int": "int",
        "port": "int",
        "float": "float",
        "str": "str",
        "choices": "str",
        "list": "list[str]",
        "set_choices": "set[str]" if flow.is_set else "list[str]",
        "json": "dict[str, Any]",
    }.get(parse)
    if base is None:
        base = {bool: "bool", int: "int", float: "float", str: "str"}.get(type(default), "Any")
    return f"{base} | None" if default is None and base != "Any" else base


def _literal_strings(annotation: ast.expr) -> Optional[list[str]]:
    """The string members of a ``Literal[...]`` inside an annotation, if any."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Subscript) and dotted(node.value).split(".")[-1] == "Literal":
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            vals = _strings(elts)
            if vals:
                return vals
    return None


def _strings(elts: Sequence[ast.expr]) -> Optional[list[str]]:
    """The values of the constants among ``elts``, when each of them is a string."""
    vals: list[str] = []
    for e in elts:
        if isinstance(e, ast.Constant):
            if not isinstance(e.value, str):
                return None
            vals.append(e.value)
    return vals


# ----------------------------------------------------------------------------- reads


@record
class _Access:
    """How one subtree touches the environment (computed once per subtree)."""

    #: (node, key expression) of ``os.getenv(K, ...)``/``os.environ.get``/``os.environ[K]``
    reads: list[tuple[ast.AST, ast.AST]] = field(default_factory=list)
    #: constant names read, presence tests and ``sys.modules[__name__].X`` included
    names: list[str] = field(default_factory=list)
    #: module-level functions named in the subtree
    functions: list[str] = field(default_factory=list)


def _access(module: "EnvsModule", root: ast.AST) -> _Access:
    key = ("access", id(root))
    got = module.memo.get(key)
    if got is not None:
        return got
    acc = _Access()
    for node in module.nodes(root):
        arg: Optional[ast.AST] = None
        if isinstance(node, ast.Call):
            if node.args and dotted(node.func) in _GETTERS:
                arg = node.args[0]
                acc.reads.append((node, arg))
        elif isinstance(node, ast.Subscript):
            if dotted(node.value) in _ENVIRON:
                arg = node.slice
                acc.reads.append((node, arg))
        elif isinstance(node, ast.Compare):
            if (
                len(node.ops) == 1
                and isinstance(node.ops[0], (ast.In, ast.NotIn))
                and dotted(node.comparators[0]) in _ENVIRON
            ):
                arg = node.left
        elif isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Subscript) and dotted(node.value.value) == "sys.modules":
                acc.names.append(node.attr)  # sys.modules[__name__].X: another variable
        elif isinstance(node, ast.Name) and node.id in module.functions:
            acc.functions.append(node.id)
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            acc.names.append(arg.value)
    module.memo[key] = acc
    return acc


class _Reads:
    """Names of other variables the callable reads, in order of first appearance.

    Follows module-level functions the callable calls or names (transitively).
    """

    def __init__(self, module: EnvsModule, own: str):
        self.module = module
        self.own = own

    def of(self, value: ast.expr) -> list[str]:
        out: list[str] = []
        seen_fns: set[str] = set()
        todo: list[ast.AST] = [value]
        while todo:
            acc = _access(self.module, todo.pop(0))
            for name in acc.names:
                if name != self.own and name not in out:
                    out.append(name)
            for fn in acc.functions:
                if fn not in seen_fns:
                    seen_fns.add(fn)
                    todo.append(self.module.functions[fn])
        return out


# ----------------------------------------------------------------------------- parse


@record
class _Use:
    """What happens to one read of the variable's own text."""

    kind: str  # an EnvParse, or "presence"/"neutral"/"uri"/"other"
    result: bool = False  # the value reaches what the callable returns
    truthy: Optional[list[str]] = None
    case_sensitive: bool = True


@record
class _Flow:
    kind: str = "other"
    choices: Optional[list[str]] = None
    case_sensitive: bool = True
    truthy: Optional[list[str]] = None
    raises: bool = False
    is_set: bool = False


_CONVERSIONS = ("bool_int", "int", "float", "json")  # in order of precedence
_NUMERIC = {"int", "float", "bool_int"}
_PATH_FUNCS = {
    "os.path.expanduser", "os.path.expandvars", "os.path.abspath", "os.path.realpath",
    "os.path.normpath", "os.path.join", "str", "list", "set", "tuple", "sorted",
}  # fmt: skip
_NEUTRAL_FUNCS = {
    "os.path.exists", "os.path.isfile", "os.path.isdir", "open", "isinstance", "len",
    "print", "repr",
}  # fmt: skip


class _Classifier:
    """Finds the `EnvParse` of one entry by following reads of its own name."""

    def __init__(self, module: EnvsModule, own: str):
        self.module = module
        self.own = own
        self._visiting: set[tuple[int, str, bool]] = set()

    # -- entry points
    def classify(self, value: ast.expr) -> _Flow:
        if isinstance(value, ast.Call):
            fn = self._function(value.func)
            if fn is not None:
                return self._factory(fn, value)
        root: ast.AST = self._function(value) or value  # a helper named by the entry
        return self._combine(self._uses_in(root, bindings={}), raises=self._raises(root))

    def _factory(self, fn: ast.FunctionDef, call: ast.Call) -> _Flow:
        """A call building the callable: ``env_with_choices(N, d, [...])`` and the like."""
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        bound: dict[str, ast.expr] = dict(zip(params, call.args))
        bound.update({k.arg: k.value for k in call.keywords if k.arg})
        if "choices" in params:
            # env_with_choices / env_list_with_choices / env_set_with_choices
            # (0.33.0 envs.py:401, 446, 501): ValueError unless the value is listed.
            many = "list" in fn.name or "set" in fn.name
            cs_node = bound.get("case_sensitive")
            if cs_node is None:
                cs_node = _param_default(fn, "case_sensitive")
            cs = cs_node.value if isinstance(cs_node, ast.Constant) else True
            return _Flow(
                kind="set_choices" if many else "choices",
                choices=self._choices(bound.get("choices")),
                case_sensitive=bool(cs),
                raises=True,
                is_set="set" in fn.name,
            )
        # A wrapper such as deprecated_env(N, ..., getter) (0.22.1 envs.py:347): the
        # getter it is given decides; else the factory's own body reads the variable
        # through the parameter that receives the name (get_env_or_set_default).
        for arg in list(call.args) + [k.value for k in call.keywords]:
            if isinstance(arg, (ast.Lambda, ast.Call)) or self._function(arg) is not None:
                inner = self.classify(arg)
                if inner.kind != "other" or inner.raises:
                    return inner
        own_params = {p for p, a in bound.items() if isinstance(a, ast.Constant) and a.value == self.own}
        uses = self._uses_in(fn, bindings={p: self.own for p in own_params})
        return self._combine(uses, raises=self._raises(fn))

    # -- resolving names
    def _function(self, node: ast.AST) -> Optional[ast.FunctionDef]:
        if isinstance(node, ast.Name):
            return self.module.functions.get(node.id)
        return None

    def _choices(self, node: Optional[ast.expr]) -> Optional[list[str]]:
        if isinstance(node, ast.Name) and node.id in self.module.assigns:
            node = self.module.assigns[node.id]
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            vals = _strings(node.elts)
            return vals if vals is not None and len(vals) == len(node.elts) else None
        if isinstance(node, ast.Lambda):
            return _enum_members(node, self.module.read_module)
        return None

    # -- following reads
    def _own_reads(self, root: ast.AST, bindings: dict[str, str]) -> Iterator[ast.AST]:
        for node, key in _access(self.module, root).reads:
            if self._is_own(key, bindings):
                yield node

    def _is_own(self, arg: ast.AST, bindings: dict[str, str]) -> bool:
        if isinstance(arg, ast.Constant):
            return arg.value == self.own
        return isinstance(arg, ast.Name) and bindings.get(arg.id) == self.own

    def _uses_in(self, root: ast.AST, bindings: dict[str, str]) -> list[_Use]:
        """Uses of own reads under ``root`` and in the helpers it calls without arguments."""
        uses: list[_Use] = []
        seen: set[str] = set()
        todo: list[tuple[ast.AST, dict[str, str]]] = [(root, bindings)]
        while todo:
            node, b = todo.pop(0)
            for read in self._own_reads(node, b):
                uses.extend(self._follow(read, node, "str", False))
            for fn in self._called_helpers(node):
                if fn.name not in seen:
                    seen.add(fn.name)
                    todo.append((fn, {}))
        return uses

    def _called_helpers(self, root: ast.AST) -> Iterator[ast.FunctionDef]:
        # helpers given the value as an argument are followed by _walk instead
        key = ("called", id(root))
        got = self.module.memo.get(key)
        if got is None:
            got = self.module.memo[key] = [
                fn
                for sub in self.module.nodes(root)
                if isinstance(sub, ast.Call) and not sub.args
                for fn in [self._function(sub.func)]
                if fn is not None
            ]
        return iter(got)

    def _follow(self, node: ast.AST, root: ast.AST, kind: str, fold: bool) -> list[_Use]:
        key = (id(node), kind, fold)
        if key in self._visiting:
            return []
        self._visiting.add(key)
        try:
            return self._walk(node, root, kind, fold)
        finally:
            self._visiting.discard(key)

    def _walk(self, cur: ast.AST, root: ast.AST, kind: str, fold: bool) -> list[_Use]:
        """Walk up from an expression holding the value, applying what each parent does.

        ``kind`` is what the value has become so far ("str", "int", "bool_int", ...).
        """
        parents = self.module.parents(root)
        while True:
            p = parents.get(id(cur))
            if p is None or isinstance(p, (ast.Lambda, ast.Return)):
                return [_Use(kind, result=True)]
            if isinstance(p, ast.keyword):
                cur = p
                continue
            if isinstance(p, ast.Call):
                if cur is p.func:
                    return [_Use("other")]
                got = self._call(p, cur, kind)
                if isinstance(got, _Use):
                    return [got]
                kind = got
                cur = p
                continue
            if isinstance(p, ast.Attribute) and p.value is cur:
                call = parents.get(id(p))
                if not (isinstance(call, ast.Call) and call.func is p):
                    return [_Use("other")]
                if p.attr in ("lower", "upper", "casefold"):
                    fold = True
                elif p.attr == "split":
                    kind = "list"
                elif p.attr not in ("strip", "lstrip", "rstrip"):
                    return [_Use(kind if kind in _NUMERIC else "other")]
                cur = call
                continue
            if isinstance(p, ast.Compare):
                use = self._compare(p, cur, kind, fold)
                if use.result:  # a test's outcome: is it what the callable returns?
                    use.result = any(u.result for u in self._follow(p, root, use.kind, False))
                return [use]
            if isinstance(p, ast.BoolOp):
                cur = p
                continue
            if isinstance(p, ast.IfExp):
                if cur is p.test:
                    return [_Use(kind if kind in _NUMERIC else "presence")]
                cur = p
                continue
            if isinstance(p, ast.NamedExpr) and isinstance(p.target, ast.Name):
                # `val if (val := float(v)) > 0 else 10.0` (0.33.0 envs.py:875)
                named = self._name_uses(p.target.id, root, p, kind, fold, ordered=False)
                return named + self._follow(p, root, kind, fold)
            if isinstance(p, ast.Assign) and len(p.targets) == 1 and isinstance(p.targets[0], ast.Name):
                return self._name_uses(p.targets[0].id, root, p, kind, fold, ordered=True) or [_Use("neutral")]
            if isinstance(p, ast.comprehension) and cur is p.iter:
                return [_Use(kind, result=True)]
            if isinstance(p, (ast.If, ast.While, ast.UnaryOp, ast.Expr, ast.FormattedValue)):
                return [_Use(kind if kind in _NUMERIC else "neutral")]
            return [_Use(kind if kind in _NUMERIC else "other")]

    def _call(self, p: ast.Call, cur: ast.AST, kind: str) -> str | _Use:
        """What the call ``p`` does to its argument ``cur``: a new kind, or a final use."""
        fname = dotted(p.func)
        short = fname.rsplit(".", 1)[-1]
        if fname == "int":
            return "int" if kind in ("str", "int") else kind
        if fname == "float":
            return "float" if kind == "str" else kind
        if fname == "bool":
            return {"int": "bool_int", "str": "truthiness"}.get(kind, kind)
        if fname in ("json.loads", "json.load"):
            return "json"
        if fname in _PATH_FUNCS:
            return kind
        if fname in _NEUTRAL_FUNCS or fname.startswith(("logger.", "logging.", "warnings.")):
            return _Use("neutral")
        if "url" in short.lower():
            return _Use("uri")  # get_vllm_port's URI check (0.33.0 envs.py:518)
        if fname in self.module.functions and cur in p.args:
            helper = self._helper_kind(self.module.functions[fname], p.args.index(cur), kind)
            return helper if helper is not None else _Use("other")
        if short == "get" and isinstance(_receiver(p), ast.Dict):
            return "map"  # {"1": True, "0": False}.get(v) (0.33.0 envs.py:649)
        return _Use(kind if kind in _NUMERIC else "other")

    def _name_uses(
        self, name: str, root: ast.AST, binding: ast.expr | ast.stmt, kind: str, fold: bool, ordered: bool
    ) -> list[_Use]:
        """A local bound to the value: follow every load of it in the same function."""
        parents = self.module.parents(root)
        scope = root
        p = parents.get(id(binding))
        while p is not None:
            if isinstance(p, (ast.FunctionDef, ast.Lambda)):
                scope = p
                break
            p = parents.get(id(p))
        out: list[_Use] = []
        for n in self.module.nodes(scope):
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
                if ordered and (n.lineno, n.col_offset) < (binding.lineno, binding.col_offset):
                    continue
                out.extend(self._follow(n, root, kind, fold))
        return out

    def _compare(self, p: ast.Compare, cur: ast.AST, kind: str, fold: bool) -> _Use:
        if kind in _NUMERIC:
            return _Use(kind)
        if cur is not p.left or len(p.ops) != 1:
            return _Use("other")
        op, rhs = p.ops[0], p.comparators[0]
        if isinstance(op, (ast.Is, ast.IsNot)):
            return _Use("presence")
        if isinstance(op, ast.In) and isinstance(rhs, (ast.Tuple, ast.List, ast.Set)):
            vals = _strings(rhs.elts)
            if vals and len(vals) == len(rhs.elts):
                return _Use("bool_word", result=True, truthy=vals, case_sensitive=not fold)
        if isinstance(op, ast.Eq) and isinstance(rhs, ast.Constant) and isinstance(rhs.value, str):
            return _Use("bool_word", result=True, truthy=[rhs.value], case_sensitive=not fold)
        return _Use("other", result=True)

    def _helper_kind(self, fn: ast.FunctionDef, index: int, kind: str) -> Optional[str]:
        """What a module-level helper (maybe_convert_int, ...) does to an argument."""
        params = fn.args.posonlyargs + fn.args.args
        if index >= len(params):
            return None
        pname = params[index].arg
        uses: list[_Use] = []
        for n in self.module.nodes(fn):
            if isinstance(n, ast.Name) and n.id == pname and isinstance(n.ctx, ast.Load):
                uses.extend(self._follow(n, fn, kind, False))
        flow = self._combine(uses, raises=False)
        return flow.kind if flow.kind != "other" else None

    # -- combining
    def _combine(self, uses: list[_Use], raises: bool) -> _Flow:
        kinds = {u.kind for u in uses}
        if "uri" in kinds and "int" in kinds:
            return _Flow(kind="port", raises=True)
        for k in _CONVERSIONS:
            if k in kinds:
                return _Flow(kind=k, raises=True)
        results = [u for u in uses if u.result]
        for k in ("bool_word", "list", "str"):
            for u in results:
                if u.kind == k:
                    if raises and k != "bool_word":
                        return _Flow(kind="other", raises=True)
                    return _Flow(kind=k, truthy=u.truthy, case_sensitive=u.case_sensitive, raises=raises)
        return _Flow(kind="other", raises=raises)

    def _raises(self, root: ast.AST) -> bool:
        """An explicit ``raise`` in the helper functions reached (e.g. a missing binary)."""
        seen: set[str] = set()
        todo = [root]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.FunctionDef) and any(isinstance(s, ast.Raise) for s in self.module.nodes(node)):
                return True
            for fn in self._called_helpers(node):
                if fn.name not in seen:
                    seen.add(fn.name)
                    todo.append(fn)
        return False


def _receiver(call: ast.Call) -> Optional[ast.AST]:
    return call.func.value if isinstance(call.func, ast.Attribute) else None


def _param_default(fn: ast.FunctionDef, name: str) -> Optional[ast.expr]:
    pos = fn.args.posonlyargs + fn.args.args
    defaults = fn.args.defaults
    for i, a in enumerate(pos):
        if a.arg == name:
            j = i - (len(pos) - len(defaults))
            return defaults[j] if j >= 0 else None
    for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
        if a.arg == name:
            return d
    return None


def _enum_members(fn: ast.Lambda, read_module: Optional[Callable[[str], Optional[str]]]) -> Optional[list[str]]:
    """Choices computed as ``list(__import__("m", ...).Cls.__members__.keys())``.

    0.11.0 envs.py:612: read the class body of ``Cls`` in module ``m`` instead.
    """
    if read_module is None:
        return None
    for node in ast.walk(fn.body):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "__members__"
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Call)
            and dotted(node.value.value.func) == "__import__"
            and node.value.value.args
            and isinstance(node.value.value.args[0], ast.Constant)
            and isinstance(node.value.value.args[0].value, str)
        ):
            return _class_members(node.value.value.args[0].value, node.value.attr, read_module)
    return None


def _class_members(
    module: str, cls: str, read_module: Callable[[str], Optional[str]], depth: int = 0
) -> Optional[list[str]]:
    base = module.replace(".", "/")
    text = read_module(base + ".py") or read_module(base + "/__init__.py")
    if text is None or depth > 3:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            names: list[str] = []
            for stmt in node.body:
                targets = (
                    stmt.targets
                    if isinstance(stmt, ast.Assign)
                    else [stmt.target]
                    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None
                    else []
                )
                for t in targets:
                    if isinstance(t, ast.Name) and not t.id.startswith("_"):
                        names.append(t.id)
            return names
        if isinstance(node, ast.ImportFrom) and node.module and any((a.asname or a.name) == cls for a in node.names):
            real = next(a.name for a in node.names if (a.asname or a.name) == cls)
            return _class_members(node.module, real, read_module, depth + 1)
    return None
