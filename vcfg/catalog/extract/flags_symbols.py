"""Names in vLLM's modules, found with `ast`: which statement binds a name at module
level, following ``import`` / ``from ... import`` across the tree.  Used by the flag
extractor (`vcfg.catalog.extract.flags`) to reach constants, ``Literal`` aliases, enums,
classes and functions that ``add_cli_args`` refers to.  Nothing is imported or run.

Module-level semantics: the binding in force once the module has run is the last one,
and ``if TYPE_CHECKING:`` blocks are skipped in favour of their ``else`` branch (e.g.
``QuantizationMethods = str`` in engine/arg_utils.py:146 @0.33).
"""

from __future__ import annotations

import ast
from typing import Optional

from vcfg.catalog.extract.pysource import import_target, module_bindings, module_of
from vcfg.catalog.extract.source import VllmSource
from vcfg.records import record


@record(frozen=True)
class Binding:
    """``name`` is bound by ``node`` in the module file ``path``."""

    path: str
    name: str
    node: ast.AST


@record(frozen=True)
class ModuleBinding:
    """A name that stands for a whole module (``import json``, ``from vllm import envs``)."""

    module: str
    path: Optional[str]  # None for modules outside the tree (argparse, json, ...)


class ModuleIndex:
    """Parsed modules of one source tree, parsed once each."""

    def __init__(self, src: VllmSource) -> None:
        self.src = src
        self._bindings: dict[str, dict[str, ast.AST]] = {}

    # -- files and module names
    def path_of(self, module: str) -> Optional[str]:
        """``vllm.config.cache`` -> ``vllm/config/cache.py`` (or the package ``__init__``)."""
        base = module.replace(".", "/")
        for cand in (base + ".py", base + "/__init__.py"):
            if self.src.exists(cand):
                return cand
        return None

    module_of = staticmethod(module_of)

    def tree(self, path: str) -> Optional[ast.Module]:
        return self.src.tree(path)  # cached on the source, shared with configs.py

    # -- module-level bindings
    def bindings(self, path: str) -> dict[str, ast.AST]:
        if path not in self._bindings:
            out: dict[str, ast.AST] = {}
            tree = self.tree(path)
            if tree is not None:
                out = dict(module_bindings(tree.body)[0])
            self._bindings[path] = out
        return self._bindings[path]

    def _import_target(self, path: str, node: ast.ImportFrom) -> Optional[str]:
        """The absolute module name a ``from X import`` statement in ``path`` reads."""
        return import_target(path, node.level, node.module)

    def resolve(self, path: str, name: str, _depth: int = 0) -> Optional[Binding | ModuleBinding]:
        """Where ``name`` as seen from module ``path`` is defined, imports followed."""
        if _depth > 12:
            return None
        node = self.bindings(path).get(name)
        if node is None:
            return None
        if isinstance(node, ast.Import):
            for a in node.names:
                if (a.asname or a.name.split(".")[0]) == name:
                    whole = a.name if a.asname else a.name.split(".")[0]
                    return ModuleBinding(whole, self.path_of(whole))
            return None
        if isinstance(node, ast.ImportFrom):
            mod = self._import_target(path, node)
            if mod is None:
                return None
            for a in node.names:
                if (a.asname or a.name) != name:
                    continue
                target = self.path_of(mod)
                if target is not None:
                    found = self.resolve(target, a.name, _depth + 1)
                    if found is not None:
                        return found
                sub = self.path_of(f"{mod}.{a.name}")
                if sub is not None or target is None:
                    return ModuleBinding(f"{mod}.{a.name}", sub)
                return None
            return None
        return Binding(path, name, node)

    def resolve_in_module(self, module: str, name: str) -> Optional[Binding | ModuleBinding]:
        path = self.path_of(module)
        if path is None:
            return None
        found = self.resolve(path, name)
        if found is None:
            sub = self.path_of(f"{module}.{name}")
            if sub is not None:
                return ModuleBinding(f"{module}.{name}", sub)
        return found

    def find_class(self, path: str, name: str) -> Optional[ast.ClassDef]:
        node = self.bindings(path).get(name)
        return node if isinstance(node, ast.ClassDef) else None


def find_method(cls: ast.ClassDef, name: str) -> Optional[ast.FunctionDef]:
    for st in cls.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == name:
            return st  # type: ignore[return-value]
    return None


def decorator_names(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> set[str]:
    out = set()
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Name):
            out.add(target.id)
        elif isinstance(target, ast.Attribute):
            out.add(target.attr)
    return out
