"""The layers, checked from the import graph: no module imports a higher layer, a
package imports no private name of another, and no runtime import cycle.

Every import counts for the layers, lazy ones inside functions and those under
``if TYPE_CHECKING:`` included; only those under TYPE_CHECKING are left out of the
cycle check (they never run).  ``importlib.import_module`` with a computed name (the
rule registry, the lint renderers) is not seen; those targets are a layer below their
caller by construction."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "vcfg"

#: lowest first; a unit (``vcfg/<name>/`` or ``vcfg/<name>.py``, and
#: ``vcfg/catalog/extract/``) may import units of a strictly lower layer only (and itself).
LAYERS: list[tuple[str, ...]] = [
    (
        "vcfg",
        "records",
        "errors",
        "fileio",
        "bounded",
        "regex",
        "bytecode",
        "suggest",
    ),  # vcfg: the package itself (its version)
    ("span",),  # positions in a file: the launch model's and the findings'
    ("edits",),
    ("diagnostics",),
    ("catalog",),
    # plan: model facts and memory arithmetic from a config.json, which lint rules read
    ("launch", "plan"),
    # catalog.extract: what reads vLLM's source to build a catalog; a lint never needs it
    ("lint", "catalog.extract"),
    ("render", "schema", "explain", "bench", "fix"),
    ("upgrade",),  # vcfg upgrade: the fix loop over the lint, catalogs to compare releases
    ("lsp",),  # the language server: lint, explain's topics, schema's KV field names
    ("cli", "dev"),
    ("entry", "__main__"),  # python -m vcfg, and the console script of older installs
]
LEVEL = {unit: i for i, units in enumerate(LAYERS) for unit in units}

#: private names imported across units, allowed only until their owner moves them:
#: (importing module, imported module, name).  Empty: `launch show` now asks
#: vcfg/launch/read.py, not the lint engine, which reader takes a file.
KNOWN_PRIVATE: set[tuple[str, str, str]] = set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _unit(module: str) -> str:
    parts = module.split(".")
    if parts[1:3] == ["catalog", "extract"]:
        return "catalog.extract"
    return parts[1] if len(parts) > 1 else "vcfg"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str) -> list[tuple[str, str, int, bool]]:
    """(imported module, imported name or "", line, under TYPE_CHECKING) of ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    out: list[tuple[str, str, int, bool]] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        if isinstance(node, ast.Import):
            out.extend((a.name, "", node.lineno, typing_only) for a in node.names if a.name.split(".")[0] == "vcfg")
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module}:{node.lineno}: use absolute imports"
            if node.module and node.module.split(".")[0] == "vcfg":
                for a in node.names:
                    sub = f"{node.module}.{a.name}"
                    if sub in MODULES:  # `from vcfg.lint import engine`: the module
                        out.append((sub, "", node.lineno, typing_only))
                    else:
                        out.append((node.module, a.name, node.lineno, typing_only))
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(tree, False)
    return out


@functools.cache
def _edges() -> dict[str, list[tuple[str, str, int, bool]]]:
    """Every module's imports: parsed when a test first asks (about 1 s of ast.parse),
    not when the file is collected by each pytest-xdist worker."""
    return {m: _imports(m) for m in MODULES}


def test_every_unit_has_a_layer():
    units = {_unit(m) for m in MODULES}
    assert units - set(LEVEL) == set(), "place the new unit in LAYERS"


def test_every_import_names_a_module_that_exists():
    missing = [
        f"{m}:{line}: {target}"
        for m, edges in _edges().items()
        for target, _, line, _ in edges
        if target not in MODULES
    ]
    assert missing == []


def _upward(edges: dict[str, list[tuple[str, str, int, bool]]]) -> list[str]:
    out = []
    for m, imports in edges.items():
        src = _unit(m)
        for target, _, line, _ in imports:
            dst = _unit(target)
            if dst != src and LEVEL.get(dst, len(LAYERS)) >= LEVEL[src]:
                out.append(f"{m}:{line} imports {target} ({src} is layer {LEVEL[src]}, {dst} is {LEVEL.get(dst)})")
    return out


def test_no_import_runs_up_a_layer():
    assert _upward(_edges()) == []


def test_no_private_name_imported_from_another_unit():
    private = {
        (m, target, name)
        for m, edges in _edges().items()
        for target, name, _, _ in edges
        if name.startswith("_") and not name.endswith("__") and _unit(target) != _unit(m)
    }
    assert private - KNOWN_PRIVATE == set()
    assert KNOWN_PRIVATE - private == set(), "a known exception is gone: remove it from KNOWN_PRIVATE"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return found


def test_no_import_cycle():
    graph = {m: {t for t, _, _, typing_only in edges if not typing_only and t != m} for m, edges in _edges().items()}
    assert _cycles(graph) == []


@pytest.mark.parametrize(
    "graph, expected",
    [
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b"}, "b": set()}, []),
    ],
)
def test_the_cycle_finder_finds_cycles(graph, expected):
    assert _cycles(graph) == expected


def test_the_layer_check_sees_an_upward_import():
    """The lint engine importing a renderer or an extractor, or the catalog a generator, is refused;
    the same imports the other way round are not."""
    up = {
        "vcfg.lint.engine": [("vcfg.render.full", "", 3, False), ("vcfg.catalog.extract.envs", "", 4, False)],
        "vcfg.catalog.store": [("vcfg.dev.generate", "", 9, True)],
    }
    assert [u.split(" ")[0] for u in _upward(up)] == [
        "vcfg.lint.engine:3",
        "vcfg.lint.engine:4",
        "vcfg.catalog.store:9",
    ]
    down = {
        "vcfg.render.full": [("vcfg.lint.engine", "", 3, False)],
        "vcfg.dev.generate": [("vcfg.catalog.store", "", 9, False)],
    }
    assert _upward(down) == []
