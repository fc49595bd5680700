"""The committed schemas: ``schemas/<release>/{serve,kv-transfer-config,env}.schema.json``
for the newest patch of every bundled minor release (`newest_patches`; the schema of
any bundled release comes from ``vcfg schema --vllm-version X``), and ``schemas/catalog.json`` in SchemaStore's catalog
format.  Written by ``python -m vcfg.dev generate`` (which calls
`write_schemas`), from the bundled catalogs and knowledge packs, without vLLM's
prose.  Only the lenient draft-07 schemas are committed (about 6.5 MB for 24
releases); strict ones and other drafts come from ``vcfg schema`` on demand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

from vcfg.catalog import store
from vcfg.catalog.model import Catalog
from vcfg.catalog.releases import newest_patches
from vcfg.schema import common as c
from vcfg.schema.build import SchemaOptions, build_schema
from vcfg.schema.context import load_knowledge
from vcfg.schema.history import History

#: ``schemas/`` at the top of the source checkout.
SCHEMAS_DIR = Path(__file__).resolve().parents[2] / "schemas"
CATALOG_FILE = "catalog.json"

#: SchemaStore catalog entries: names, and file names an editor may match.  The
#: ``vllm serve --config`` file has no fixed name, so only vcfg's own conventions are
#: matched (SchemaStore rejects generic patterns such as ``config.yaml``).
CATALOG_ENTRIES: dict[str, dict[str, Any]] = {
    c.SERVE: {
        "name": "vLLM serve config",
        "description": "vllm serve --config YAML file (vcfg, per vLLM release)",
        "fileMatch": ["*.vllm.yaml", "*.vllm.yml", "vllm-serve.yaml", "vllm-serve.yml"],
    },
    c.KV_TRANSFER: {
        "name": "vLLM KV transfer config",
        "description": "vLLM --kv-transfer-config JSON (vcfg, per vLLM release)",
        "fileMatch": ["*.kv-transfer.json", "kv-transfer-config.json"],
    },
    c.ENV: {
        "name": "vLLM environment",
        "description": "vLLM environment variables as a mapping (vcfg, per vLLM release)",
        "fileMatch": ["*.vllm-env.yaml", "*.vllm-env.yml", "*.vllm-env.json"],
    },
}


def bundled_catalogs() -> dict[str, Catalog]:
    return {v: store.load_exact(v) for v in store.bundled_versions()}


def written_releases(catalogs: dict[str, Catalog], history: History) -> list[str]:
    """The releases that get a folder: every bundled release dates the keys; the
    newest patch of each minor is committed."""
    return [v for v in newest_patches(tuple(history.versions)) if v in catalogs]


def release_texts(version: str, catalog: Catalog, history: History, knowledge: Any = None) -> dict[str, str]:
    """Relative path -> JSON text of the committed files of one release."""
    out: dict[str, str] = {}
    for kind in c.KINDS:
        schema = build_schema(catalog, kind, SchemaOptions(), history=history, knowledge=knowledge)
        out[f"{version}/{c.schema_file_name(kind)}"] = c.dumps(schema)
    return out


def catalog_text(written: list[str]) -> str:
    return json.dumps(schema_catalog(written), indent=2, ensure_ascii=False) + "\n"


def schema_texts(catalogs: dict[str, Catalog], knowledge: Any = None) -> dict[str, str]:
    """Relative path -> JSON text of every committed file."""
    history = History.of(catalogs.values())
    written = written_releases(catalogs, history)
    out: dict[str, str] = {}
    for v in written:
        out.update(release_texts(v, catalogs[v], history, knowledge))
    out[CATALOG_FILE] = catalog_text(written)
    return out


def schema_catalog(versions: list[str]) -> dict[str, Any]:
    """SchemaStore's catalog format (src/api/json/catalog.json): one entry per kind,
    ``url`` the newest release, ``versions`` every release."""
    schemas = []
    for kind, entry in CATALOG_ENTRIES.items():
        urls = {v: c.schema_id(v, kind) for v in reversed(versions)}
        item = dict(entry)
        if versions:
            item["url"] = c.schema_id(versions[-1], kind)
        item["versions"] = urls
        schemas.append(item)
    return {
        "$schema": "https://json.schemastore.org/schema-catalog.json",
        "version": 1,
        "schemas": schemas,
    }


def _existing(root: Path) -> set[str]:
    if not root.is_dir():
        return set()
    out = {CATALOG_FILE} if (root / CATALOG_FILE).is_file() else set()
    for p in root.glob("*/*.schema.json"):
        out.add(p.relative_to(root).as_posix())
    return out


def write_schemas(
    versions: Optional[list[str]] = None,
    *,
    check: bool = False,
    root: Path = SCHEMAS_DIR,
    catalogs: Optional[dict[str, Catalog]] = None,
    knowledge: Any = "bundled",
) -> list[str]:
    """Regenerate ``root`` from the bundled catalogs; with ``check``, write nothing.
    Returns the files that are (or were) stale.

    ``versions`` is accepted for symmetry with the catalog generator; every bundled
    release is always written, because each schema names the releases a key exists
    in, which a new catalog can change."""
    del versions
    cats = catalogs if catalogs is not None else bundled_catalogs()
    if not cats:
        print("schemas: no bundled catalogs, nothing to write", file=sys.stderr)
        return []
    know = load_knowledge() if knowledge == "bundled" else knowledge
    texts = schema_texts(cats, know)
    stale = []
    for rel, text in texts.items():
        path = root / rel
        old = path.read_text(encoding="utf-8") if path.is_file() else None
        if old != text:
            stale.append(rel)
            if not check:
                store.write_text(path, text)
    extra = sorted(_existing(root) - set(texts))
    stale += extra
    if not check:
        for rel in extra:
            (root / rel).unlink()
            parent = (root / rel).parent
            if parent != root and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()
    size = sum(len(t.encode("utf-8")) for t in texts.values())
    verb = "stale" if check else "rewrote"
    print(
        f"schemas: {len(texts)} files, {size // 1024} KiB; {verb} {len(stale)}",
        file=sys.stderr,
    )
    return stale
