"""The bundled catalogs: present for every listed release, loadable, current."""

import pytest

from vcfg.catalog import store
from vcfg.catalog.generate import GENERATED_BY, generate_one
from vcfg.catalog.releases import BUNDLED_RELEASES


def test_every_listed_release_is_bundled_and_nothing_else():
    assert store.bundled_versions() == list(BUNDLED_RELEASES)


@pytest.mark.parametrize("version", BUNDLED_RELEASES)
def test_bundled_catalog_loads_with_header(version):
    cat = store.load_exact(version)
    assert cat.vllm_version == version
    assert cat.generated_by == GENERATED_BY
    assert len(cat.flags) >= 150 and len(cat.env_vars) >= 140 and cat.connectors


def test_budget():
    total = sum(p.stat().st_size for p in store.BUNDLED_DIR.iterdir())
    assert total < 10 * 1024 * 1024, f"bundled catalogs take {total / 1e6:.1f} MB"


@pytest.mark.slow
@pytest.mark.parametrize("version", ["0.10.2", "0.20.2", "0.33.0"])
def test_bundled_catalog_is_not_stale(version):
    """Regenerating from the downloaded release gives the committed file, byte for byte."""
    fresh = store.dumps(generate_one(version), compact=True)
    committed = (store.BUNDLED_DIR / f"vllm-{version}.json").read_text(encoding="utf-8")
    assert fresh == committed, f"run: python -m vcfg.catalog.generate {version}"
