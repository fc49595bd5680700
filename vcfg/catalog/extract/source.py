"""Where vLLM's source comes from: a tree, a wheel, an installed distribution, or a
release downloaded into the user's cache.  Nothing here imports vLLM.

A `VllmSource` answers three questions about files named relative to the tree root
(``vllm/envs.py``): does it exist, what is its text, which ``.py`` files lie under a
folder.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Optional

from vcfg.catalog.local import cache_dir
from vcfg.catalog.local import normalise as _normalise
from vcfg.errors import VcfgError
from vcfg.records import field, record

_VERSION_RE = re.compile(r"""(?:__version__|version)\s*(?::\s*str)?\s*=\s*['"]([^'"]+)['"]""")
_RELEASE_RE = re.compile(r"^\d+\.\d+(\.\d+){0,2}([.-]?(post|rc|a|b|dev)\d*)*$")


@record
class VllmSource:
    """Read access to one vLLM source tree.  Build with the ``from_*`` functions."""

    description: str
    version: Optional[str]
    #: the git commit it was built from (a checkout, a ``git archive`` tarball, a
    #: nightly wheel's ``+g<sha>``), and the branch or archive name (``main``)
    commit: Optional[str] = None
    ref: Optional[str] = None
    _root: Optional[Path] = None  # a directory holding the ``vllm`` package
    _zip: Optional[zipfile.ZipFile] = None
    #: files held in memory (a source tarball, read in place): relative name -> bytes
    _mem: Optional[dict[str, bytes]] = None
    _names: set[str] = field(default_factory=set)
    #: parsed modules, shared by the extractors (several read arg_utils.py, the config
    #: modules and the KV factory); the extractors never mutate a tree
    _trees: dict[str, Optional[ast.Module]] = field(default_factory=dict, repr=False)
    #: why a file could not be parsed (for the extractors' warnings)
    parse_errors: dict[str, str] = field(default_factory=dict, repr=False)

    # -- access
    def exists(self, rel: str) -> bool:
        if self._mem is not None:
            return rel in self._mem
        if self._zip is not None:
            return rel in self._names
        assert self._root is not None
        return (self._root / rel).is_file()

    def read(self, rel: str) -> Optional[str]:
        """The text of ``rel``, or None if there is no such file."""
        try:
            if self._mem is not None:
                if rel not in self._mem:
                    return None
                data = self._mem[rel]
            elif self._zip is not None:
                if rel not in self._names:
                    return None
                data = self._zip.read(rel)
            else:
                assert self._root is not None
                p = self._root / rel
                if not p.is_file():
                    return None
                data = p.read_bytes()
        except (OSError, zipfile.BadZipFile, KeyError) as e:
            raise VcfgError(f"cannot read {rel} from {self.description}: {e}") from e
        return data.decode("utf-8", errors="replace")

    def tree(self, rel: str) -> Optional[ast.Module]:
        """The parsed module ``rel`` (cached), or None if missing or unparseable."""
        if rel not in self._trees:
            text = self.read(rel)
            tree = None
            if text is not None:
                try:
                    tree = ast.parse(text, filename=rel)
                except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
                    self.parse_errors[rel] = str(e)
            self._trees[rel] = tree
        return self._trees[rel]

    def py_files(self, folder: str) -> list[str]:
        """All ``.py`` files below ``folder`` (relative names, sorted)."""
        folder = folder.rstrip("/") + "/"
        if self._mem is not None:
            return sorted(n for n in self._mem if n.startswith(folder) and n.endswith(".py"))
        if self._zip is not None:
            return sorted(n for n in self._names if n.startswith(folder) and n.endswith(".py"))
        assert self._root is not None
        base = self._root / folder
        if not base.is_dir():
            return []
        return sorted(str(p.relative_to(self._root)).replace(os.sep, "/") for p in base.rglob("*.py"))

    @property
    def root(self) -> Optional[Path]:
        return self._root


def _version_from_text(text: Optional[str]) -> Optional[str]:
    if not text:
        return None
    m = _VERSION_RE.search(text)
    return m.group(1) if m else None


def _check_tree(src: VllmSource) -> VllmSource:
    if not (src.exists("vllm/envs.py") and src.exists("vllm/engine/arg_utils.py")):
        raise VcfgError(
            f"{src.description} is not a vLLM source tree (no vllm/envs.py and vllm/engine/arg_utils.py)",
            hint="give the folder that holds the `vllm` package, a vllm wheel, or --vllm-version",
        )
    return src


def from_tree(path: str | os.PathLike[str]) -> VllmSource:
    """A directory holding the ``vllm`` package (or the package directory itself)."""
    p = Path(path)
    if not p.exists():
        raise VcfgError(f"{p}: no such file or directory")
    if not p.is_dir():
        raise VcfgError(f"{p}: not a directory")
    if p.name == "vllm" and (p / "envs.py").is_file():
        p = p.parent
    src = VllmSource(description=f"source tree {path}", version=None, _root=p)
    _check_tree(src)
    version = _version_from_text(src.read("vllm/_version.py")) or _version_from_text(src.read("vllm/version.py"))
    if version is None:
        for info in sorted(p.glob("vllm-*.dist-info")):
            m = re.match(r"vllm-(.+)\.dist-info", info.name)
            if m:
                version = m.group(1)
    from vcfg.catalog.extract.devtree import commit_of_version, git_head

    src.commit, src.ref = git_head(p)
    src.commit = src.commit or commit_of_version(version)
    src.version = _normalise(version)
    return src


def from_tarball(path: str | os.PathLike[str]) -> VllmSource:
    """A source tarball (GitHub's archive of a branch, ``git archive``, an sdist), read
    in place: only its ``vllm/**.py`` files are read, into memory; nothing is written."""
    from vcfg.catalog.extract.devtree import read_tarball

    p = Path(path)
    files, version, commit, ref = read_tarball(p)
    src = VllmSource(description=f"source tarball {p.name}", version=None, _mem=files)
    src.version = _normalise(version or _version_from_text(src.read("vllm/_version.py")))
    src.commit, src.ref = commit, ref
    return src


def is_tarball(path: str | os.PathLike[str]) -> bool:
    return Path(path).is_file() and str(path).endswith((".tar.gz", ".tgz", ".tar", ".tar.xz", ".tar.bz2"))


def from_wheel(path: str | os.PathLike[str]) -> VllmSource:
    p = Path(path)
    if not p.is_file():
        raise VcfgError(f"{p}: no such file")
    try:
        zf = zipfile.ZipFile(p)
        names = set(zf.namelist())
    except (zipfile.BadZipFile, OSError) as e:
        raise VcfgError(f"{p}: not a readable wheel ({e})") from e
    src = VllmSource(description=f"wheel {p.name}", version=None, _zip=zf, _names=names)
    _check_tree(src)
    version = None
    for n in names:
        m = re.match(r"vllm-([^/]+)\.dist-info/METADATA$", n)
        if m:
            version = m.group(1)
    version = version or _version_from_text(src.read("vllm/_version.py"))
    from vcfg.catalog.extract.devtree import commit_of_version

    src.commit = commit_of_version(version)
    src.version = _normalise(version)
    return src


def from_installed() -> VllmSource:
    """The vLLM installed in this Python, located through its metadata (not imported)."""
    from importlib import metadata

    try:
        dist = metadata.distribution("vllm")
    except metadata.PackageNotFoundError as e:
        raise VcfgError("no vLLM is installed in this Python") from e
    root = Path(str(dist.locate_file("")))
    src = VllmSource(description=f"installed vllm {dist.version}", version=None, _root=root)
    _check_tree(src)
    from vcfg.catalog.extract.devtree import commit_of_version

    src.commit = commit_of_version(dist.version)
    src.version = _normalise(dist.version)
    return src


def from_version(version: str, *, download: bool = True) -> VllmSource:
    """A release from vcfg's cache, downloading its wheel from PyPI if needed.

    Only the ``.py`` files of the wheel are kept, under ``<cache>/vllm-src/<version>``.
    """
    if not _RELEASE_RE.match(version):
        raise VcfgError(f"{version!r} is not a vLLM release number", hint="e.g. 0.33.0")
    dest = cache_dir() / "vllm-src" / version
    if (dest / "vllm" / "envs.py").is_file():
        src = from_tree(dest)
        src.version = version
        src.description = f"vllm {version} (cached)"
        return src
    if not download:
        raise VcfgError(f"vllm {version} is not in the cache ({dest})")
    # the file policy (docs/file-policy.md): say so before anything is downloaded
    print(
        f"vcfg: downloading the vllm {version} wheel from the package index with pip "
        f"(its .py files are kept in {dest})",
        file=sys.stderr,
        flush=True,
    )
    wheel = download_wheel(version)
    try:
        extract_python(wheel, dest)
    finally:
        shutil.rmtree(wheel.parent, ignore_errors=True)
    src = from_tree(dest)
    src.version = version
    src.description = f"vllm {version} (downloaded)"
    return src


#: what pip prints when it cannot reach the index (it then also says "No matching
#: distribution", which would wrongly read as "no such release")
_NETWORK_ERRORS = (
    "NewConnectionError",
    "Connection refused",
    "ConnectionError",
    "Max retries exceeded",
    "Temporary failure in name resolution",
    "Could not fetch URL",
    "Network is unreachable",
    "Read timed out",
    "ConnectTimeoutError",
    # the index listed no vllm release at all: it was not reached (PyPI lists dozens)
    "(from versions: none)",
)


def download_wheel(version: str) -> Path:
    """``pip download --no-deps --only-binary :all: vllm==X`` into a temporary folder."""
    tmp = Path(tempfile.mkdtemp(prefix="vcfg-wheel-"))
    cmd = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
        "--quiet", "--disable-pip-version-check", "-d", str(tmp), f"vllm=={version}",
    ]  # fmt: skip
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise VcfgError(f"could not run pip to download vllm {version}: {e}") from e
    wheels = list(tmp.glob("vllm-*.whl"))
    if proc.returncode != 0 or not wheels:
        shutil.rmtree(tmp, ignore_errors=True)
        last = (proc.stderr or proc.stdout).strip().splitlines()
        detail = last[-1] if last else f"pip exited {proc.returncode}"
        err = proc.stderr or ""
        offline = any(x in err for x in _NETWORK_ERRORS)
        if "No matching distribution" in err and not offline:
            raise VcfgError(f"vllm {version} is not a published release", hint=detail)
        raise VcfgError(
            f"could not download vllm {version} (no network?)",
            hint=detail,
        )
    return wheels[0]


def extract_python(wheel: Path, dest: Path) -> None:
    """Keep the ``vllm/**.py`` files and the dist-info METADATA of a wheel."""
    try:
        zf = zipfile.ZipFile(wheel)
    except (zipfile.BadZipFile, OSError) as e:
        raise VcfgError(f"{wheel}: not a readable wheel ({e})") from e
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    with zf:
        for info in zf.infolist():
            n = info.filename
            if (n.startswith("vllm/") and n.endswith(".py")) or n.endswith(".dist-info/METADATA"):
                if ".." in n.split("/"):
                    continue
                zf.extract(info, tmp)
    if not (tmp / "vllm" / "envs.py").is_file():
        shutil.rmtree(tmp, ignore_errors=True)
        raise VcfgError(f"{wheel.name} holds no vllm/envs.py: not a vLLM wheel")
    shutil.rmtree(dest, ignore_errors=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp.rename(dest)


def open_source(
    *, source: Optional[str] = None, wheel: Optional[str] = None, version: Optional[str] = None
) -> VllmSource:
    """Pick the source the user named (a tree, a git checkout or a source tarball; a
    wheel; a release); with nothing named, the installed vLLM."""
    if source:
        return from_tarball(source) if is_tarball(source) else from_tree(source)
    if wheel:
        return from_wheel(wheel)
    if version:
        return from_version(version)
    return from_installed()
