import os
import shutil
import tempfile

import pytest

#: the bytecode folder this process made for the session's child interpreters (removed
#: at its end); None where the environment already names one or a parent process did
_PYCACHE: "str | None" = None


def pytest_configure(config: pytest.Config) -> None:
    """Child interpreters (vcfg in a subprocess: hostile input, exit paths, the language
    server, pre-commit) share one bytecode cache for the session, outside the tree.

    With PYTHONDONTWRITEBYTECODE set (as on the CI machine) and an editable install,
    every child compiled each of vcfg's modules it imported from source: 0.25 s of CPU
    for a ``vcfg lint`` that takes 0.06 s from bytecode, about 150 times a run.  Set
    here, before pytest-xdist starts its workers, so they and their children inherit it;
    no source file or folder of the tree is written either way."""
    global _PYCACHE
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    _PYCACHE = tempfile.mkdtemp(prefix="vcfg-tests-pycache-")
    os.environ["PYTHONPYCACHEPREFIX"] = _PYCACHE
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _PYCACHE is not None:
        shutil.rmtree(_PYCACHE, ignore_errors=True)


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
