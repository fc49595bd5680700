"""A source distribution (sdist) downloaded from the package index, without building it.

``pip download --no-binary :all: X==V`` cannot fetch an sdist without preparing its
metadata, which runs the package's build backend (its ``setup.py``): code vcfg must not
run, and for vllm-ascend 0.23.0.post1 it fails anyway (its build needs
``setuptools_scm``, cmake and torch).  The index's own JSON listing (PEP 691, what pip
reads) names every file of a project with its SHA-256; the sdist is fetched from there,
checked against that digest and never unpacked.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path

from vcfg.errors import VcfgError

#: the index: ``$VCFG_INDEX_URL``, else PyPI
DEFAULT_INDEX = "https://pypi.org/simple"
_MAX_BYTES = 500 << 20


def _canonical(project: str) -> str:
    return re.sub(r"[-_.]+", "-", project).lower()


def sdist_url(project: str, version: str) -> tuple[str, str, str]:
    """(file name, URL, sha256) of the sdist of ``project==version`` on the index."""
    import urllib.error
    import urllib.request

    index = os.environ.get("VCFG_INDEX_URL", DEFAULT_INDEX).rstrip("/")
    url = f"{index}/{_canonical(project)}/"
    req = urllib.request.Request(url, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            doc = json.loads(resp.read(20 << 20))
    except urllib.error.HTTPError as e:
        if e.code == 404:
            raise VcfgError(f"{project} is not on the package index ({index})") from e
        raise VcfgError(f"could not read the package index for {project}: {e}") from e
    except (OSError, ValueError) as e:
        raise VcfgError(f"could not read the package index for {project} (no network?): {e}") from e
    name_re = "[-_.]".join(re.escape(part) for part in _canonical(project).split("-"))
    stem = re.compile(rf"^{name_re}-{re.escape(version)}\.(tar\.gz|zip)$", re.I)
    for f in doc.get("files", []) if isinstance(doc, dict) else []:
        name = f.get("filename", "") if isinstance(f, dict) else ""
        sha = (f.get("hashes") or {}).get("sha256") if isinstance(f, dict) else None
        if stem.match(name) and sha and isinstance(f.get("url"), str):
            return name, f["url"], sha
    raise VcfgError(f"{project} {version} has no source distribution on the package index ({index})")


def download_sdist(project: str, version: str) -> Path:
    """The sdist of ``project==version`` in a new temporary folder (the caller removes
    it), its SHA-256 checked against the index's."""
    import urllib.request

    name, url, sha = sdist_url(project, version)
    if "/" in name or name.startswith("."):
        raise VcfgError(f"the package index names an odd file {name!r}")
    print(f"vcfg: downloading {name} from the package index (read in place, not built)", file=sys.stderr, flush=True)
    try:
        with urllib.request.urlopen(url, timeout=300) as resp:
            data = resp.read(_MAX_BYTES + 1)
    except OSError as e:
        raise VcfgError(f"could not download {name}: {e}") from e
    if len(data) > _MAX_BYTES:
        raise VcfgError(f"{name} is larger than {_MAX_BYTES >> 20} MiB; not read")
    if hashlib.sha256(data).hexdigest() != sha:
        raise VcfgError(f"{name}: the download does not match the index's SHA-256; not used")
    folder = Path(tempfile.mkdtemp(prefix="vcfg-sdist-"))
    out = folder / name
    out.write_bytes(data)
    return out
