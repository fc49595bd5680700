"""Regenerate everything derived from vLLM releases: the bundled catalogs.

    python -m vcfg.catalog.generate            # all bundled releases
    python -m vcfg.catalog.generate 0.33.0     # some
    python -m vcfg.catalog.generate --check    # exit 1 if a bundled file is stale

Releases are downloaded into the user's cache (``vcfg.catalog.source.from_version``).
"""

from __future__ import annotations

import argparse
import sys
import time

from vcfg.catalog import store
from vcfg.catalog.build import build_catalog
from vcfg.catalog.releases import BUNDLED_RELEASES
from vcfg.catalog.source import from_version
from vcfg.errors import VcfgError
from vcfg.records import replace

GENERATED_BY = "python -m vcfg.catalog.generate"


def generate_one(version: str):  # type: ignore[no-untyped-def]
    cat = build_catalog(from_version(version), version=version)
    return replace(cat, generated_by=GENERATED_BY)


def bundled_path(version: str):  # type: ignore[no-untyped-def]
    return store.BUNDLED_DIR / f"vllm-{version}.json"


def _derived_file(label: str, path, text: str, check: bool) -> list[str]:  # type: ignore[no-untyped-def]
    """Write ``text`` to ``path``, or with ``check`` only compare: ``[label]`` when stale."""
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if check:
        print(f"{label}: {'stale' if old != text else 'up to date'}", file=sys.stderr)
        return [label] if old != text else []
    path.write_text(text, encoding="utf-8")
    print(f"{label}: wrote {path.name} ({len(text) // 1024} KiB)", file=sys.stderr)
    return []


def write_history(check: bool = False) -> list[str]:
    """The name index over every bundled catalog (vcfg/catalog/history.py)."""
    from vcfg.catalog import history

    store._load_path.cache_clear()
    text = history.dumps_index(history.build_index(store.load_exact(v) for v in BUNDLED_RELEASES))
    stale = _derived_file("history index", history.INDEX_PATH, text, check)
    history.load_index.cache_clear()
    return stale


def write_knowledge(check: bool = False) -> list[str]:
    """The bundled knowledge packs in their checked JSON form (vcfg/catalog/knowledge.py)."""
    from vcfg.catalog import knowledge

    stale = _derived_file("knowledge packs", knowledge.BUNDLED_JSON, knowledge.bundled_json(), check)
    knowledge._bundled_packs.cache_clear()
    return stale


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vcfg.catalog.generate")
    ap.add_argument("versions", nargs="*", help="default: every bundled release")
    ap.add_argument("--check", action="store_true", help="compare, write nothing")
    args = ap.parse_args(argv)
    versions = args.versions or list(BUNDLED_RELEASES)
    stale = []
    try:
        for v in versions:
            t = time.perf_counter()
            text = store.dumps(generate_one(v), compact=True)
            path = bundled_path(v)
            if args.check:
                old = path.read_text(encoding="utf-8") if path.exists() else None
                if old != text:
                    stale.append(v)
                print(f"{v}: {'stale' if old != text else 'up to date'}", file=sys.stderr)
            else:
                store.write_text(path, text)
                print(
                    f"{v}: wrote {path.name} ({len(text) // 1024} KiB, "
                    f"{time.perf_counter() - t:.2f}s)",
                    file=sys.stderr,
                )
        stale += write_history(check=args.check)
        stale += write_knowledge(check=args.check)
        from vcfg.schema.write import write_schemas  # schemas/ is derived from the catalogs

        stale += write_schemas(versions, check=args.check)
    except VcfgError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if stale:
        print(f"stale: {' '.join(stale)}; run {GENERATED_BY}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
