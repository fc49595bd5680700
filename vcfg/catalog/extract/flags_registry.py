"""Names registered in vLLM's parser registries (``ToolParserManager``,
``ReasoningParserManager``), read statically.

Some flags take their choices from these registries when the parser is built:
``--reasoning-parser`` choices (``list(ReasoningParserManager.reasoning_parsers)``,
engine/arg_utils.py:584 @0.10) and ``--tool-call-parser`` choices / metavar
(entrypoints/openai/cli_args.py:193 @0.10).  Registration happens when the package is
imported: ``@Manager.register_module("name")`` class decorators (bottom-up when
stacked) in modules imported by the package ``__init__`` in import order, and, from
0.11.2, ``register_lazy_module(...)`` calls and ``_..._TO_REGISTER`` tables in the
package ``__init__`` (reasoning/__init__.py:22-89 @0.11.2).
"""

from __future__ import annotations

import ast
import posixpath
import re

from vcfg.catalog.extract.flags_symbols import ModuleIndex
from vcfg.records import field, record


@record
class Registry:
    eager: list[str] = field(default_factory=list)  # dict order of the manager's table
    lazy: list[str] = field(default_factory=list)

    def listed(self) -> list[str]:
        """``list_registered()``: eager and lazy names, sorted."""
        return sorted(set(self.eager) | set(self.lazy))


def _names(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _register_call_names(call: ast.Call, manager: str, method: str) -> list[str]:
    fn = call.func
    if not (
        isinstance(fn, ast.Attribute)
        and fn.attr == method
        and isinstance(fn.value, ast.Name)
        and fn.value.id == manager
    ):
        return []
    if call.args:
        return _names(call.args[0])
    for k in call.keywords:
        if k.arg == "name":
            return _names(k.value)
    return []


_TOP_IMPORT = re.compile(r"^from\s+([.\w]+)\s+import\s+(\([^)]*\)|[^\n]+)", re.M)


def _top_level_chunks(text: str) -> list[tuple[str, str]]:
    """("import", stmt) and ("class", decorators) chunks of a module's top level, in
    source order, found line by line (cheaper than parsing every parser module)."""
    out: list[tuple[str, str]] = []
    lines = text.splitlines()
    i = 0
    pending: list[str] = []
    while i < len(lines):
        line = lines[i]
        if line.startswith("@"):
            chunk = line
            depth = line.count("(") - line.count(")")
            while depth > 0 and i + 1 < len(lines):
                i += 1
                chunk += "\n" + lines[i]
                depth += lines[i].count("(") - lines[i].count(")")
            pending.append(chunk)
        elif line.startswith("class "):
            out += [("class", d) for d in reversed(pending)]  # decorators apply bottom-up
            pending = []
        elif line.startswith("from "):
            chunk = line
            if "(" in line and ")" not in line:
                while i + 1 < len(lines) and ")" not in chunk:
                    i += 1
                    chunk += "\n" + lines[i]
            out.append(("import", chunk))
            pending = []
        elif line and not line[0].isspace() and not line.startswith("#"):
            pending = []
        i += 1
    return out


def scan_registry(index: ModuleIndex, manager_path: str, manager: str) -> Registry:
    """The registry of class ``manager`` defined in ``manager_path``."""
    pkg_dir = posixpath.dirname(manager_path)
    init = f"{pkg_dir}/__init__.py"
    reg = Registry()
    seen: set[str] = set()

    def add(names: list[str]) -> None:
        for n in names:
            if n not in reg.eager:
                reg.eager.append(n)

    def visit(path: str) -> None:
        if path in seen:
            return
        seen.add(path)
        text = index.src.read(path)
        if text is None:
            return
        for kind, chunk in _top_level_chunks(text):
            try:
                node = ast.parse(chunk[1:] if kind == "class" else chunk)
            except SyntaxError:
                continue
            st = node.body[0] if node.body else None
            if kind == "class" and isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
                add(_register_call_names(st.value, manager, "register_module"))
            elif isinstance(st, ast.ImportFrom):
                target = index._import_target(path, st)  # noqa: SLF001
                if target is None:
                    continue
                sub = index.path_of(target)
                if sub is not None and sub.startswith(pkg_dir + "/") and sub != init:
                    visit(sub)
                for a in st.names:
                    sub2 = index.path_of(f"{target}.{a.name}")
                    if sub2 is not None and sub2.startswith(pkg_dir + "/"):
                        visit(sub2)
        tree = index.tree(path) if path == init else None
        if tree is not None:
            for st in tree.body:
                if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
                    add(_register_call_names(st.value, manager, "register_module"))

    visit(init)
    tree = index.tree(init)
    if tree is not None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                reg.lazy += _register_call_names(node, manager, "register_lazy_module")
        for st in tree.body:
            if (
                isinstance(st, (ast.Assign, ast.AnnAssign))
                and isinstance(st.value, ast.Dict)
                and any(
                    isinstance(t, ast.Name) and t.id.endswith("_TO_REGISTER")
                    for t in (st.targets if isinstance(st, ast.Assign) else [st.target])
                )
            ):
                reg.lazy += [k.value for k in st.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return reg
