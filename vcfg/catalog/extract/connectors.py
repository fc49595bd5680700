"""The KV connector registry of a vLLM release, and the extra-config keys each reads.

Registry.  vLLM registers its in-tree connectors with module-level calls
``KVConnectorFactory.register_connector("<name>", "<module>", "<class>")`` at the
bottom of ``vllm/distributed/kv_transfer/kv_connector/factory.py`` (factory.py:90-130
@0.10.0, 149-224 @0.20.0, 153-245 @0.33.0).  A static scan of those calls gives the
registry exactly; registrations made by plugins are invisible here.

Extra-config keys.  ``kv_connector_extra_config`` is an untyped dict
(``KVTransferConfig``, config/kv_transfer.py @0.33.0); its only schema is the
places that read it.  We read three shapes with ``ast``:

* ``<x>.get_from_extra_config(KEY, DEFAULT)`` -- the helper is ``dict.get``
  (config/kv_transfer.py:138-139 @0.33.0);
* ``<expr>.get(KEY[, DEFAULT])`` where the source text of ``<expr>`` mentions
  ``extra_config`` (``kv_transfer_config.kv_connector_extra_config``, a local
  ``extra_config`` / ``kvc_extra_config`` variable, ...);
* ``<...extra_config...>[KEY]`` (a load): the key is required (``has_default``
  False), unless a membership test on the same key guards it.

A wrapping ``int()``/``float()``/``bool()``/``str()`` is recorded as the key's
``type``.  Defaults become JSON values; names of module constants (and class
attributes such as ``SomeConstants.DEFAULT_X``) are folded, also through one
``from <in-tree module> import NAME``; anything else is ``{"$dynamic": "<expr>"}``.

Attribution.  A connector's keys are those read in

1. its own code: the module's file, or every file of its package when the module
   is a package (``v1.nixl`` @0.33.0), and
2. the in-tree modules those files import (any import statement, also inside
   functions), one level deep, limited to the ``kv_connector`` folder
   (``vllm/distributed/kv_transfer/kv_connector/``).

Known limits: keys read by external packages (nixl, mooncake, lmcache, plugins),
keys forwarded wholesale (``lmcache.*`` prefixes, ``dict(extra_config)`` copies),
keys read two imports away or by code loaded by name at run time (the offload
specs under ``vllm/v1/kv_offload``, e.g. ``cpu_bytes_to_use``) are not found; the
knowledge packs (``data/knowledge/connectors.toml``) carry those facts by hand.
"""

from __future__ import annotations

import ast
import bisect
import math
from typing import Any, Callable, Iterable, Iterator, Optional

from vcfg.catalog.extract.pysource import Unfoldable, binop, bound_import, import_target, module_bindings
from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.model import Connector, ExtraKey, Loc
from vcfg.records import field, record

FACTORY = "vllm/distributed/kv_transfer/kv_connector/factory.py"
KV_CONNECTOR_DIR = "vllm/distributed/kv_transfer/kv_connector/"

_COERCIONS = {"int", "float", "bool", "str"}
_DYNAMIC_MAX = 80


# --------------------------------------------------------------------------- registry


def extract_connectors(src: VllmSource) -> list[Connector]:
    """Every in-tree ``register_connector`` call, with the keys its code reads."""
    tree = src.tree(FACTORY)
    if tree is None:
        return []
    reader = _TreeReader(src)
    out: list[Connector] = []
    seen: set[str] = set()
    for node in ast.walk(tree):
        reg = _registration(node)
        if reg is None or reg[0] in seen:
            continue
        name, module, class_name = reg
        seen.add(name)
        source_file = module_file(src, module)
        keys: list[ExtraKey] = []
        if source_file is not None:
            try:
                keys = _connector_keys(reader, source_file)
            except RecursionError:  # pathological source: skip its keys, keep the entry
                keys = []
        out.append(
            Connector(
                name=name,
                module=module,
                class_name=class_name,
                loc=Loc(file=FACTORY, line=node.lineno),  # type: ignore[attr-defined]
                source_file=source_file,
                extra_keys=keys,
            )
        )
    out.sort(key=lambda c: c.loc.line)
    return out


