"""A vLLM plugin package read like vLLM: its entry points, its own variables and the KV
connectors it registers, from its wheel, its sdist or a source tree (never imported,
built or run).  The result is a `PluginCatalog` (vcfg/catalog/plugins.py).

- **Entry points**: the ``vllm.*`` groups of ``<dist>.dist-info/entry_points.txt`` (a
  wheel), ``<pkg>.egg-info/entry_points.txt`` (a setuptools sdist), else the literal
  ``entry_points={...}`` of ``setup.py`` or ``[project.entry-points."vllm.*"]`` of
  ``pyproject.toml``.  vLLM loads them by these names (vllm/plugins/__init__.py:28-66
  @0.23.0: ``VLLM_PLUGINS`` lists entry names, not distributions).
- **Variables**: ``<pkg>/envs.py`` when it holds a module-level dict of lambdas in
  vLLM's form (vllm-ascend's ``env_variables``), read by vLLM's own extractor
  (vcfg/catalog/extract/envs.py): type, default, how the text is parsed, file:line.
- **Connectors**: every ``KVConnectorFactory.register_connector("<name>", "<module>",
  "<class>")`` call in the package, with the extra-config keys the class's module reads
  (as for vLLM's connectors, following imports one level inside the plugin's folder of
  that module), and ``KVConnectorFactory._registry.pop("<name>")`` calls, which take
  vLLM's own connector of that name out first.  Each registration is attributed to the
  entry point whose function reaches it: calls are followed from the entry's function
  through the package's own functions (names bound by ``from <pkg>... import f``,
  inside the function or at module level), a few calls deep.

Downloading (``vllm-ascend==0.23.0.post1``): ``pip download --no-deps --only-binary
:all:`` for this platform's wheel, else the sdist from the index
(vcfg/catalog/extract/pypi.py: pip cannot fetch an sdist without running its build).
"""

from __future__ import annotations

import ast
import configparser
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Optional

from vcfg.catalog.extract.connectors import _registration, connector_keys, module_file
from vcfg.catalog.extract.envs import extract_env_vars_from_text
from vcfg.catalog.extract.source import VllmSource
from vcfg.catalog.model import Connector, Loc
from vcfg.catalog.plugins import EntryPoint, PluginCatalog
from vcfg.errors import VcfgError

_ENV_TABLES = ("env_variables", "environment_variables")
_MAX_DEPTH = 6
_TAR_MAX_BYTES = 200 << 20


# --------------------------------------------------------------------------- opening


class PluginSource:
    """The files of one plugin distribution, relative to the folder holding its
    package, and what its metadata says."""

    def __init__(
        self, files: VllmSource, name: str, version: str, entry_text: Optional[str], requires: list[str], kind: str
    ) -> None:
        self.files = files
        self.name = name
        self.version = version
        self.entry_text = entry_text
        self.requires = requires
        self.kind = kind  # wheel, sdist, tree


def _metadata(text: str) -> tuple[Optional[str], Optional[str], list[str]]:
    name = re.search(r"^Name:\s*(\S+)", text, re.M)
    version = re.search(r"^Version:\s*(\S+)", text, re.M)
    requires = re.findall(r"^Requires-Dist:\s*(.+?)\s*$", text, re.M)
    return (name.group(1) if name else None, version.group(1) if version else None, requires)


def from_wheel(path: Path) -> PluginSource:
    try:
        zf = zipfile.ZipFile(path)
        names = set(zf.namelist())
    except (zipfile.BadZipFile, OSError) as e:
        raise VcfgError(f"{path}: not a readable wheel ({e})") from e
    meta = next((n for n in names if re.match(r"^[^/]+\.dist-info/METADATA$", n)), None)
    if meta is None:
        raise VcfgError(f"{path}: a wheel without a dist-info/METADATA")
    name, version, requires = _metadata(zf.read(meta).decode("utf-8", "replace"))
    ep = meta.rsplit("/", 1)[0] + "/entry_points.txt"
    entry_text = zf.read(ep).decode("utf-8", "replace") if ep in names else None
    src = VllmSource(description=f"wheel {path.name}", version=version, _zip=zf, _names=names)
    return PluginSource(src, name or path.name.split("-")[0], version or "0", entry_text, requires, "wheel")


