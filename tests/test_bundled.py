"""The bundled catalogs: present for every listed release, loadable, current."""

import pytest

from vcfg.catalog import store
from vcfg.catalog.releases import BUNDLED_RELEASES, GENERATED_BY
from vcfg.dev.generate import generate_one


def test_every_listed_release_is_bundled_and_nothing_else():
    assert store.bundled_versions() == list(BUNDLED_RELEASES)


@pytest.mark.parametrize("version", BUNDLED_RELEASES)
def test_bundled_catalog_loads_with_header(version):
    cat = store.load_exact(version)
    assert cat.vllm_version == version
    assert cat.generated_by == GENERATED_BY
    # 0.8.3 has the fewest: 137 actions, 105 variables, 4 connectors (docs/fidelity.md)
    assert len(cat.flags) >= 135 and len(cat.env_vars) >= 90 and cat.connectors


def test_budget():
    total = sum(p.stat().st_size for p in store.BUNDLED_DIR.iterdir())
    # 50 releases packed into one table of facts (vcfg/catalog/packed.py): 1.3 MB
    assert total < 3 * 1024 * 1024, f"bundled catalogs take {total / 1e6:.1f} MB"


@pytest.mark.slow
@pytest.mark.parametrize("version", ["0.10.2", "0.20.2", "0.33.0"])
def test_bundled_catalog_is_not_stale(version):
    """Regenerating from the downloaded release gives the committed catalog, fact for
    fact (the bundled files are packed: vcfg/catalog/packed.py; compared unpacked)."""
    fresh = store.dumps(generate_one(version), compact=True)
    committed = store.dumps(store.load_exact(version), compact=True)
    assert fresh == committed, f"run: python -m vcfg.dev generate {version}"


def test_history_index_is_current():
    from vcfg.catalog import history

    fresh = history.dumps_index(history.build_index(store.load_exact(v) for v in BUNDLED_RELEASES))
    assert history.INDEX_PATH.read_text(encoding="utf-8") == fresh, "run: python -m vcfg.dev generate --only history"


def test_presence_catalog_answers_like_the_catalog():
    from vcfg.catalog.history import presence_history

    hist = {c.vllm_version: c for c in presence_history()}
    for v in ("0.13.0", "0.33.0"):
        cat, pres = store.load_exact(v), hist[v]
        assert (pres.flag("--kv-transfer-config") is None) == (cat.flag("--kv-transfer-config") is None)
        assert (pres.connector("P2pNcclConnector") is None) == (cat.connector("P2pNcclConnector") is None)
        kv = pres.config("KVTransferConfig")
        assert (kv.field("kv_buffer_size") is None) == (cat.config("KVTransferConfig").field("kv_buffer_size") is None)
    assert hist["0.13.0"].connector("P2pNcclConnector").extra_keys


def test_knowledge_json_is_current():
    """The linter reads the bundled packs from knowledge.json; it must say what the TOML says."""
    from vcfg.catalog import knowledge

    assert knowledge.BUNDLED_JSON.read_text(encoding="utf-8") == knowledge.bundled_json(), (
        "run: python -m vcfg.dev generate --only knowledge"
    )
    from_json = [p.content for p in knowledge._bundled_packs()]
    # (a plugin entry naming no connectors gets its built overlay's: knowledge._with_overlay)
    from_toml = [
        knowledge._with_overlay(knowledge.read_pack(f, bundled=True)).content
        for f in knowledge._pack_files(knowledge.BUNDLED_DIR)
    ]
    assert from_json == from_toml and len(from_json) >= 3
