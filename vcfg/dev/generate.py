"""Regenerate every derived file: the bundled catalogs (from vLLM's source), the
name index, the knowledge packs' JSON form, the committed schemas and the rule pages.

    python -m vcfg.dev generate                  # everything, every bundled release
    python -m vcfg.dev generate 0.33.0           # the catalogs of some releases (and the rest)
    python -m vcfg.dev generate --only rules     # some parts: catalogs,history,knowledge,schemas,rules
    python -m vcfg.dev generate --check          # exit 1 if a file is stale, write nothing

Releases are downloaded into the user's cache (``vcfg.catalog.extract.source.from_version``).
"""

from __future__ import annotations

import argparse
import sys
import time

from vcfg.catalog import store
from vcfg.catalog.extract.build import build_catalog
from vcfg.catalog.releases import BUNDLED_RELEASES, GENERATED_BY
from vcfg.catalog.extract.source import from_version
from vcfg.errors import VcfgError
from vcfg.records import replace

PARTS = ("catalogs", "history", "knowledge", "schemas", "rules")


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


def write_catalogs(versions: list[str], check: bool = False) -> list[str]:
    """The bundled catalogs of ``versions``, built from their downloaded source."""
    stale = []
    for v in versions:
        t = time.perf_counter()
        text = store.dumps(generate_one(v), compact=True)
        path = bundled_path(v)
        if check:
            old = path.read_text(encoding="utf-8") if path.exists() else None
            if old != text:
                stale.append(v)
            print(f"{v}: {'stale' if old != text else 'up to date'}", file=sys.stderr)
        else:
            store.write_text(path, text)
            print(f"{v}: wrote {path.name} ({len(text) // 1024} KiB, {time.perf_counter() - t:.2f}s)", file=sys.stderr)
    return stale


def write_rule_pages(check: bool = False) -> list[str]:
    """docs/rules/: one page per rule and the index (vcfg/dev/rule_pages.py)."""
    from vcfg.dev import rule_pages

    return rule_pages.write(check=check)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vcfg.dev generate")
    ap.add_argument("versions", nargs="*", help="the catalogs to rebuild (default: every bundled release)")
    ap.add_argument("--check", action="store_true", help="compare, write nothing")
    ap.add_argument("--only", default=",".join(PARTS), help=f"comma separated parts (default: {','.join(PARTS)})")
    args = ap.parse_args(argv)
    parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        ap.error(f"unknown part {unknown[0]!r}: expected some of {', '.join(PARTS)}")
    versions = args.versions or list(BUNDLED_RELEASES)
    stale: list[str] = []
    try:
        if "catalogs" in parts:
            stale += write_catalogs(versions, check=args.check)
        if "history" in parts:
            stale += write_history(check=args.check)
        if "knowledge" in parts:
            stale += write_knowledge(check=args.check)
        if "schemas" in parts:  # schemas/ is derived from the catalogs and packs
            from vcfg.dev.schemas import write_schemas

            stale += write_schemas(versions, check=args.check)
        if "rules" in parts:
            stale += write_rule_pages(check=args.check)
    except VcfgError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if stale:
        print(f"stale: {' '.join(stale)}; run {GENERATED_BY}", file=sys.stderr)
        return 1
    return 0