def from_sdist(path: Path) -> PluginSource:
    """A source tarball read in place: its ``.py`` files, PKG-INFO, entry points,
    ``setup.py`` and ``pyproject.toml`` into memory."""
    try:
        tf = tarfile.open(path, "r:*")
    except (tarfile.TarError, OSError, EOFError) as e:
        raise VcfgError(f"{path}: not a readable source tarball ({e})") from e
    files: dict[str, bytes] = {}
    with tf:
        try:
            members = [m for m in tf if m.isfile()]
            tops = {m.name.split("/", 1)[0] for m in members}
            if len(tops) != 1:
                raise VcfgError(f"{path}: not an sdist (no single top folder)")
            prefix = tops.pop() + "/"
            total = 0
            for m in members:
                rel = m.name[len(prefix) :]
                keep = (
                    (rel.endswith(".py") and not rel.startswith(("tests/", "benchmarks/", "examples/")))
                    or rel in ("PKG-INFO", "pyproject.toml")
                    or rel.endswith(".egg-info/entry_points.txt")
                )
                if not keep or ".." in rel.split("/"):
                    continue
                total += m.size
                if total > _TAR_MAX_BYTES:
                    raise VcfgError(f"{path}: more than {_TAR_MAX_BYTES >> 20} MiB of source; not read")
                f = tf.extractfile(m)
                files[rel] = f.read() if f is not None else b""
        except (tarfile.TarError, OSError, EOFError) as e:
            raise VcfgError(f"{path}: not a readable source tarball ({e})") from e
    src = VllmSource(description=f"sdist {path.name}", version=None, _mem=files)
    name, version, requires = _metadata((src.read("PKG-INFO") or ""))
    ep = next((n for n in sorted(files) if n.count("/") == 1 and n.endswith(".egg-info/entry_points.txt")), None)
    entry_text = src.read(ep) if ep else _declared_entry_points(src)
    return PluginSource(src, name or prefix.rstrip("/"), version or "0", entry_text, requires, "sdist")


def from_tree(path: Path) -> PluginSource:
    src = VllmSource(description=f"source tree {path.name}", version=None, _root=path)
    text = src.read("PKG-INFO") or ""
    name, version, requires = _metadata(text)
    eps = sorted(path.glob("*.egg-info/entry_points.txt")) + sorted(path.glob("*.dist-info/entry_points.txt"))
    entry_text = eps[0].read_text(encoding="utf-8", errors="replace") if eps else _declared_entry_points(src)
    if name is None:
        name = _project_name(src) or path.name
    return PluginSource(src, name, version or "0", entry_text, requires, "tree")


def _project_name(src: VllmSource) -> Optional[str]:
    text = src.read("pyproject.toml") or ""
    m = re.search(r'^\[project\][^\[]*?^name\s*=\s*"([^"]+)"', text, re.M | re.S)
    if m:
        return m.group(1)
    tree = src.tree("setup.py")
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setup":
            for kw in node.keywords:
                if kw.arg == "name" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    return kw.value.value
    return None


def _declared_entry_points(src: VllmSource) -> Optional[str]:
    """``entry_points.txt`` text from ``setup(entry_points={...})`` (a literal) or
    pyproject.toml's ``[project.entry-points."<group>"]`` tables."""
    lines: list[str] = []
    tree = src.tree("setup.py")
    for node in ast.walk(tree) if tree is not None else ():
        if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "setup"):
            continue
        for kw in node.keywords:
            if kw.arg != "entry_points":
                continue
            try:
                value = ast.literal_eval(kw.value)
            except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
                continue
            if isinstance(value, dict):
                for group, entries in value.items():
                    lines.append(f"[{group}]")
                    lines.extend(str(e) for e in (entries if isinstance(entries, list) else [entries]))
    text = src.read("pyproject.toml")
    if text and not lines:
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover
            import tomli as tomllib
        try:
            doc = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError, ValueError):
            doc = {}
        for group, table in (doc.get("project", {}).get("entry-points", {}) or {}).items():
            if isinstance(table, dict):
                lines.append(f"[{group}]")
                lines.extend(f"{k} = {v}" for k, v in table.items() if isinstance(v, str))
    return "\n".join(lines) + "\n" if lines else None


def open_plugin(spec: str) -> tuple[PluginSource, Optional[Path]]:
    """A wheel, an sdist, a source tree, or ``name==version`` (downloaded); and the
    temporary folder to remove afterwards, if one was made."""
    p = Path(spec).expanduser()
    if p.is_dir():
        return from_tree(p), None
    if p.is_file():
        if p.name.endswith(".whl"):
            return from_wheel(p), None
        return from_sdist(p), None
    name, sep, version = spec.partition("==")
    if (
        not sep
        or not re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]*$", name.strip())
        or not re.match(r"^\d+(\.\d+)*([.-]?(post|rc|a|b|dev)\d*)*$", version.strip())
    ):
        raise VcfgError(
            f"{spec}: not a plugin wheel, sdist or folder, nor NAME==VERSION",
            hint="e.g. --plugin vllm-ascend==0.23.0.post1",
        )
    wheel = _download_wheel(name.strip(), version.strip())
    if wheel is not None:
        return from_wheel(wheel), wheel.parent
    from vcfg.catalog.extract.pypi import download_sdist

    sdist = download_sdist(name.strip(), version.strip())
    return from_sdist(sdist), sdist.parent


