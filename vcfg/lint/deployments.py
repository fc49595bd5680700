"""Which files form one deployment: the run rules (prefill/decode pairs, ports, proxies,
multi-node data parallel) judge one deployment at a time.

By default a deployment is one file (a script, one multi-document manifest, one compose
file, one serve config).  Files join one deployment when

- the project config says so::

      [tool.vcfg.deployments.pd]
      files = ["deploy/prefill*.sh", "deploy/decode.sh", "deploy/proxy.sh"]
      hosts = { "deploy/prefill*.sh" = "node-a", "deploy/decode.sh" = "node-b" }

  (globs relative to the config file; ``hosts`` names the machine a file runs on:
  files on one named host share its ports and GPUs, files on two names do not);
- one file starts another (``bash serve.sh``, ``./serve.sh``, ``source env.sh``): the
  started file runs on the starter's host;
- a format groups them: a ``kustomization.yaml`` with its ``resources``; a compose file
  with its ``compose.override.yaml``.

The grouping never depends on which files were given together: a member that was not
given (a file a given one starts, a file started by a script beside it, the other files
of a configured deployment) is read as context, and its own findings are reported only
when it is linted itself.  Members are ordered by path, so "the later launch" of a
cross-file finding is the same in every batch.
"""

from __future__ import annotations

import fnmatch
import os
import re
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional

from vcfg.errors import VcfgError
from vcfg.records import field, record

SCRIPT_SUFFIXES = (".sh", ".bash")
#: a script larger than this is not read when looking for the scripts that start a file
_SCAN_BYTES = 1 << 20
#: at most this many scripts of a folder are read when looking for starters
_SCAN_FILES = 5000
_KUSTOMIZATIONS = ("kustomization.yaml", "kustomization.yml", "Kustomization")
_COMPOSE_PAIRS = (
    ("compose.yaml", "compose.override.yaml"),
    ("compose.yml", "compose.override.yml"),
    ("docker-compose.yaml", "docker-compose.override.yaml"),
    ("docker-compose.yml", "docker-compose.override.yml"),
)


@record(frozen=True)
class DeploymentSpec:
    """One ``[tool.vcfg.deployments.NAME]`` table."""

    name: str
    files: tuple[str, ...]
    #: glob -> host name
    hosts: tuple[tuple[str, str], ...] = ()


@record
class Deployment:
    name: str
    #: the member files, by path: FileContext values
    files: list[Any] = field(default_factory=list)
    #: path -> the host the file runs on ("host:NAME" configured, "file:PATH" its own
    #: machine, unnamed)
    hosts: dict[str, str] = field(default_factory=dict)


def parse_specs(table: Any, origin: Path) -> list[DeploymentSpec]:
    """``[tool.vcfg.deployments]`` -> specs; a clear error on a malformed table."""
    if not isinstance(table, dict):
        raise VcfgError(f"{origin}: deployments must be a table of [deployments.NAME] tables")
    out = []
    for name, t in table.items():
        where = f"{origin}: deployments.{name}"
        if not isinstance(t, dict):
            raise VcfgError(f"{where} must be a table with `files` (and optional `hosts`)")
        unknown = set(t) - {"files", "hosts"}
        if unknown:
            raise VcfgError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}", hint="known keys: files, hosts")
        files = t.get("files")
        if isinstance(files, str):
            files = [files]
        if not isinstance(files, list) or not files or not all(isinstance(f, str) for f in files):
            raise VcfgError(f"{where}.files must be a non-empty list of globs")
        hosts = t.get("hosts", {})
        if not isinstance(hosts, dict) or not all(isinstance(v, str) and v for v in hosts.values()):
            raise VcfgError(f'{where}.hosts must be a table of glob = "host name"')
        out.append(DeploymentSpec(str(name), tuple(files), tuple(hosts.items())))
    return out


def _key(path: str) -> str:
    """A file's identity: its real path (standard input keeps its name)."""
    return path if path == "-" or path.startswith("<") else os.path.realpath(path)


def _shown(real: str) -> str:
    """How a member the user did not name is shown: relative to the working directory."""
    try:
        rel = os.path.relpath(real)
    except ValueError:
        return real
    return rel if not rel.startswith("..") else real


def _match(glob: str, real: str, root: Path) -> bool:
    try:
        rel = Path(real).relative_to(root.resolve()).as_posix()
    except ValueError:
        return False
    return fnmatch.fnmatchcase(rel, glob) or fnmatch.fnmatchcase(rel, glob.replace("**/", ""))


def _spec_files(spec: DeploymentSpec, root: Path) -> list[str]:
    out: list[str] = []
    for g in spec.files:
        out.extend(str(p) for p in sorted(root.glob(g)) if p.is_file())
    return out


