"""The packed store of the bundled catalogs (vcfg/catalog/packed.py): one table of facts
shared by every release, rows per release; what is unpacked is exactly what was packed."""

import json

import pytest
from catalog_factory import make_catalog

from vcfg import records
from vcfg.catalog import packed, store
from vcfg.catalog.model import Catalog
from vcfg.catalog.releases import BUNDLED_RELEASES
from vcfg.errors import VcfgError


def _dump(cat: Catalog) -> str:
    return json.dumps(records.dump(cat, exclude_defaults=True), sort_keys=True)


def _write(tmp_path, cats):
    facts, releases = packed.pack(cats)
    (tmp_path / packed.FACTS_FILE).write_text(facts, encoding="utf-8")
    for v, text in releases.items():
        (tmp_path / f"vllm-{v}.json").write_text(text, encoding="utf-8")
    packed._table.cache_clear()
    return facts, releases


def _read(tmp_path, v):
    p = tmp_path / f"vllm-{v}.json"
    return store.parse(p.read_text(encoding="utf-8"), str(p), trusted=True, facts=tmp_path / packed.FACTS_FILE)


def test_real_catalogs_round_trip_and_share_their_facts(tmp_path):
    versions = list(BUNDLED_RELEASES[-3:])
    cats = [store.load_exact(v) for v in versions]
    plain = sum(len(store.dumps(c, compact=True)) for c in cats)
    facts, releases = _write(tmp_path, cats)
    for v, cat in zip(versions, cats):
        assert _dump(_read(tmp_path, v)) == _dump(cat)
    # three neighbouring releases packed take well under half of their plain compact JSON
    assert len(facts) + sum(map(len, releases.values())) < plain / 2
    # a variable that did not change between two releases is one fact, not two
    row_sets = [{r[0] for r in json.loads(releases[v])["packed"]["env_vars"]} for v in versions]
    assert row_sets[0] & row_sets[1]


def test_locations_survive_a_move_without_a_new_fact(tmp_path):
    a = make_catalog("1.0.0", flags=["--x"], envs=["VLLM_A"])
    moved = json.loads(store.dumps(make_catalog("1.0.1", flags=["--x"], envs=["VLLM_A"])))
    moved["env_vars"][0]["loc"] = "vllm/envs.py:999"
    b = store.parse(json.dumps(moved), "b")
    facts, releases = _write(tmp_path, [a, b])
    assert _read(tmp_path, "1.0.1").env("VLLM_A").loc.line == 999
    assert _read(tmp_path, "1.0.0").env("VLLM_A").loc == a.env("VLLM_A").loc
    rows = [json.loads(releases[v])["packed"]["env_vars"][0] for v in ("1.0.0", "1.0.1")]
    assert rows[0][0] == rows[1][0] and rows[0][1] != rows[1][1]


def test_nested_fields_are_decoded_when_first_read(tmp_path):
    cat = store.load_exact(BUNDLED_RELEASES[-1])
    _write(tmp_path, [cat])
    again = _read(tmp_path, cat.vllm_version)
    cls = again.configs[0]
    assert "fields" in cls.__dict__["_lazy_fields"]  # still rows, not records
    assert [f.name for f in cls.fields] == [f.name for f in cat.configs[0].fields]
    assert cls.fields[0].loc == cat.configs[0].fields[0].loc


def test_bundled_files_are_packed_against_one_table():
    names = {p.name for p in store.BUNDLED_DIR.glob("vllm-*.json")}
    assert names == {f"vllm-{v}.json" for v in BUNDLED_RELEASES}
    for v in (BUNDLED_RELEASES[0], BUNDLED_RELEASES[-1]):
        data = json.loads((store.BUNDLED_DIR / f"vllm-{v}.json").read_text(encoding="utf-8"))
        assert packed.is_packed(data) and data["vllm_version"] == v
    assert (store.BUNDLED_DIR / packed.FACTS_FILE).is_file()


def test_a_packed_file_from_elsewhere_is_refused(tmp_path):
    _write(tmp_path, [make_catalog("1.0.0")])
    p = tmp_path / "vllm-1.0.0.json"
    with pytest.raises(VcfgError, match="packed bundled catalog"):
        store.parse(p.read_text(encoding="utf-8"), str(p))
