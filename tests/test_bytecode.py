"""vcfg/bytecode.py: a regular install imports vcfg's modules from one file of
bytecode; the lint's output is the same, and an edited or foreign install falls back
to the ordinary import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vcfg import bytecode

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "examples" / "pd-decode-p2p.sh"

#: runs `vcfg lint` from the copy in sys.argv[1] and names, on stderr, the loader of
#: a few modules the lint imports
PROBE = """
import atexit, sys
sys.path.insert(0, sys.argv[1])
def loaders():
    names = ["vcfg.lint.engine", "vcfg.launch.shell", "vcfg.lint.rules.vc001_unknown_flag", "vcfg.catalog.store"]
    mods = [sys.modules[n] for n in names]
    print(" ".join(type(m.__loader__).__name__ for m in mods), mods[0].__file__, file=sys.stderr)
atexit.register(loaders)
sys.argv = ["vcfg", "lint", "--vllm-version", "0.33.0", sys.argv[2]]
from vcfg.cli import main
main()
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package, as a wheel installs it: sources and the bytecode file."""
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(ROOT / "vcfg", site / "vcfg", ignore=shutil.ignore_patterns("__pycache__", "bytecode.*.bin"))
    bytecode.build(str(site / "vcfg"))
    return site


def _lint(site: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *flags, "-c", PROBE, str(site), str(SEED)], capture_output=True, text=True, cwd=ROOT
    )


def test_the_file_holds_the_lint_path_and_not_the_generators(installed: Path) -> None:
    import marshal

    fd = os.open(installed / "vcfg" / bytecode.file_name(), os.O_RDONLY)
    try:
        found = bytecode._read_index(fd)
        assert found is not None
        index, start = found
        assert {"vcfg.lint.engine", "vcfg.lint.rules", "vcfg.lint.rules.vc900_unused_suppression"} <= set(index)
        assert index["vcfg.lint.rules"][:2] == (os.path.join("vcfg", "lint", "rules", "__init__.py"), True)
        assert not [n for n in index if n.startswith(("vcfg.dev", "vcfg.catalog.extract", "vcfg.lsp"))]
        # each entry is that module's code, at its offset
        _, _, size, offset, length = index["vcfg.span"]
        code = marshal.loads(os.pread(fd, length, start + offset))
        assert code.co_filename.endswith(os.path.join("vcfg", "span.py"))
        assert size == (installed / "vcfg" / "span.py").stat().st_size
    finally:
        os.close(fd)


def test_a_lint_through_the_file_says_what_the_ordinary_import_says(installed: Path) -> None:
    plain = subprocess.run(
        [sys.executable, "-m", "vcfg", "lint", "--vllm-version", "0.33.0", str(SEED)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    bundled = _lint(installed)
    assert plain.returncode == bundled.returncode == 1  # the seed script has findings
    assert bundled.stdout == plain.stdout and "2 errors, 3 warnings" in plain.stdout
    loaders, origin = bundled.stderr.split()[:4], bundled.stderr.split()[4]
    assert loaders == ["_Loader"] * 4
    # __file__ is the installed source (the catalogs are found beside it)
    assert origin == str(installed / "vcfg" / "lint" / "engine.py")


def test_an_edited_module_is_imported_from_its_source(tmp_path: Path, installed: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(installed, site)
    engine = site / "vcfg" / "lint" / "engine.py"
    engine.write_text(engine.read_text() + "\n# edited after the install\n")
    out = _lint(site)
    assert out.returncode == 1 and "2 errors, 3 warnings" in out.stdout
    assert out.stderr.split()[:4] == ["SourceFileLoader", "_Loader", "_Loader", "_Loader"]


def test_a_file_for_another_interpreter_or_under_minus_O_is_not_used(tmp_path: Path, installed: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(installed, site)
    assert _lint(site, "-O").stderr.split()[:4] == ["SourceFileLoader"] * 4
    f = site / "vcfg" / bytecode.file_name()
    data = f.read_bytes()
    f.write_bytes(data.replace(bytecode._HEADER, b"vcfg-bytecode-0\n", 1))  # another format or magic
    out = _lint(site)
    assert out.returncode == 1 and out.stderr.split()[:4] == ["SourceFileLoader"] * 4