def _registration(node: ast.AST) -> Optional[tuple[str, str, str]]:
    """(name, module, class) of a ``KVConnectorFactory.register_connector(...)`` call."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    if not (
        isinstance(f, ast.Attribute)
        and f.attr == "register_connector"
        and isinstance(f.value, ast.Name)
        and f.value.id == "KVConnectorFactory"
    ):
        return None
    values: list[Optional[str]] = [_str_const(a) for a in node.args[:3]]
    values += [None] * (3 - len(values))
    for kw in node.keywords:
        slot = {"name": 0, "module_path": 1, "class_name": 2}.get(kw.arg or "")
        if slot is not None:
            values[slot] = _str_const(kw.value)
    if any(v is None for v in values):
        return None  # a computed registration: not something we can name statically
    return values[0], values[1], values[2]  # type: ignore[return-value]


def module_file(src: VllmSource, module: str) -> Optional[str]:
    """The file of a dotted module in the tree: ``pkg/__init__.py`` or ``mod.py``."""
    base = module.replace(".", "/")
    for cand in (f"{base}/__init__.py", f"{base}.py"):
        if src.exists(cand):
            return cand
    return None


# --------------------------------------------------------------------------- attribution


def connector_keys(src: VllmSource, source_file: str, dep_prefix: str) -> list[ExtraKey]:
    """The extra-config keys the connector in ``source_file`` reads, following its
    imports one level into ``dep_prefix`` (a plugin's connectors: its KV folder)."""
    try:
        return _connector_keys(_TreeReader(src), source_file, dep_prefix)
    except RecursionError:
        return []


def _connector_keys(reader: "_TreeReader", source_file: str, dep_prefix: str = KV_CONNECTOR_DIR) -> list[ExtraKey]:
    own = scan_files(reader.src, source_file)
    files = list(own)
    for rel in own:
        for dep in reader.imports_of(rel):
            if dep.startswith(dep_prefix) and dep not in files:
                files.append(dep)
    reads: list[_Read] = []
    for rel in files:
        reads.extend(reader.reads_in(rel))
    return _merge(reads)


def scan_files(src: VllmSource, source_file: str) -> list[str]:
    """The connector's own files: its package's files, or its single module."""
    if source_file.endswith("/__init__.py"):
        folder = source_file[: -len("/__init__.py")]
        files = src.py_files(folder)
        # the package's __init__ first, then the rest in name order
        return [source_file] + [f for f in files if f != source_file]
    return [source_file]


# --------------------------------------------------------------------------- per-file reading


@record
class _Read:
    key: str
    loc: Loc
    required: bool  # an unguarded subscript
    has_default: bool
    default: Any
    type: Optional[str] = None
    write: bool = False  # ``<extra_config>[KEY] = value``: the code fills the key itself


@record
class _FileInfo:
    tree: Optional[ast.Module]
    constants: dict[str, Any] = field(default_factory=dict)
    classes: dict[str, dict[str, Any]] = field(default_factory=dict)
    # local name -> (module file, name in that module) for ``from M import N [as A]``
    from_imports: dict[str, tuple[str, str]] = field(default_factory=dict)
    imports: list[str] = field(default_factory=list)


class _TreeReader:
    """Parses each file once; answers imports, constants and extra-config reads."""

    def __init__(self, src: VllmSource) -> None:
        self.src = src
        self._texts: dict[str, str] = {}
        self._files: dict[str, _FileInfo] = {}
        self._reads: dict[str, list[_Read]] = {}

    def text(self, rel: str) -> str:
        if rel not in self._texts:
            self._texts[rel] = self.src.read(rel) or ""
        return self._texts[rel]

    def info(self, rel: str) -> _FileInfo:
        if rel in self._files:
            return self._files[rel]
        text = self.text(rel)
        tree = self.src.tree(rel) if text else None
        info = _FileInfo(tree=tree)
        self._files[rel] = info  # set before folding: guards import cycles
        if tree is not None:
            self._index(rel, info, tree, text)
        return info

    def imports_of(self, rel: str) -> list[str]:
        return self.info(rel).imports

    def _index(self, rel: str, info: _FileInfo, tree: ast.Module, text: str) -> None:
        # every import, also inside functions: the files a connector's code reaches
        for node, _parent in _pruned_walk(tree, _lines_with(text, "import")):
            if isinstance(node, ast.Import):
                for a in node.names:
                    f = self._resolve(a.name)
                    if f:
                        _add(info.imports, f)
            elif isinstance(node, ast.ImportFrom):
                base = import_target(rel, node.level, node.module)
                if base is None:
                    continue
                base_file = self._resolve(base)
                for a in node.names:
                    sub = self._resolve(f"{base}.{a.name}") if a.name != "*" else None
                    if sub:
                        _add(info.imports, sub)
                    elif base_file:
                        _add(info.imports, base_file)
        # what each module-level name is bound to, as Python binds it (the toolkit's
        # `module_bindings`, shared with the config and flag extractors): constants,
        # classes' simple constants, names imported from in-tree modules
        bindings, _stars = module_bindings(tree.body)
        for name, st in bindings.items():  # the imported names first: constants use them
            if isinstance(st, ast.ImportFrom) and (alias := bound_import(st, name)) is not None:
                base = import_target(rel, st.level, st.module)
                if base is not None and not self._resolve(f"{base}.{alias.name}"):
                    base_file = self._resolve(base)
                    if base_file:
                        info.from_imports[name] = (base_file, alias.name)
        for name, st in bindings.items():
            if isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
                folded = self._fold(st.value, info, rel, set())
                if not _is_dynamic(folded):
                    info.constants[name] = folded
            elif isinstance(st, ast.ClassDef):
                attrs: dict[str, Any] = {}
                for inner in st.body:
                    for attr, value in _assignments(inner):
                        folded = self._fold(value, info, rel, set(), attrs)
                        if not _is_dynamic(folded):
                            attrs[attr] = folded
                info.classes[name] = attrs

    def _resolve(self, module: str) -> Optional[str]:
        if not module.startswith("vllm"):
            return None
        return module_file(self.src, module)

    # -- reads
    def reads_in(self, rel: str) -> list[_Read]:
        if rel in self._reads:
            return self._reads[rel]
        out: list[_Read] = []
        hits = _lines_with(self.text(rel), "extra_config")
        info = self.info(rel) if hits else None
        if info is not None and info.tree is not None:
            # Only subtrees whose lines hold "extra_config" can read it, and every
            # ancestor of such a node spans that line too: prune the rest.
            parents: dict[ast.AST, ast.AST] = {}
            for node, parent in _pruned_walk(info.tree, hits):
                if parent is not None:
                    parents[node] = parent
                r = self._read_at(node, parents, info, rel)
                if r is not None:
                    out.append(r)
        out.sort(key=lambda r: r.loc.line)
        self._reads[rel] = out
        return out

    def _read_at(self, node: ast.AST, parents: dict[ast.AST, ast.AST], info: _FileInfo, rel: str) -> Optional[_Read]:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            if attr == "get_from_extra_config" or (attr == "get" and _mentions_extra_config(node.func.value)):
                if not node.args or node.keywords:
                    return None
                key = _str_const(node.args[0])
                if key is None or len(node.args) > 2:
                    return None
                if len(node.args) == 2:
                    default = self._fold(node.args[1], info, rel, set())
                else:
                    default = None  # dict.get without a default gives None
                return _Read(
                    key=key,
                    loc=Loc(file=rel, line=node.lineno),
                    required=False,
                    has_default=True,
                    default=default,
                    type=_coercion(node, parents),
                )
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and _mentions_extra_config(node.value):
            key = _str_const(node.slice)
            if key is None:
                return None
            guarded = _guarded(node, key, parents)
            return _Read(
                key=key,
                loc=Loc(file=rel, line=node.lineno),
                required=not guarded,
                has_default=guarded,
                default={"$dynamic": "read only when present"} if guarded else None,
                type=_coercion(node, parents),
            )
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            t = node.targets[0]
            if isinstance(t, ast.Subscript) and _mentions_extra_config(t.value):
                key = _str_const(t.slice)
                if key is not None:
                    # e.g. the MoRIIO connector fills missing ports before reading them
                    # (moriio_connector.py:333-339 @0.33.0)
                    return _Read(
                        key=key,
                        loc=Loc(file=rel, line=node.lineno),
                        required=False,
                        has_default=True,
                        default=self._fold(node.value, info, rel, set()),
                        write=True,
                    )
        return None

    # -- constant folding
    def _fold(
        self,
        node: ast.AST,
        info: _FileInfo,
        rel: str,
        seen: set[tuple[str, str]],
        class_attrs: Optional[dict[str, Any]] = None,
    ) -> Any:
        value = _fold_expr(node, lambda n: self._lookup(n, info, rel, seen, class_attrs))
        if value is _UNKNOWN:
            return {"$dynamic": _describe(node)}
        return value

    def _lookup(
        self,
        node: ast.AST,
        info: _FileInfo,
        rel: str,
        seen: set[tuple[str, str]],
        class_attrs: Optional[dict[str, Any]],
    ) -> Any:
        if isinstance(node, ast.Name):
            if class_attrs is not None and node.id in class_attrs:
                return class_attrs[node.id]
            if node.id in info.constants:
                return info.constants[node.id]
            if node.id in info.from_imports:
                return self._imported(info.from_imports[node.id], seen, attr=None)
            return _UNKNOWN
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = node.value.id
            if owner in info.classes and node.attr in info.classes[owner]:
                return info.classes[owner][node.attr]
            if owner in info.from_imports:
                return self._imported(info.from_imports[owner], seen, attr=node.attr)
        return _UNKNOWN

    def _imported(self, ref: tuple[str, str], seen: set[tuple[str, str]], attr: Optional[str]) -> Any:
        """A constant (or class attribute) named by ``from M import N``.  M's own
        constants were folded when M was indexed; an import cycle sees a partial M."""
        if ref in seen:
            return _UNKNOWN
        seen.add(ref)
        file, name = ref
        other = self.info(file)
        if attr is None:
            return other.constants.get(name, _UNKNOWN)
        return other.classes.get(name, {}).get(attr, _UNKNOWN)


# --------------------------------------------------------------------------- merging


def _merge(reads: Iterable[_Read]) -> list[ExtraKey]:
    """One entry per key.  Required if an unguarded subscript reads it and no code
    writes it; otherwise the first read or write (in scan order) with a known,
    non-None default gives default and loc."""
    by_key: dict[str, list[_Read]] = {}
    for r in reads:
        by_key.setdefault(r.key, []).append(r)
    out: list[ExtraKey] = []
    for key, rs in by_key.items():
        required = [r for r in rs if r.required]
        if any(r.write for r in rs):
            required = []
        typ = next((r.type for r in rs if r.type), None)
        if required:
            out.append(ExtraKey(name=key, default=None, has_default=False, type=typ, loc=required[0].loc))
            continue
        known = [r for r in rs if r.default is not None and not _is_dynamic(r.default)]
        best = known[0] if known else rs[0]
        out.append(ExtraKey(name=key, default=best.default, has_default=True, type=typ, loc=best.loc))
    return out


# --------------------------------------------------------------------------- ast helpers


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


_UNKNOWN: Any = _Unknown()


def _fold_expr(node: ast.AST, lookup: Callable[[ast.AST], Any]) -> Any:
    """A JSON value for a literal expression, or _UNKNOWN."""
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, float) and not math.isfinite(v):
            return _UNKNOWN  # not a JSON value
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        return _UNKNOWN
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [_fold_expr(e, lookup) for e in node.elts]
        return _UNKNOWN if any(i is _UNKNOWN for i in items) else items
    if isinstance(node, ast.Dict):
        out: dict[str, Any] = {}
        for key, val in zip(node.keys, node.values):
            kk = _fold_expr(key, lookup) if key is not None else _UNKNOWN
            vv = _fold_expr(val, lookup)
            if not isinstance(kk, str) or vv is _UNKNOWN:
                return _UNKNOWN
            out[kk] = vv
        return out
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _fold_expr(node.operand, lookup)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return -v if isinstance(node.op, ast.USub) else v
        return _UNKNOWN
    if isinstance(node, ast.BinOp):
        a, b = _fold_expr(node.left, lookup), _fold_expr(node.right, lookup)
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
            return _UNKNOWN
        try:  # a default is a size or a timeout, never a huge number (pysource.check_size)
            value = binop(node.op, a, b)
        except (Unfoldable, ArithmeticError, ValueError, TypeError):
            return _UNKNOWN
        if isinstance(value, float) and not math.isfinite(value):
            return _UNKNOWN
        return value
    if isinstance(node, (ast.Name, ast.Attribute)):
        return lookup(node)
    return _UNKNOWN


