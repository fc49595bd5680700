import pytest
from catalog_factory import make_catalog

from vcfg.catalog import store
from vcfg.errors import VcfgError


@pytest.fixture
def bundled(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "BUNDLED_DIR", tmp_path)
    store.clear_cache()
    for v in ("0.10.2", "0.11.2", "0.20.2", "0.33.0"):
        store.write_text(
            tmp_path / f"vllm-{v}.json", store.dumps(make_catalog(v, flags=[f"--only-in-{v}"]), compact=True)
        )
    yield tmp_path
    store.clear_cache()


def test_versions_sorted_numerically(bundled):
    assert store.bundled_versions() == ["0.10.2", "0.11.2", "0.20.2", "0.33.0"]


def test_exact_version_has_no_note(bundled):
    cat, note = store.load("0.20.2")
    assert cat.vllm_version == "0.20.2" and note is None
    assert cat.flag("--only-in-0.20.2") is not None


def test_default_is_newest(bundled):
    assert store.load()[0].vllm_version == "0.33.0"


@pytest.mark.parametrize(
    "asked,chosen",
    [
        ("0.20.0", "0.20.2"),  # same minor, older patch
        ("0.20.5", "0.20.2"),  # same minor, newer patch
        ("0.15.1", "0.11.2"),  # no catalog for the minor: nearest lower
        ("0.40.0", "0.33.0"),  # newer than all
    ],
)
def test_unknown_patch_uses_nearest_with_note(bundled, asked, chosen):
    cat, note = store.load(asked)
    assert cat.vllm_version == chosen
    assert note and asked in note and chosen in note


def test_older_than_all_is_an_error(bundled):
    with pytest.raises(VcfgError, match="oldest bundled release is 0.10.2"):
        store.load("0.9.2")


def test_not_a_version(bundled):
    with pytest.raises(VcfgError, match="not a vLLM release"):
        store.load("latest")


def test_compact_roundtrip_keeps_defaults(bundled):
    cat = make_catalog("9.9.9", flags=["--a"])
    again = store.parse(store.dumps(cat, compact=True), "x")
    assert again == cat


def test_corrupt_catalog_is_a_clear_error(tmp_path):
    p = tmp_path / "vllm-1.0.0.json"
    p.write_text('{"vllm_version": 3, "flags": "no"}')
    with pytest.raises(VcfgError, match="not a vcfg catalog"):
        store.parse(store.read_text(p), str(p))


def test_gzip_catalogs_load(tmp_path):
    p = tmp_path / "vllm-1.0.0.json.gz"
    store.write_text(p, store.dumps(make_catalog("1.0.0")))
    assert store.parse(store.read_text(p), str(p)).vllm_version == "1.0.0"


def test_user_built_catalog_is_found(bundled):
    store.save_user_catalog(make_catalog("0.21.0", flags=["--user-built"]))
    cat, note = store.load("0.21.0")
    assert note is None and cat.flag("--user-built") is not None


def test_a_catalog_rebuilt_in_place_is_read_again(bundled):
    """A resident process (`vcfg lsp`) sees a user catalog rebuilt under it, by release
    (the cache folder) and by path (``--vllm-version FILE``), without clearing a cache;
    an unchanged file is not read again."""
    import os

    path = store.user_catalog_dir() / "vllm-0.21.0.json"
    store.write_text(path, store.dumps(make_catalog("0.21.0", flags=["--first-build"]), compact=True))
    first = store.load("0.21.0")[0]
    assert first.flag("--first-build") is not None
    assert store.load("0.21.0")[0] is first  # cached while the file stays as it is
    assert store.load(str(path))[0] is first

    # another build of the same release: a different size
    store.write_text(path, store.dumps(make_catalog("0.21.0", flags=["--second-build", "--more"]), compact=True))
    second = store.load("0.21.0")[0]
    assert second.flag("--second-build") is not None and second.flag("--first-build") is None
    assert store.load(str(path))[0] is second

    # the same size, in the same inode, written later: only the times say it changed
    before = os.stat(path)
    store.write_text(
        path, store.dumps(make_catalog("0.21.0", flags=["--third--build", "--more"]), compact=True)
    )  # as long as --second-build
    assert os.stat(path).st_size == before.st_size and os.stat(path).st_ino == before.st_ino
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))  # a rebuild a second later
    third = store.load(str(path))[0]
    assert third.flag("--third--build") is not None and third.flag("--second-build") is None


def test_a_catalog_file_that_went_away_is_a_clear_error(bundled):
    path = store.user_catalog_dir() / "vllm-0.21.0.json"
    store.write_text(path, store.dumps(make_catalog("0.21.0"), compact=True))
    store.load("0.21.0")
    path.unlink()
    with pytest.raises(VcfgError, match="no such catalog file"):
        store.load(str(path))
    with pytest.raises(VcfgError, match="cannot read catalog"):
        store._load_path(str(path))
