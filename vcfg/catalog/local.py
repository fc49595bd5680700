"""What this machine has: vcfg's cache directory and the installed vLLM's version.

Both are asked on every ``vcfg lint``, so this module imports next to nothing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional


def cache_dir() -> Path:
    """vcfg's cache: ``$VCFG_CACHE_DIR``, else ``$XDG_CACHE_HOME/vcfg``, else ``~/.cache/vcfg``."""
    env = os.environ.get("VCFG_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "vcfg"


def installed_version() -> Optional[str]:
    """The installed vLLM's version from its metadata, or None.  Never imports vLLM.

    The ``vllm-<version>.dist-info`` (or ``.egg-info``) folder on ``sys.path`` is
    what ``importlib.metadata.version("vllm")`` reads too; finding it with a
    directory listing keeps ``importlib.metadata`` (about 10 ms) off the lint path.
    """
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if suffix not in ("dist-info", "egg-info") or not dot:
                continue
            dist, _, version = stem.partition("-")
            if dist.lower() == "vllm" and version:
                return normalise(version)
    return None


def normalise(version: Optional[str]) -> Optional[str]:
    """``0.33.0+cu130`` -> ``0.33.0``."""
    if version is None:
        return None
    return version.split("+", 1)[0]