def _assignments(stmt: ast.stmt) -> list[tuple[str, ast.expr]]:
    if isinstance(stmt, ast.Assign) and stmt.value is not None:
        return [(t.id, stmt.value) for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name):
        return [(stmt.target.id, stmt.value)]
    return []


def _mentions_extra_config(node: ast.AST) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and "extra_config" in n.id:
            return True
        if isinstance(n, ast.Attribute) and "extra_config" in n.attr:
            return True
    return False


def _coercion(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> Optional[str]:
    p = parents.get(node)
    if (
        isinstance(p, ast.Call)
        and isinstance(p.func, ast.Name)
        and p.func.id in _COERCIONS
        and p.args
        and p.args[0] is node
    ):
        return p.func.id
    return None


def _guarded(node: ast.AST, key: str, parents: dict[ast.AST, ast.AST]) -> bool:
    """True when an enclosing ``if``/``and``/``or``/conditional expression tests
    ``KEY in <...extra_config...>`` (or ``not in``) for the same key."""
    cur = parents.get(node)
    while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        tests: list[ast.AST] = []
        if isinstance(cur, (ast.If, ast.IfExp, ast.While)):
            tests.append(cur.test)
        elif isinstance(cur, ast.BoolOp):
            tests.extend(cur.values)
        for t in tests:
            for n in ast.walk(t):
                if (
                    isinstance(n, ast.Compare)
                    and len(n.ops) == 1
                    and isinstance(n.ops[0], (ast.In, ast.NotIn))
                    and _str_const(n.left) == key
                    and _mentions_extra_config(n.comparators[0])
                ):
                    return True
        cur = parents.get(cur)
    return False


def _lines_with(text: str, needle: str) -> list[int]:
    """1-based numbers of the lines that contain ``needle``, ascending."""
    return [i for i, line in enumerate(text.splitlines(), 1) if needle in line]


def _pruned_walk(tree: ast.AST, lines: list[int]) -> Iterator[tuple[ast.AST, Optional[ast.AST]]]:
    """(node, parent) pairs, parents before children, skipping every node whose
    line span holds none of ``lines``.  Nodes without positions are entered."""
    if not lines:
        return
    stack: list[tuple[ast.AST, Optional[ast.AST]]] = [(tree, None)]
    while stack:
        node, parent = stack.pop()
        start = getattr(node, "lineno", None)
        if start is not None:
            end = getattr(node, "end_lineno", None) or start
            i = bisect.bisect_left(lines, start)
            if i == len(lines) or lines[i] > end:
                continue
        yield node, parent
        children = list(ast.iter_child_nodes(node))
        stack.extend((c, node) for c in reversed(children))


def _str_const(node: Optional[ast.AST]) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _is_dynamic(value: Any) -> bool:
    return isinstance(value, dict) and "$dynamic" in value and len(value) == 1


def _describe(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001 - unparse of odd trees: describe by type
        text = type(node).__name__
    text = " ".join(text.split())
    return text if len(text) <= _DYNAMIC_MAX else text[: _DYNAMIC_MAX - 3] + "..."


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)