def _started(fc: Any, real: str, folders: "_Folders") -> list[str]:
    """Real paths of the existing files a script starts, resolved from its folder."""
    out: list[str] = []
    if not folders.isfile(real):
        return out
    base = Path(fc.path).parent
    for w in getattr(fc.plan, "starts", ()):
        t = w.text
        if not t or "$" in t:
            continue
        p = Path(t) if os.path.isabs(t) else base / t
        if folders.isfile(str(p)):
            out.append(_key(str(p)))
    return out


#: the words that may name a script another one starts: after bash/sh/source/., and any
#: word ending in .sh/.bash (checked afterwards against the starter's own plan)
_NAMED = re.compile(
    rb"(?:\b(?:bash|sh|zsh|dash|ksh|source)|(?:^|[;&|(\s])\.)\s+(?:-\S+\s+)*[\"']?([^\s\"';&|()<>]+)"
    # a name starts where a run of name characters starts (the lookbehind):
    # else each character of a long run would start a scan to its end
    rb"|(?<![^\s\"';&|()<>=])([^\s\"';&|()<>=]+\.(?:sh|bash))\b",
    re.M,
)


class _Folders:
    """Per folder, once per run: its listing (one ``scandir``: which names are files)
    and which of its scripts name which file names."""

    def __init__(self, buffers: Optional[Mapping[str, bytes]] = None) -> None:
        #: the run's buffers (absolute path -> bytes), read before the disk
        self.buffers: Mapping[str, bytes] = buffers or {}
        self.index: dict[Path, dict[bytes, list[str]]] = {}
        #: folder -> its scripts (path, stat, real path, the buffer read instead), and
        #: the first name asked of it with the answer
        self.scripts: dict[Path, list[tuple[str, os.stat_result, str, Optional[bytes]]]] = {}
        self.first: dict[Path, tuple[bytes, list[str]]] = {}
        #: folder -> its entries by name (None: the folder cannot be listed)
        self.listings: dict[str, Optional[dict[str, os.DirEntry[str]]]] = {}
        self.files: dict[str, bool] = {}

    def listing(self, folder: str) -> Optional[dict[str, "os.DirEntry[str]"]]:
        if folder not in self.listings:
            try:
                with os.scandir(folder) as it:
                    self.listings[folder] = {e.name: e for e in it}
            except OSError:
                self.listings[folder] = None
        return self.listings[folder]

    def isfile(self, path: str) -> bool:
        """``os.path.isfile``, answered from the folder's listing (a stat only for a
        symbolic link; a folder that cannot be listed is asked directly)."""
        if path not in self.files:
            folder, name = os.path.split(path)
            entries = self.listing(folder or ".") if name else None
            if entries is None:
                self.files[path] = os.path.isfile(path)
            else:
                e = entries.get(name)
                try:
                    self.files[path] = e is not None and e.is_file()
                except OSError:
                    self.files[path] = False
        return self.files[path]

    def naming(self, folder: Path, name: bytes) -> list[str]:
        """The scripts of ``folder`` that name the file name ``name``.  The first name
        asked of a folder (a one-script lint asks one) is looked for as a substring
        first: a script whose text does not hold it cannot name it (a name is a piece
        of the text), which spares the pattern over every script beside the linted
        one and in its parent folder.  A second name gets every script's names worked
        out once, as the index of the folder for the rest of the run."""
        if folder in self.index:
            return self.index[folder].get(name, [])
        first = self.first.get(folder)
        if first is None:
            found = [real for path, st, real, buffer in self._scripts(folder) if _names(path, st, buffer, name)]
            self.first[folder] = (name, found)
            return found
        if first[0] == name:
            return first[1]
        self.index[folder] = self._scan(folder)
        return self.index[folder].get(name, [])

    def _scripts(self, folder: Path) -> list[tuple[str, os.stat_result, str, Optional[bytes]]]:
        if folder not in self.scripts:
            out: list[tuple[str, os.stat_result, str, Optional[bytes]]] = []
            listed = self.listing(str(folder))
            real_folder = _key(str(folder)) if listed is not None else ""
            # the scripts by name (a folder of a thousand other entries, pytest's or a
            # home folder, costs one pass over the names, no sort of them all)
            entries = (
                [listed[n] for n in sorted(n for n in listed if n.endswith(SCRIPT_SUFFIXES))]
                if listed is not None
                else []
            )
            for e in entries[:_SCAN_FILES]:
                try:
                    if not e.is_file():
                        continue
                    st = e.stat()
                    if st.st_size > _SCAN_BYTES:
                        continue
                    # an editor's open buffer (the language server) before the disk
                    hit = self.buffers.get(os.path.abspath(e.path)) if self.buffers else None
                    # a plain file's real path is its real folder's plus its name (no
                    # lstat of every component again); a symbolic link is resolved
                    real = _key(e.path) if e.is_symlink() else os.path.join(real_folder, e.name)
                except OSError:
                    continue
                out.append((e.path, st, real, hit))
            self.scripts[folder] = out
        return self.scripts[folder]

    def _scan(self, folder: Path) -> dict[bytes, list[str]]:
        out: dict[bytes, list[str]] = {}
        for path, st, real, buffer in self._scripts(folder):
            try:
                names = _names_in(path, st, buffer)
            except OSError:
                continue
            for n in names:
                out.setdefault(n, []).append(real)
        return out


