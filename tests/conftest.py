import os

import pytest


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch, request):
    """Default tests never touch the user's cache; slow tests share one (downloads)."""
    if request.node.get_closest_marker("slow") is None:
        monkeypatch.setenv("VCFG_CACHE_DIR", str(tmp_path_factory.mktemp("vcfg-cache")))
        # the model rules read a Hub model's config.json from the Hugging Face cache:
        # never the machine's own (its models would change what a test finds)
        monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path_factory.getbasetemp() / "no-hf-cache"))
    else:
        os.environ.setdefault("VCFG_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "vcfg"))
