"""Where a Hub model's config.json already sits on this machine: the Hugging Face cache.

vLLM resolves a model id such as ``Qwen/Qwen3-8B`` through huggingface_hub, which keeps
every file it downloaded under ``<cache>/models--Qwen--Qwen3-8B/snapshots/<commit>/``
and the commit a branch or tag points to in ``<cache>/models--.../refs/<name>``.  The
cache is ``--download-dir`` when the launch gives one (vLLM passes it as ``cache_dir``),
else ``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else ``~/.cache/huggingface/hub``
(huggingface_hub/constants.py).  vcfg only looks: it never downloads, never writes, and
reads only a regular file of bounded size (vcfg.fileio.read_regular); only the snapshot
the revision's ref names (or a revision given as a commit hash) is used, as vLLM would
resolve it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Mapping, Optional

#: ``org/name`` (or ``name``): what huggingface_hub accepts as a repo id
_REPO_ID = re.compile(r"^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,95}/)?[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")
#: a commit hash (a revision that names a snapshot directly)
_COMMIT = re.compile(r"^[0-9a-f]{40}$")


def cache_dirs(env: Mapping[str, str], download_dir: Optional[str] = None) -> list[Path]:
    """The hub caches to look in, in vLLM's order of preference."""
    out: list[Path] = []
    if download_dir:
        out.append(Path(os.path.expanduser(download_dir)))
    if env.get("HF_HUB_CACHE"):
        out.append(Path(os.path.expanduser(env["HF_HUB_CACHE"])))
    elif env.get("HF_HOME"):
        out.append(Path(os.path.expanduser(env["HF_HOME"])) / "hub")
    else:
        xdg = env.get("XDG_CACHE_HOME")
        base = Path(os.path.expanduser(xdg)) if xdg else Path(os.path.expanduser("~")) / ".cache"
        out.append(base / "huggingface" / "hub")
    return out


def is_repo_id(text: str) -> bool:
    return bool(_REPO_ID.match(text)) and ".." not in text


def snapshot_dir(repo_id: str, caches: list[Path], revision: Optional[str] = None) -> Optional[Path]:
    """The cached snapshot of ``repo_id`` at ``revision`` (default ``main``) that holds a
    config.json, or None."""
    if not is_repo_id(repo_id):
        return None
    folder = "models--" + repo_id.replace("/", "--")
    rev = revision or "main"
    for cache in caches:
        root = cache / folder
        try:
            if not root.is_dir():
                continue
            snaps = root / "snapshots"
            commit: Optional[str] = None
            if _COMMIT.match(rev):
                commit = rev
            else:
                ref = root / "refs" / rev
                if ref.is_file() and ref.stat().st_size <= 256:
                    commit = ref.read_text(encoding="ascii", errors="replace").strip()
            if commit is not None:
                cand = snaps / commit
                if _COMMIT.match(commit) and (cand / "config.json").is_file():
                    return cand
        except OSError:
            continue
    return None
