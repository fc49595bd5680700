"""Where catalogs live: bundled with vcfg (every release of `vcfg.catalog.releases`,
packed into one shared table of facts, `vcfg.catalog.packed`), or built by the user
into their cache (one plain JSON file each).  Loading one is a file read and building
records (``vcfg.records``): checked for a user's catalog, unchecked for the bundled
ones, which are generated and tested with the package.  No vLLM involved.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Optional

from vcfg import records
from vcfg.catalog import packed
from vcfg.catalog.local import cache_dir
from vcfg.catalog.model import SCHEMA_VERSION, Catalog
from vcfg.catalog.versions import Version, parse_version
from vcfg.errors import VcfgError
from vcfg.records import RecordError

BUNDLED_DIR = Path(__file__).parent / "data" / "catalogs"
_FILE_RE = re.compile(r"^vllm-(.+)\.json(\.gz)?$")


def version_key(version: str) -> Version:
    """Sort key for release numbers: ``0.10.1.1`` > ``0.10.1`` > ``0.10.0``."""
    try:
        return parse_version(version)
    except VcfgError:
        shown = version if len(version) <= 60 else version[:40] + "..."
        raise VcfgError(f"{shown!r} is not a vLLM release number", hint="e.g. 0.33.0") from None


def _exact(v: Version) -> tuple:  # type: ignore[type-arg]
    """A catalog serves its release as written: ``0.33`` is not ``0.33.0`` here (it gets
    the same-minor catalog with a note)."""
    return (v.release, v.pre, v.post, v.dev)


def _minor(v: Version) -> tuple[int, ...]:
    return (v.release + (0, 0))[:2]


def _catalog_files(folder: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}
    if folder.is_dir():
        for p in folder.iterdir():
            m = _FILE_RE.match(p.name)
            if m:
                out[m.group(1)] = p
    return out


def user_catalog_dir() -> Path:
    return cache_dir() / "catalogs"


def bundled_versions() -> list[str]:
    return sorted(_catalog_files(BUNDLED_DIR), key=version_key)


def user_versions() -> list[str]:
    return sorted(_catalog_files(user_catalog_dir()), key=version_key)


def newest_bundled() -> str:
    versions = bundled_versions()
    if not versions:
        raise VcfgError("vcfg has no bundled catalogs (a broken install?)")
    return versions[-1]


def resolve_version(version: str) -> tuple[str, Optional[Path], Optional[str]]:
    """Map a requested release to (catalog version, file, note).

    Exact matches win (bundled, then the user's cache).  Every PyPI release from
    0.8.0 is bundled; a release without a catalog (one newer than this vcfg, a local
    build's number) uses the newest bundled catalog of the same minor release, else
    the nearest lower bundled release, with a note naming it and what may differ.
    """
    key = version_key(version)
    bundled = _catalog_files(BUNDLED_DIR)
    user = _catalog_files(user_catalog_dir())
    for table in (bundled, user):
        for v, p in table.items():
            if _exact(version_key(v)) == _exact(key):
                return v, p, None
    if not bundled:
        raise VcfgError("vcfg has no bundled catalogs (a broken install?)")
    ordered = sorted(bundled, key=version_key)
    same_minor = [v for v in ordered if _minor(version_key(v)) == _minor(key)]
    lower = [v for v in ordered if version_key(v) <= key]
    if same_minor:
        chosen = same_minor[-1]
    elif lower:
        chosen = lower[-1]
    else:
        raise VcfgError(
            f"no catalog for vllm {version}: the oldest bundled release is {ordered[0]}",
            hint=f"build one with `vcfg catalog build --vllm-version {version}`",
        )
    if key > version_key(ordered[-1]) and _minor(key) != _minor(version_key(ordered[-1])):
        note = (
            f"vllm {version} is newer than every bundled catalog; using {chosen} "
            f"(build one with `vcfg catalog build --vllm-version {version}`)"
        )
    else:
        note = (
            f"no catalog for vllm {version}; using the catalog of {chosen}: what {version} "
            f"added, removed or changed since is not known (`vcfg catalog build --vllm-version "
            f"{version}` builds its own)"
        )
    return chosen, bundled[chosen], note


def read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
        if path.suffix == ".gz":  # gzip (and zlib, struct) only for a compressed catalog
            import gzip

            data = gzip.decompress(data)
        return data.decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as e:  # gzip.BadGzipFile is an OSError
        raise VcfgError(f"cannot read catalog {path}: {e}") from e


def parse(text: str, origin: str, *, trusted: bool = False, facts: Optional[Path] = None) -> Catalog:
    """A catalog from its JSON text.  Every value is checked unless ``trusted`` (the
    bundled catalogs, which are generated and tested with the package).  A packed
    release file (`vcfg.catalog.packed`) reads its facts from ``facts``."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise VcfgError(f"{origin} is not a vcfg catalog: not JSON ({e})") from e
    if not isinstance(data, dict):
        raise VcfgError(f"{origin} is not a vcfg catalog: not a JSON object")
    if packed.is_packed(data):
        if facts is None or not trusted:
            raise VcfgError(f"{origin} is a packed bundled catalog; only vcfg's own are read in this form")
        try:
            data = packed.unpack(data, facts)
        except (OSError, ValueError, LookupError, TypeError) as e:
            raise VcfgError(f"cannot read catalog {origin}: {e}") from e
    if data.get("schema_version", SCHEMA_VERSION) != SCHEMA_VERSION:
        raise VcfgError(
            f"{origin} has catalog schema {data.get('schema_version')}, this vcfg reads {SCHEMA_VERSION}",
            hint="rebuild it with `vcfg catalog build`",
        )
    if trusted:
        built: Catalog = records.build(Catalog, data)
        return built
    try:
        loaded: Catalog = records.load(Catalog, data)
        return loaded
    except RecordError as e:
        raise VcfgError(f"{origin} is not a vcfg catalog: at {'.'.join(str(x) for x in e.loc)}: {e.msg}") from e


def _load_path(path: str) -> Catalog:
    """The catalog in the file ``path``, cached by the file's identity and state: a
    resident process (the language server) sees a catalog rebuilt in place (`vcfg
    catalog build` in another terminal) as a fresh process would.  One ``stat`` a call.
    (A bundled release's shared facts table is package data: the generator, which
    rewrites it, clears these caches, vcfg/dev/generate.py.)"""
    try:
        st = os.stat(path)
    except OSError as e:
        raise VcfgError(f"cannot read catalog {path}: {e}") from e
    return _load_file(path, st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev)


@lru_cache(maxsize=64)
def _load_file(path: str, mtime_ns: int, ctime_ns: int, size: int, ino: int, dev: int) -> Catalog:
    """`_load_path` for one state of the file (the arguments after ``path`` are the key)."""
    p = Path(path)
    bundled = p.parent == BUNDLED_DIR
    return parse(read_text(p), path, trusted=bundled, facts=BUNDLED_DIR / packed.FACTS_FILE if bundled else None)


def clear_cache() -> None:
    """Forget every catalog read (a generator that rewrote the bundled ones, a test that
    moved `BUNDLED_DIR`)."""
    _load_file.cache_clear()


def load(version: Optional[str] = None) -> tuple[Catalog, Optional[str]]:
    """The catalog for ``version`` (default: the newest bundled) and a note, if the
    catalog is for another release than the one asked for."""
    if version is None:
        version = newest_bundled()
    if is_catalog_path(version):  # a catalog file (`vcfg catalog build -o`)
        p = Path(version).expanduser()
        if not p.is_file():
            raise VcfgError(f"{version}: no such catalog file")
        return _load_path(str(p.resolve())), None
    chosen, path, note = resolve_version(version)
    assert path is not None
    return _load_path(str(path)), note


def is_catalog_path(version: str) -> bool:
    """``--vllm-version`` names a catalog file rather than a release."""
    return version.endswith((".json", ".json.gz"))


def load_exact(version: str) -> Catalog:
    chosen, path, note = resolve_version(version)
    if note is not None or path is None:
        raise VcfgError(f"no catalog for vllm {version}")
    return _load_path(str(path))


def history_between(old: str, new: str) -> list[Catalog]:
    """Bundled catalogs from ``old`` to ``new`` inclusive, oldest first: used to say in
    which release something appeared or disappeared."""
    lo, hi = sorted((version_key(old), version_key(new)))
    out = []
    for v in bundled_versions():
        if lo <= version_key(v) <= hi:
            out.append(_load_path(str(_catalog_files(BUNDLED_DIR)[v])))
    return out


def dumps(cat: Catalog, indent: Optional[int] = None, compact: bool = False) -> str:
    """JSON text of a catalog.  ``compact`` leaves out values equal to the model's
    defaults (used for the bundled files); loading restores them."""
    data = records.dump(cat, exclude_defaults=compact)
    if indent is None:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(data, ensure_ascii=False, indent=indent)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    import gzip

    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        if p.suffix == ".gz":
            p.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
        else:
            p.write_text(text, encoding="utf-8")
    except OSError as e:
        raise VcfgError(f"cannot write {p}: {e}") from e


def save_user_catalog(cat: Catalog) -> Path:
    path = user_catalog_dir() / f"vllm-{cat.vllm_version}.json"
    write_text(path, dumps(cat, compact=True))
    return path
