"""The committed schemas/ folder: fresh, valid, identified, small enough."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from vcfg.catalog import store
from vcfg.catalog.releases import newest_patches
from vcfg.dev.schemas import (
    CATALOG_FILE,
    SCHEMAS_DIR,
    bundled_catalogs,
    catalog_text,
    release_texts,
    schema_catalog,
    write_schemas,
    written_releases,
)
from vcfg.schema import common
from vcfg.schema.context import load_knowledge
from vcfg.schema.history import History

ROOT = Path(__file__).resolve().parents[1]
MAX_TOTAL_BYTES = 10 * 1024 * 1024  # 26 minors (0.8 to 0.33), newest patch each: 8.4 MiB

pytestmark = pytest.mark.skipif(not store.bundled_versions(), reason="no bundled catalogs")


def _files() -> list[Path]:
    return sorted(SCHEMAS_DIR.glob("*/*.schema.json"))


@lru_cache(maxsize=None)
def _generator_inputs() -> tuple[dict, History, Any, list[str]]:
    """What `write_schemas` builds every file from, once per process: the bundled
    catalogs, the history of their keys, the knowledge packs, the releases written."""
    cats = bundled_catalogs()
    history = History.of(cats.values())
    return cats, history, load_knowledge(), written_releases(cats, history)


_STALE = "run python -m vcfg.dev generate --only schemas"


def test_committed_files_are_the_generated_ones() -> None:
    """The files `write_schemas` writes, and no other: one folder per written release
    (the same as the parametrization below) and catalog.json, byte for byte."""
    _cats, _history, _know, written = _generator_inputs()
    assert written == list(newest_patches(tuple(store.bundled_versions())))
    expected = {f"{v}/{common.schema_file_name(k)}" for v in written for k in common.KINDS} | {CATALOG_FILE}
    committed = {p.relative_to(SCHEMAS_DIR).as_posix() for p in _files()}
    if (SCHEMAS_DIR / CATALOG_FILE).is_file():
        committed.add(CATALOG_FILE)
    assert committed == expected, f"extra: {sorted(committed - expected)[:5]}; {_STALE}"
    assert (SCHEMAS_DIR / CATALOG_FILE).read_text(encoding="utf-8") == catalog_text(written), _STALE


def _ends_by_default(names: list[str]) -> list[pytest.ParameterSet]:
    """One param per release of ``names`` (oldest first): the oldest and the newest in
    the default suite, the others slow."""
    ends = {names[0], names[-1]} if names else set()
    return [pytest.param(n, id=n, marks=() if n in ends else pytest.mark.slow) for n in names]


def _written_releases() -> list[pytest.ParameterSet]:
    """Each written release (both ends read the history of every release's keys, which
    dates them; building a release's three schemas takes about 0.2 s)."""
    return _ends_by_default(list(newest_patches(tuple(store.bundled_versions()))))


@pytest.mark.parametrize("release", _written_releases())
def test_committed_schemas_are_up_to_date(release: str) -> None:
    """Each release's committed files are what the generator writes now (one case per
    release, so that pytest-xdist spreads the 26 releases over its workers)."""
    cats, history, know, _written = _generator_inputs()
    texts = release_texts(release, cats[release], history, know)
    assert len(texts) == 3
    stale = [
        rel
        for rel, text in texts.items()
        if not (SCHEMAS_DIR / rel).is_file() or (SCHEMAS_DIR / rel).read_text(encoding="utf-8") != text
    ]
    assert stale == [], f"stale: {stale}; {_STALE}"


def test_write_schemas_writes_checks_and_prunes(tmp_path: Path) -> None:
    """`write_schemas` itself, on two releases into a scratch folder: it writes every
    file, a check then finds nothing stale, and a changed or extra file is stale (and
    rewritten or removed by the next write)."""
    cats = {v: store.load_exact(v) for v in (store.bundled_versions()[0], store.bundled_versions()[-1])}
    know = _generator_inputs()[2]
    root = tmp_path / "schemas"
    written = write_schemas(root=root, catalogs=cats, knowledge=know)
    assert len(written) == 7 and CATALOG_FILE in written
    assert write_schemas(check=True, root=root, catalogs=cats, knowledge=know) == []
    changed = sorted(w for w in written if w != CATALOG_FILE)[0]
    (root / changed).write_text("{}", encoding="utf-8")
    (root / "0.0.1").mkdir()
    (root / "0.0.1" / "serve.schema.json").write_text("{}", encoding="utf-8")
    stale = write_schemas(check=True, root=root, catalogs=cats, knowledge=know)
    assert stale == [changed, "0.0.1/serve.schema.json"]
    assert write_schemas(root=root, catalogs=cats, knowledge=know) == stale
    assert not (root / "0.0.1").exists()
    assert write_schemas(check=True, root=root, catalogs=cats, knowledge=know) == []


def test_one_folder_per_bundled_release_with_three_kinds() -> None:
    assert SCHEMAS_DIR == ROOT / "schemas"
    releases = sorted((p.name for p in SCHEMAS_DIR.iterdir() if p.is_dir()), key=store.version_key)
    # the newest patch of each bundled minor (every release: `vcfg schema --vllm-version X`)
    assert releases == list(newest_patches(tuple(store.bundled_versions())))
    for v in releases:
        assert sorted(p.name for p in (SCHEMAS_DIR / v).iterdir()) == [
            "env.schema.json",
            "kv-transfer-config.schema.json",
            "serve.schema.json",
        ]


def _release_folders() -> list[pytest.ParameterSet]:
    """Each committed release folder (the generator is the same for all; each release's
    content is validated by .ci/run's slow stage)."""
    return _ends_by_default(sorted((p.name for p in SCHEMAS_DIR.iterdir() if p.is_dir()), key=store.version_key))


@pytest.mark.parametrize("release", _release_folders())
def test_every_committed_schema_validates_against_draft_07(release: str) -> None:
    meta = jsonschema.Draft7Validator(jsonschema.Draft7Validator.META_SCHEMA)
    files = sorted((SCHEMAS_DIR / release).glob("*.schema.json"))
    assert len(files) == 3
    for p in files:
        s = json.loads(p.read_text(encoding="utf-8"))
        errs = list(meta.iter_errors(s))
        assert not errs, (p, errs[0].message)
        v, name = p.parent.name, p.name
        assert s["$schema"] == common.METASCHEMA["07"]
        assert s["$id"] == f"{common.ID_BASE}{v}/{name}"
        assert s["$comment"].startswith(f"Generated by vcfg from its catalog of vLLM {v} ")


def test_catalog_json_lists_every_release_in_schemastore_format() -> None:
    cat = json.loads((SCHEMAS_DIR / "catalog.json").read_text(encoding="utf-8"))
    versions = list(newest_patches(tuple(store.bundled_versions())))
    assert cat == schema_catalog(versions)
    assert cat["version"] == 1 and len(cat["schemas"]) == 3
    ids = {json.loads(p.read_text(encoding="utf-8"))["$id"] for p in _files()}
    for entry in cat["schemas"]:
        assert entry["name"] and entry["description"] and entry["fileMatch"]
        assert list(entry["versions"]) == list(reversed(versions))
        assert entry["url"] == entry["versions"][versions[-1]]
        assert set(entry["versions"].values()) <= ids
        for pattern in entry["fileMatch"]:  # SchemaStore rejects generic names
            assert pattern not in ("*.yaml", "*.json", "config.yaml", "*.yml")


def test_total_size_within_budget() -> None:
    total = sum(p.stat().st_size for p in SCHEMAS_DIR.rglob("*.json"))
    assert total < MAX_TOTAL_BYTES, total


def _descriptions(node: object) -> list[str]:
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            for k, v in n.items():
                if k in ("markdownDescription", "description", "deprecationMessage") and isinstance(v, str):
                    out.append(v)
                else:
                    stack.append(v)
        elif isinstance(n, list):
            stack.extend(n)
    return out


@pytest.mark.slow
def test_no_vllm_help_text_in_committed_schemas() -> None:
    """vLLM's own field docs, flag help and env comments (read from the real 0.33.0
    source) appear nowhere in the committed schemas of 0.33.0."""
    from vcfg.catalog.extract.source import from_version
    from vcfg.schema.helptext import HelpTexts

    cat = store.load_exact("0.33.0")
    help_texts = HelpTexts(from_version("0.33.0"))
    found = [help_texts.for_field(f) for c in cat.configs for f in c.fields]
    found += [help_texts.for_flag(f) for f in cat.flags]
    found += [help_texts.for_env(e) for e in cat.env_vars]
    # sentences of vLLM's prose, long enough not to be a bare name or value
    sentences = {
        part.strip()
        for text in found
        if text
        for part in text.replace("\n", " ").split(". ")
        if len(part.strip()) >= 30
    }
    assert len(sentences) > 300  # the reader found vLLM's prose
    ours = "\n".join(
        d
        for p in (SCHEMAS_DIR / "0.33.0").glob("*.json")
        for d in _descriptions(json.loads(p.read_text(encoding="utf-8")))
    ).replace("\n", " ")
    leaked = [t for t in sentences if t in ours]
    assert leaked == []