def _download_wheel(name: str, version: str) -> Optional[Path]:
    """This platform's wheel of ``name==version``, or None when the index has none."""
    tmp = Path(tempfile.mkdtemp(prefix="vcfg-plugin-"))
    print(
        f"vcfg: downloading the {name} {version} wheel with pip (read in place, not installed)",
        file=sys.stderr,
        flush=True,
    )
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary",
        ":all:",
        "--quiet",
        "--disable-pip-version-check",
        "-d",
        str(tmp),
        f"{name}=={version}",
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise VcfgError(f"could not run pip to download {name} {version}: {e}") from e
    wheels = sorted(tmp.glob("*.whl"))
    if proc.returncode == 0 and wheels:
        return wheels[0]
    shutil.rmtree(tmp, ignore_errors=True)
    if "No matching distribution" in (proc.stderr or ""):
        print(f"vcfg: no {name} {version} wheel for this platform; reading its sdist", file=sys.stderr)
        return None
    last = (proc.stderr or proc.stdout).strip().splitlines()
    raise VcfgError(
        f"could not download {name} {version} (no network?)", hint=last[-1] if last else f"pip exited {proc.returncode}"
    )


# --------------------------------------------------------------------------- reading


def parse_entry_points(text: Optional[str]) -> list[EntryPoint]:
    """The ``vllm.*`` groups of an ``entry_points.txt``."""
    if not text:
        return []
    cp = configparser.ConfigParser(delimiters=("=",), interpolation=None, strict=False)
    cp.optionxform = str  # type: ignore[assignment,method-assign]
    try:
        cp.read_file(io.StringIO(text))
    except configparser.Error as e:
        raise VcfgError(f"the plugin's entry_points.txt does not read: {e}") from e
    out = []
    for group in cp.sections():
        if group.startswith("vllm."):
            for name, value in cp.items(group):
                out.append(EntryPoint(group=group, name=name.strip(), value=value.strip()))
    return out


def build_plugin_catalog_from(spec: str) -> PluginCatalog:
    """`build_plugin_catalog` of what `open_plugin` opens for ``spec``, its temporary
    folder removed afterwards."""
    ps, tmp = open_plugin(spec)
    try:
        return build_plugin_catalog(ps)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def build_plugin_catalog(ps: PluginSource) -> PluginCatalog:
    from vcfg import __version__

    eps = parse_entry_points(ps.entry_text)
    if not eps:
        raise VcfgError(f"{ps.files.description} declares no vllm.* entry points: not a vLLM plugin")
    package = eps[0].value.split(":", 1)[0].split(".", 1)[0]
    src = ps.files
    env_vars = []
    envs_file = f"{package}/envs.py"
    text = src.read(envs_file)
    if text is not None:
        for table in _ENV_TABLES:
            if re.search(rf"^{table}\s*[:=]", text, re.M):
                env_vars = extract_env_vars_from_text(text, src.read, file=envs_file, table=table)
                break
    connectors, replaces, conditional, sites = _registrations(src, package)
    graph = _CallGraph(src, package)
    registered_by: dict[str, str] = {}
    for ep in eps:
        module, _, func = ep.value.partition(":")
        reached = graph.reach(module.strip(), func.strip())
        for c in connectors:
            if sites[c.name] in reached and c.name not in registered_by:
                registered_by[c.name] = ep.name
    requires = next((r for r in ps.requires if re.match(r"^vllm\b(?![-_.\w])", r, re.I)), None)
    name = re.sub(r"[-_.]+", "-", ps.name).lower()
    pc = PluginCatalog(
        name=name,
        version=ps.version,
        package=package,
        generated_by=f"vcfg {__version__}",
        source=f"{name} {ps.version} ({ps.kind})",
        requires_vllm=requires,
        entry_points=eps,
        env_vars=env_vars,
        connectors=connectors,
        registered_by=registered_by,
        replaces=replaces,
        conditional=conditional,
    )
    from vcfg.records import dump, load

    return load(PluginCatalog, dump(pc))  # what is saved must load back checked


