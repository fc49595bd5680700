"""vcfg/bytecode.py: a regular install imports vcfg's modules from one file of
bytecode; the lint's output is the same, and an edited or foreign install falls back
to the ordinary import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def _patterns(installed: Path) -> dict[str, Any]:
    import marshal

    fd = os.open(installed / "vcfg" / bytecode.file_name(), os.O_RDONLY)
    try:
        found = bytecode._read_index(fd)
        assert found is not None
        index, start = found
        _, _, _, offset, length = index[bytecode._PATTERNS]
        return marshal.loads(os.pread(fd, length, start + offset))  # type: ignore[no-any-return]
    finally:
        os.close(fd)


def test_the_file_holds_the_literal_patterns_compiled_as_re_compiles_them(installed: Path) -> None:
    """Each bundled pattern, made from its table entry, is the pattern ``re`` compiles
    (a compiled pattern compares its flags and code), and the lint path's own are there."""
    import _sre
    import re
    import re._compiler as compiler

    table = _patterns(installed)
    assert table["version"] == sys.hexversion
    rows = {(p, f): args for p, f, args in table["patterns"]}
    # from vcfg/launch/shell.py (re.compile), vcfg/span.py, a rule's re.IGNORECASE one, a bytes one
    assert (r"[A-Za-z_][A-Za-z0-9_]*\Z", 0) in rows
    assert ("\r\n|\r|\n", 0) in rows
    assert (r"^(\d+|true|false|yes|no|on|off|none|null)$", int(re.IGNORECASE)) in rows
    assert any(isinstance(p, bytes) for p, _ in rows)
    assert len(rows) > 50
    for (pattern, flags), args in rows.items():
        assert _sre.compile(pattern, *args) == compiler.compile(pattern, flags), pattern


def test_the_patterns_are_served_from_re_s_cache_only_by_the_interpreter_that_made_them(installed: Path) -> None:
    import re

    table = _patterns(installed)
    saved = dict(re._cache)  # type: ignore[attr-defined]
    try:
        re.purge()
        bytecode._prefill({**table, "version": table["version"] + 1})
        assert not re._cache  # type: ignore[attr-defined]
        bytecode._prefill(table)
        pattern, flags, _ = table["patterns"][0]
        assert (type(pattern), pattern, flags) in re._cache  # type: ignore[attr-defined]
        assert re.compile(pattern, flags) is re._cache[type(pattern), pattern, flags]  # type: ignore[attr-defined]
    finally:
        re.purge()
        re._cache.update(saved)  # type: ignore[attr-defined]


def test_literal_patterns_are_read_with_their_flags() -> None:
    src = b"""
import re
from vcfg.regex import lazy
A = re.compile(r"a+", re.I | re.M)
B = lazy(rb"b+")
C = re.match("c+", text, flags=re.S)
D = re.compile(NAME)          # not a literal: left out
E = re.compile("e+", FLAGS)   # nor are its flags
F = re.sub("f+", "g", text, 0, re.X)
"""
    import re

    assert bytecode._literal_patterns(src) == [
        ("a+", int(re.I | re.M)),
        (b"b+", 0),
        ("c+", int(re.S)),
        ("f+", int(re.X)),
    ]
