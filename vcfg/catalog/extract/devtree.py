"""vLLM's development branch: the commit of a git checkout, a source tarball read in
place, and the version a build from either gets when its source names none.

Nothing here runs git or any other program: the commit is read from the checkout's
``.git`` files (``HEAD``, the ref it names, ``packed-refs``; a worktree's ``.git`` file
and ``commondir`` followed), which is what ``git rev-parse HEAD`` answers; a tarball
made by ``git archive`` (GitHub's ``archive/refs/heads/main.tar.gz``) carries the commit
in its pax header, and a nightly wheel's version its ``+g<sha>`` local part.
"""

from __future__ import annotations

import re
import tarfile
from pathlib import Path
from typing import Optional

from vcfg.errors import VcfgError

_SHA_RE = re.compile(r"^[0-9a-f]{40}$")
#: a setuptools-scm local version: ``0.11.1rc6.dev123+gabcdef0`` or ``+gabcdef0.d20250101``
_LOCAL_SHA_RE = re.compile(r"\+(?:[0-9a-z]+\.)*g([0-9a-f]{7,40})(?:\.|$)")
#: a tarball is read in place: at most this many bytes of ``.py`` files, this many members
_TAR_MAX_BYTES, _TAR_MAX_MEMBERS = 400 << 20, 200_000


def commit_of_version(version: Optional[str]) -> Optional[str]:
    """The commit a nightly's version names: ``0.12.0.dev5+g1a2b3c4`` -> ``1a2b3c4``."""
    if not version:
        return None
    m = _LOCAL_SHA_RE.search(version)
    return m.group(1) if m else None


def git_head(root: Path) -> tuple[Optional[str], Optional[str]]:
    """(commit, branch) of the checkout at ``root``; (None, None) when it is not one.
    A detached HEAD has no branch."""
    git = root / ".git"
    try:
        if git.is_file():  # a worktree or submodule: "gitdir: <path>"
            text = git.read_text(encoding="utf-8", errors="replace").strip()
            if not text.startswith("gitdir:"):
                return None, None
            gitdir = Path(text[len("gitdir:") :].strip())
            git = gitdir if gitdir.is_absolute() else (root / gitdir)
        if not (git / "HEAD").is_file():
            return None, None
        head = (git / "HEAD").read_text(encoding="utf-8", errors="replace").strip()
        common = git
        if (git / "commondir").is_file():
            rel = (git / "commondir").read_text(encoding="utf-8", errors="replace").strip()
            common = (git / rel) if not Path(rel).is_absolute() else Path(rel)
        if _SHA_RE.match(head):
            return head, None
        if not head.startswith("ref:"):
            return None, None
        ref = head[4:].strip()
        branch = ref[len("refs/heads/") :] if ref.startswith("refs/heads/") else ref
        for base in (git, common):
            p = base / ref
            if p.is_file():
                sha = p.read_text(encoding="utf-8", errors="replace").strip()
                return (sha if _SHA_RE.match(sha) else None), branch
        packed = common / "packed-refs"
        if packed.is_file():
            for line in packed.read_text(encoding="utf-8", errors="replace").splitlines():
                parts = line.split(" ", 1)
                if len(parts) == 2 and parts[1].strip() == ref and _SHA_RE.match(parts[0]):
                    return parts[0], branch
        return None, branch  # a branch with no commit yet
    except OSError:
        return None, None


def read_tarball(path: Path) -> tuple[dict[str, bytes], Optional[str], Optional[str], Optional[str]]:
    """The ``vllm/**.py`` files of a source tarball (relative to the folder holding the
    ``vllm`` package), and its (version, commit, ref): the version from ``PKG-INFO`` (an
    sdist) or ``vllm/_version.py``, the commit from the pax header ``git archive``
    writes, the ref from the top folder's name (``vllm-main`` -> ``main``)."""
    try:
        tf = tarfile.open(path, "r:*")
    except (tarfile.TarError, OSError, EOFError) as e:
        raise VcfgError(f"{path}: not a readable source tarball ({e})") from e
    files: dict[str, bytes] = {}
    pkg_info: Optional[bytes] = None
    with tf:
        try:
            members = []
            for i, m in enumerate(tf):
                if i >= _TAR_MAX_MEMBERS:
                    raise VcfgError(f"{path}: more than {_TAR_MAX_MEMBERS:,} entries; not read as a vLLM source")
                if m.isfile():
                    members.append(m)
            prefix = _package_prefix([m.name for m in members])
            if prefix is None:
                raise VcfgError(
                    f"{path} is not a vLLM source tarball (no vllm/envs.py and vllm/engine/arg_utils.py)",
                    hint="give a tarball of vLLM's repository (GitHub's archive of a branch) or its sdist",
                )
            total = 0
            for m in members:
                if not m.name.startswith(prefix):
                    continue
                rel = m.name[len(prefix) :]
                if rel == "PKG-INFO":
                    pkg_info = _member(tf, m)
                elif rel.startswith("vllm/") and rel.endswith(".py") and ".." not in rel.split("/"):
                    total += m.size
                    if total > _TAR_MAX_BYTES:
                        raise VcfgError(f"{path}: more than {_TAR_MAX_BYTES >> 20} MiB of Python files; not read")
                    files[rel] = _member(tf, m)
            pax = tf.pax_headers or {}
        except (tarfile.TarError, OSError, EOFError, ValueError) as e:
            raise VcfgError(f"{path}: not a readable source tarball ({e})") from e
    version = None
    if pkg_info is not None:
        vm = re.search(rb"^Version:\s*(\S+)", pkg_info, re.M)
        version = vm.group(1).decode("ascii", "replace") if vm else None
    comment = pax.get("comment", "").strip()
    commit = comment if _SHA_RE.match(comment) else None
    top = prefix.strip("/").rpartition("/")[2]
    ref = None
    if top.startswith("vllm-") and not re.match(r"^\d", top[5:]):
        ref = top[5:] or None  # vllm-main -> main; vllm-0.33.0 (an sdist) names a release
    return files, version, commit, ref


def _member(tf: tarfile.TarFile, m: tarfile.TarInfo) -> bytes:
    f = tf.extractfile(m)
    return f.read() if f is not None else b""


def _package_prefix(names: list[str]) -> Optional[str]:
    """The folder (``vllm-main/``) that holds ``vllm/envs.py`` nearest the top."""
    best: Optional[str] = None
    wanted = "vllm/envs.py"
    have = set(names)
    for n in names:
        if n == wanted or n.endswith("/" + wanted):
            prefix = n[: -len(wanted)]
            if prefix + "vllm/engine/arg_utils.py" in have and (best is None or len(prefix) < len(best)):
                best = prefix
    return best


def dev_version(newest_release: str) -> str:
    """The version of a build of the development branch whose source names none: the
    minor release after ``newest_release`` (``0.33.0`` -> ``0.34.0.dev0``), so that every
    rule and pack entry for the newest release holds for it, as they do for main."""
    from vcfg.catalog.versions import parse_version

    rel = (parse_version(newest_release).release + (0, 0))[:2]
    return f"{rel[0]}.{rel[1] + 1}.0.dev0"
