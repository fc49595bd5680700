"""The files a folder lint reads: those a reader may take (their names fit a reader's
patterns, or they have no extension and a ``#!`` line naming a shell), minus what
``.gitignore`` files and the project's ``exclude`` setting leave out.

Files named on the command line are always read (as ruff does); only what a folder
walk finds is filtered.
"""

from __future__ import annotations

import os
import re
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Iterable, Optional, Sequence

_SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv", ".tox", ".mypy_cache"}


class _Rule:
    __slots__ = ("regex", "negate", "dir_only", "base")

    def __init__(self, regex: re.Pattern[str], negate: bool, dir_only: bool, base: str) -> None:
        self.regex = regex
        self.negate = negate
        self.dir_only = dir_only
        self.base = base


def _glob_regex(pat: str) -> str:
    """A gitignore glob as a regex over ``/``-separated paths."""
    out = []
    i = 0
    while i < len(pat):
        c = pat[i]
        if pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pat.startswith("/**", i) and i + 3 == len(pat):
            out.append("/.*")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            j = pat.find("]", i + 1)
            if j < 0:
                out.append(re.escape(c))
                i += 1
            else:
                body = pat[i + 1 : j].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = j + 1
        elif c == "\\" and i + 1 < len(pat):
            out.append(re.escape(pat[i + 1]))
            i += 2
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def gitignore_rules(text: str, base: str) -> list[_Rule]:
    """The rules of one ``.gitignore`` whose folder is ``base`` ('' for the root)."""
    rules = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        if negate:
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        line = line.lstrip("/")
        body = _glob_regex(line)
        regex = re.compile(("^" if anchored else "^(?:.*/)?") + body + "$")
        rules.append(_Rule(regex, negate, dir_only, base))
    return rules


def _ignored(rel: str, is_dir: bool, rules: Sequence[_Rule]) -> bool:
    """Git's answer for ``rel`` (relative to the walk root): the last rule that
    matches decides."""
    result = False
    for r in rules:
        if r.dir_only and not is_dir:
            continue
        if r.base:
            if not rel.startswith(r.base + "/"):
                continue
            sub = rel[len(r.base) + 1 :]
        else:
            sub = rel
        if r.regex.match(sub):
            result = not r.negate
    return result


def _git_root(folder: Path) -> Optional[Path]:
    for p in [folder, *folder.parents]:
        if (p / ".git").exists():
            return p
    return None


def _excluded(rel: str, name: str, exclude: Sequence[str]) -> bool:
    return any(fnmatchcase(name, p) or fnmatchcase(rel, p) or fnmatchcase(rel, p.rstrip("/") + "/*") for p in exclude)


def walk(
    folder: str, exclude: Sequence[str] = (), exclude_base: Optional[Path] = None, skipped: Optional[list[str]] = None
) -> list[str]:
    """The files under ``folder`` a reader may take, sorted, without those ignored by
    ``.gitignore`` (of the folder, its subfolders and its parents up to the
    repository's root) or matched by an ``exclude`` pattern (a file or folder name, or
    a path relative to ``exclude_base``, the folder of the project config).  A FIFO,
    socket or device is never opened: it is named in ``skipped``."""
    from vcfg.launch.read import candidates, special_kind

    root = Path(folder).resolve()
    top = _git_root(root) or root
    rules: list[_Rule] = []
    # .gitignore files above the walked folder, up to the repository's root
    chain = [p for p in [root, *root.parents] if p == top or top in p.parents][::-1]
    for p in chain:
        gi = p / ".gitignore"
        if gi.is_file():
            base = p.relative_to(top).as_posix()
            rules.extend(gitignore_rules(_text(gi), "" if base == "." else base))
    ex_base = (exclude_base or root).resolve()
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        d = Path(dirpath)
        rel_dir = d.relative_to(top).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        if d != root and (d / ".gitignore").is_file():
            rules = rules + gitignore_rules(_text(d / ".gitignore"), rel_dir)
        keep = []
        for name in sorted(dirnames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if name in _SKIP_DIRS or _ignored(rel, True, rules) or _excluded(_rel(d / name, ex_base), name, exclude):
                continue
            keep.append(name)
        dirnames[:] = keep
        for name in sorted(filenames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            f = d / name
            if _ignored(rel, False, rules) or _excluded(_rel(f, ex_base), name, exclude):
                continue
            if kind := special_kind(str(f)):  # a FIFO, socket or device: never opened
                if skipped is not None:
                    shown = os.path.normpath(os.path.join(folder, os.path.relpath(f, root)))
                    skipped.append(f"{shown}: {kind}, not a regular file; skipped")
                continue
            if candidates(name, _head(f)):
                out.append(os.path.normpath(os.path.join(folder, os.path.relpath(f, root))))
    return sorted(out)


def _rel(p: Path, base: Path) -> str:
    try:
        return p.relative_to(base).as_posix()
    except ValueError:
        return p.as_posix()


def _text(p: Path) -> str:
    try:
        return p.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _head(f: Path) -> bytes:
    if "." in f.name.lstrip("."):
        return b""  # only extension-less files are judged by their #! line
    try:
        from vcfg.fileio import read_regular

        return read_regular(str(f), 256)[:256]
    except OSError:
        return b""


def expand(paths: Iterable[str], exclude: Sequence[str] = (), exclude_base: Optional[Path] = None) -> list[str]:
    """Each path named, and each folder walked (`walk`); VcfgError for a missing path."""
    from vcfg.errors import VcfgError

    out: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
        elif os.path.isdir(p):
            out.extend(walk(p, exclude, exclude_base))
        elif os.path.exists(p):
            out.append(p)
        else:
            raise VcfgError(f"{p}: no such file or directory")
    return out
