import itertools
import os
import sys
import tempfile

import pytest


def _bytecode_folder() -> str:
    """Where the suite keeps bytecode: one folder per user in the temporary directory,
    kept between runs (Python and pytest check each file against its source's time and
    size, and name pytest's rewritten test modules after pytest's version)."""
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    return os.path.join(tempfile.gettempdir(), f"vcfg-tests-bytecode-{uid}")


def pytest_configure(config: pytest.Config) -> None:
    """The suite's interpreters (pytest-xdist's workers, vcfg in a subprocess: hostile
    input, exit paths, the language server, pre-commit, and this one) keep bytecode in
    one folder outside the tree, between runs.

    With PYTHONDONTWRITEBYTECODE set (as on the CI machine) and an editable install,
    every child compiled each of vcfg's modules it imported from source: 0.25 s of CPU
    for a ``vcfg lint`` that takes 0.06 s from bytecode, about 150 times a run; and each
    collecting process rewrote the asserts of every test module: about 10 s of CPU of
    the 13 s a collection took, paid again by both workers of every run (a second
    collection from the kept folder: 3.8 s). Set here, before pytest-xdist starts its
    workers, so they and their children inherit it; no source file or folder of the
    tree is written either way."""
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    folder = _bytecode_folder()
    os.makedirs(folder, exist_ok=True)
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    # this process too: it collects (and rewrites) the test modules when no worker does
    sys.pycache_prefix = folder
    sys.dont_write_bytecode = False


_CACHES = itertools.count()


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch, request):
    """Default tests never touch the user's cache; slow tests share one (downloads).

    Each test's cache is a folder of its own, made by vcfg when it writes there (most
    tests never do), under one folder of pytest's base folder. Made with ``mktemp`` for
    every test, these were 4,300 folders in the base folder, which pytest listed on each
    ``mktemp`` and vcfg on each lint of a file in a ``tmp_path`` (the file's parent
    folder, where vcfg looks for the scripts that start it)."""
    if request.node.get_closest_marker("slow") is None:
        caches = tmp_path_factory.getbasetemp() / "vcfg-caches"
        monkeypatch.setenv("VCFG_CACHE_DIR", str(caches / str(next(_CACHES))))
        # the model rules read a Hub model's config.json from the Hugging Face cache:
        # never the machine's own (its models would change what a test finds)
        monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path_factory.getbasetemp() / "no-hf-cache"))
    else:
        os.environ.setdefault("VCFG_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "vcfg"))


@pytest.fixture
def tmp_path(tmp_path):
    """pytest's ``tmp_path``, one level down: a file linted there has a parent folder of
    its own. vcfg looks in the parent folder of a linted file for the scripts that start
    it; pytest's ``tmp_path`` folders all sit in one base folder, a thousand or more
    entries by the end of a run, listed on every such lint (about 1 ms each)."""
    folder = tmp_path / "t"
    folder.mkdir()
    return folder
