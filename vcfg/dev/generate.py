"""Regenerate every derived file: the bundled catalogs (from vLLM's source), the
name index, the knowledge packs' JSON form, the committed schemas and the rule pages.

    python -m vcfg.dev generate                  # everything, every bundled release
    python -m vcfg.dev generate 0.33.0           # the catalogs of some releases (and the rest)
    python -m vcfg.dev generate --only rules     # some parts: catalogs,history,knowledge,schemas,rules,plugins
    python -m vcfg.dev generate --check          # exit 1 if a file is stale, write nothing

Releases are downloaded into the user's cache (``vcfg.catalog.extract.source.from_version``).
"""

from __future__ import annotations

import argparse
import sys
import time

from vcfg.catalog import packed, store
from vcfg.catalog.extract.build import build_catalog
from vcfg.catalog.extract.source import from_version
from vcfg.catalog.releases import BUNDLED_RELEASES, GENERATED_BY
from vcfg.errors import VcfgError
from vcfg.records import replace

PARTS = ("catalogs", "history", "knowledge", "schemas", "rules", "plugins")


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

    store.clear_cache()
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
    """The bundled catalogs, packed into one table of facts (`vcfg.catalog.packed`):
    ``versions`` are rebuilt from their downloaded source, every other bundled release
    keeps the catalog it has (or is built, when it has none yet)."""
    unknown = [v for v in versions if v not in BUNDLED_RELEASES]
    if unknown:
        raise VcfgError(
            f"vllm {unknown[0]} is not a bundled release",
            hint="add it to BUNDLED_RELEASES in vcfg/catalog/releases.py",
        )
    store.clear_cache()
    cats = {}
    for v in BUNDLED_RELEASES:
        if v not in versions:
            try:
                cats[v] = store.load_exact(v)
                continue
            except VcfgError:
                pass  # a release new to the list: build it
        t = time.perf_counter()
        cats[v] = generate_one(v)
        print(f"{v}: built ({time.perf_counter() - t:.2f}s)", file=sys.stderr)
    facts, releases = packed.pack(cats[v] for v in BUNDLED_RELEASES)
    texts = {packed.FACTS_FILE: facts, **{bundled_path(v).name: t for v, t in releases.items()}}
    stale = []
    for name, text in texts.items():
        path = store.BUNDLED_DIR / name
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            stale.append(name)
            if not check:
                store.write_text(path, text)
    extra = sorted(n for n in (p.name for p in store.BUNDLED_DIR.glob("vllm-*.json*")) if n not in texts)
    stale += extra
    if not check:
        for name in extra:
            (store.BUNDLED_DIR / name).unlink()
    size = sum(len(t.encode("utf-8")) for t in texts.values())
    print(
        f"catalogs: {len(releases)} releases, {size // 1024} KiB packed; "
        f"{'stale' if check else 'rewrote'} {len(stale)} files",
        file=sys.stderr,
    )
    store.clear_cache()
    packed._table.cache_clear()
    return stale if check else []


def generate_plugin(spec: str):  # type: ignore[no-untyped-def]
    """The overlay of a bundled plugin release (``vllm-ascend==0.23.0.post1``), built
    from its wheel or sdist downloaded from the index (vcfg/catalog/extract/plugin.py)."""
    from vcfg.catalog.extract.plugin import build_plugin_catalog_from

    pc = build_plugin_catalog_from(spec)
    return replace(pc, generated_by=GENERATED_BY)


def write_plugins(check: bool = False) -> list[str]:
    """data/plugins/: the overlay of every bundled plugin release (vcfg/catalog/plugins.py)."""
    from vcfg.catalog import plugins

    stale = []
    for spec in plugins.BUNDLED_PLUGINS:
        pc = generate_plugin(spec)
        plugins.BUNDLED_DIR.mkdir(parents=True, exist_ok=True)
        stale += _derived_file(
            f"plugin {spec}", plugins.BUNDLED_DIR / f"{pc.name}-{pc.version}.json", plugins.dumps(pc), check
        )
    plugins.clear_cache()
    return stale


def write_rule_pages(check: bool = False) -> list[str]:
    """docs/rules/: one page per rule and the index (vcfg/dev/rule_pages.py); the rule
    modules a lint may leave out (vcfg/lint/rule_index.py, vcfg/dev/rule_index.py)."""
    from vcfg.dev import rule_index, rule_pages

    return rule_pages.write(check=check) + rule_index.write(check=check)


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
        if "plugins" in parts:
            stale += write_plugins(check=args.check)
    except VcfgError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if stale:
        print(f"stale: {' '.join(stale)}; run {GENERATED_BY}", file=sys.stderr)
        return 1
    return 0