#: the names each script names, kept for the process (the language server lints the
#: same folder on every change): (path, mtime, size) -> names for a file on disk,
#: path -> (its text, names) for an editor's buffer (the latest text only)
_ON_DISK: dict[tuple[str, int, int], frozenset[bytes]] = {}
_IN_BUFFER: dict[str, tuple[bytes, frozenset[bytes]]] = {}
#: (path, mtime, size) -> file names a file on disk does not hold (its names were not
#: worked out: `_Folders.naming`'s substring test)
_LACKS: dict[tuple[str, int, int], set[bytes]] = {}


def _names(path: str, st: "os.stat_result", buffer: Optional[bytes], name: bytes) -> bool:
    """Whether one script names ``name``: from the kept names, else by a substring test
    of its text before the pattern (a file that cannot be read names nothing)."""
    try:
        if buffer is not None:
            data = buffer[:_SCAN_BYTES]
            last = _IN_BUFFER.get(path)
            if last is not None and last[0] == data:
                return name in last[1]
        else:
            key = (path, st.st_mtime_ns, st.st_size)
            hit = _ON_DISK.get(key)
            if hit is not None:
                return name in hit
            if name in _LACKS.get(key, ()):
                return False
            from vcfg.fileio import read_regular

            data = read_regular(path, _SCAN_BYTES)
            if name not in data:
                if time.time_ns() - st.st_mtime_ns > 2_000_000_000:  # as _names_in keeps names
                    if len(_LACKS) > 4096:
                        _LACKS.clear()
                    _LACKS.setdefault(key, set()).add(name)
                return False
        return name in data and name in _names_in(path, st, buffer, data)
    except OSError:
        return False


def _names_in(
    path: str, st: "os.stat_result", buffer: Optional[bytes], data: Optional[bytes] = None
) -> frozenset[bytes]:
    if buffer is not None:
        data = buffer[:_SCAN_BYTES]
        last = _IN_BUFFER.get(path)
        if last is not None and last[0] == data:
            return last[1]
    else:
        key = (path, st.st_mtime_ns, st.st_size)
        hit = _ON_DISK.get(key)
        if hit is not None:
            return hit
        if data is None:
            from vcfg.fileio import read_regular

            data = read_regular(path, _SCAN_BYTES)
    names = frozenset((m.group(1) or m.group(2)).rsplit(b"/", 1)[-1] for m in _NAMED.finditer(data))
    cache: Any = _IN_BUFFER if buffer is not None else _ON_DISK
    if len(cache) > 4096:
        cache.clear()
    if buffer is not None:
        _IN_BUFFER[path] = (data, names)
    elif time.time_ns() - st.st_mtime_ns > 2_000_000_000:
        # a file changed in the last two seconds may change again within the same
        # timestamp tick, its size the same: not kept (git's "racy" rule)
        _ON_DISK[key] = names
    return names


def _mentions(real: str, folders: _Folders) -> list[str]:
    """Scripts beside ``real`` or in its parent folder that name its file name: the
    candidates that may start it (checked against their own plans)."""
    if not folders.isfile(real):
        return []
    me = Path(real)
    found: list[str] = []
    for folder in dict.fromkeys((me.parent, me.parent.parent)):
        found.extend(x for x in folders.naming(folder, me.name.encode()) if x != real and x not in found)
    return found


def _format_group(real: str, folders: _Folders) -> list[str]:
    """Files a format puts in one deployment with ``real``: a kustomization and its
    resources, a compose file and its override."""
    if not folders.isfile(real):
        return []
    p = Path(real)
    out: list[str] = []
    folder = p.parent
    for k in _KUSTOMIZATIONS:
        kp = folder / k
        if folders.isfile(str(kp)):
            res = _kustomize_resources(kp)
            if p.name in _KUSTOMIZATIONS or _key(real) in res:
                out.append(_key(str(kp)))
                out.extend(res)
            break
    for base, override in _COMPOSE_PAIRS:
        if p.name in (base, override) and folders.isfile(str(folder / base)) and folders.isfile(str(folder / override)):
            out += [_key(str(folder / base)), _key(str(folder / override))]
    return [x for x in out if x != real]