def _registrations(
    src: VllmSource, package: str
) -> tuple[list[Connector], list[str], list[str], dict[str, tuple[str, str]]]:
    """The package's ``register_connector`` calls (first registration of a name wins, as
    for vLLM's factory, which refuses a second), the names it pops from vLLM's registry,
    the names registered under a branch, and for each connector the (file, function)
    holding its registration."""
    connectors: list[Connector] = []
    replaces: list[str] = []
    conditional: list[str] = []
    sites: dict[str, tuple[str, str]] = {}
    for rel in src.py_files(package):
        text = src.read(rel) or ""
        if "register_connector" not in text and "_registry" not in text:
            continue
        tree = src.tree(rel)
        if tree is None:
            continue
        for func, node, branched in _calls_with_function(tree):
            reg = _registration(node)
            if reg is not None and branched and reg[0] not in conditional:
                conditional.append(reg[0])
            if reg is not None and reg[0] not in sites:
                name, module, class_name = reg
                source_file = module_file(src, module)
                dep = source_file.rsplit("/", 2)[0] + "/" if source_file else package + "/"
                keys = connector_keys(src, source_file, dep) if source_file else []
                connectors.append(
                    Connector(
                        name=name,
                        module=module,
                        class_name=class_name,
                        loc=Loc(file=rel, line=node.lineno),
                        source_file=source_file,
                        extra_keys=keys,
                    )
                )
                sites[name] = (rel, func)
            popped = _registry_pop(node)
            if popped is not None and popped not in replaces:
                replaces.append(popped)
    return connectors, replaces, conditional, sites


def _registry_pop(node: ast.Call) -> Optional[str]:
    """``KVConnectorFactory._registry.pop("<name>")``."""
    f = node.func
    if (
        isinstance(f, ast.Attribute)
        and f.attr == "pop"
        and isinstance(f.value, ast.Attribute)
        and f.value.attr == "_registry"
        and isinstance(f.value.value, ast.Name)
        and f.value.value.id == "KVConnectorFactory"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value
    return None


_BRANCHES = (ast.If, ast.Try, ast.For, ast.While, ast.With)


def _calls_with_function(tree: ast.Module):  # type: ignore[no-untyped-def]
    """(enclosing top-level function name or "", call, under a branch) for every call
    in the module, in source order; "under a branch": inside an ``if``, ``try``, loop
    or ``with`` of that function (a registration that may not happen)."""
    out = []
    for stmt in tree.body:
        name = stmt.name if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else ""
        todo: list[tuple[ast.AST, bool]] = [(c, False) for c in ast.iter_child_nodes(stmt)]
        while todo:
            node, branched = todo.pop()
            if isinstance(node, ast.Call):
                out.append((name, node, branched))
            inner = branched or isinstance(node, _BRANCHES)
            todo.extend((c, inner) for c in ast.iter_child_nodes(node))
    out.sort(key=lambda t: (t[1].lineno, t[1].col_offset))
    return out


class _CallGraph:
    """Which (file, function) pairs an entry point's function reaches through the
    package's own module-level functions."""

    def __init__(self, src: VllmSource, package: str) -> None:
        self.src = src
        self.package = package

    def _file(self, module: str) -> Optional[str]:
        return module_file(self.src, module)

    def reach(self, module: str, func: str) -> set[tuple[str, str]]:
        start = self._file(module)
        seen: set[tuple[str, str]] = set()
        todo = [(start, func, 0)] if start else []
        while todo:
            rel, name, depth = todo.pop()
            if (rel, name) in seen or depth > _MAX_DEPTH:
                continue
            seen.add((rel, name))
            for nxt in self._callees(rel, name):
                todo.append((nxt[0], nxt[1], depth + 1))
        return seen

    def _callees(self, rel: str, name: str) -> list[tuple[str, str]]:
        tree = self.src.tree(rel)
        if tree is None:
            return []
        fn = next(
            (s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name), None
        )
        if fn is None:
            return []
        module = rel[: -len("/__init__.py")] if rel.endswith("/__init__.py") else rel[:-3]
        module = module.replace("/", ".")
        bound: dict[str, tuple[str, str]] = {}
        for scope in (tree.body, list(ast.walk(fn))):
            for node in scope:
                if (
                    isinstance(node, ast.ImportFrom)
                    and node.module is not None
                    or isinstance(node, ast.ImportFrom)
                    and node.level
                ):
                    base = _absolute(module, rel.endswith("/__init__.py"), node.level, node.module)
                    if base is None or not base.startswith(self.package):
                        continue
                    for a in node.names:
                        f = self._file(base)
                        if f is not None:
                            bound[a.asname or a.name] = (f, a.name)
        local = {s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        out = []
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                n = node.func.id
                if n in bound:
                    out.append(bound[n])
                elif n in local:
                    out.append((rel, n))
        return out


def _absolute(module: str, is_package: bool, level: int, name: Optional[str]) -> Optional[str]:
    if level == 0:
        return name
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if level - 1 > len(parts):
        return None
    parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts + ([name] if name else []))