def _kustomize_resources(kp: Path) -> list[str]:
    import yaml

    try:
        from vcfg.fileio import MAX_BYTES, read_regular
        from vcfg.launch.yaml_bounds import BoundedLoader

        doc = yaml.load(read_regular(str(kp))[:MAX_BYTES].decode("utf-8", "replace"), Loader=BoundedLoader)
    except (OSError, yaml.YAMLError, RecursionError, ValueError):
        return []
    out = []
    for key in ("resources", "patches", "patchesStrategicMerge"):
        items = doc.get(key) if isinstance(doc, dict) else None
        for it in items if isinstance(items, list) else ():
            rel = it.get("path") if isinstance(it, dict) else it
            if isinstance(rel, str) and (kp.parent / rel).is_file():
                out.append(_key(str(kp.parent / rel)))
    return out


class _Union:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def join(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def group(
    given: Iterable[Any],
    load: Callable[[str], Optional[Any]],
    specs: Iterable[DeploymentSpec] = (),
    root: Optional[Path] = None,
    buffers: Optional[Mapping[str, bytes]] = None,
) -> list[Deployment]:
    """The deployments the ``given`` FileContexts belong to, each with every member
    (``load(path)`` reads one the user did not give; None: unreadable, left out;
    ``buffers``: the run's, absolute path -> bytes read before the disk)."""
    return [d for _, d in group_keyed(given, load, specs, root, buffers)]


def group_keyed(
    given: Iterable[Any],
    load: Callable[[str], Optional[Any]],
    specs: Iterable[DeploymentSpec] = (),
    root: Optional[Path] = None,
    buffers: Optional[Mapping[str, bytes]] = None,
) -> list[tuple[str, Deployment]]:
    """`group`, each deployment with the real path of its first member (what orders
    them: the same whichever of its members are given)."""
    by_real: dict[str, Any] = {}
    for fc in given:
        by_real.setdefault(_key(fc.path), fc)
    specs = list(specs)
    uf = _Union()
    hosts: dict[str, str] = {}
    starter_of: dict[str, str] = {}
    todo = list(by_real)
    done: set[str] = set()

    peeked: dict[str, Optional[Any]] = {}
    folders = _Folders(buffers)
    starts: dict[str, list[str]] = {}

    def started(real: str, fc: Any) -> list[str]:
        if real not in starts:
            starts[real] = _started(fc, real, folders)
        return starts[real]

    def peek(real: str) -> Optional[Any]:
        if real in by_real:
            return by_real[real]
        if real not in peeked:
            peeked[real] = load(_shown(real))
        return peeked[real]

    def member(real: str) -> Optional[Any]:
        if real not in by_real:
            fc = peek(real)
            if fc is None:
                return None
            by_real[real] = fc
            todo.append(real)
        return by_real[real]

    spec_members: list[tuple[DeploymentSpec, list[str]]] = []
    if root is not None:
        for spec in specs:
            spec_members.append((spec, [_key(f) for f in _spec_files(spec, root)]))
    while todo:
        real = todo.pop()
        if real in done:
            continue
        done.add(real)
        fc = by_real[real]
        uf.find(real)
        for spec, members in spec_members:
            if real in members:
                for m in members:
                    if member(m) is not None:
                        uf.join(real, m)
                for glob, host in spec.hosts:
                    if root is not None and _match(glob, real, root):
                        hosts.setdefault(real, f"host:{host}")
        for s in started(real, fc):
            if member(s) is not None:
                uf.join(real, s)
                starter_of.setdefault(s, real)
        for cand in _mentions(real, folders):
            cfc = peek(cand)
            if cfc is not None and real in started(cand, cfc) and member(cand) is not None:
                uf.join(real, cand)
                starter_of.setdefault(real, cand)
        for other in _format_group(real, folders):
            if member(other) is not None:
                uf.join(real, other)

    def host_of(real: str, depth: int = 0) -> str:
        if real in hosts:
            return hosts[real]
        if real in starter_of and depth < 50:
            return host_of(starter_of[real], depth + 1)
        return f"file:{by_real[real].path}"

    groups: dict[str, list[str]] = {}
    for real in by_real:
        groups.setdefault(uf.find(real), []).append(real)
    out = []
    for reals in groups.values():
        reals.sort()
        names = [spec.name for spec, members in spec_members if reals[0] in members]
        files = [by_real[r] for r in reals]
        out.append(
            (
                reals[0],
                Deployment(names[0] if names else files[0].path, files, {by_real[r].path: host_of(r) for r in reals}),
            )
        )
    # by the first member's real path (known: not resolved again)
    out.sort(key=lambda x: x[0])
    return out
