"""The project checks itself in the default suite where that is cheap: ruff over the
tree (well under a second; its config is in pyproject.toml).  mypy takes longer and runs
in .ci/run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff() -> list[str]:
    exe = Path(sys.executable).with_name("ruff")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    return [found]


def test_ruff_finds_nothing():
    r = subprocess.run([*_ruff(), "check", "--output-format", "concise", "."], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_would_see_a_problem(tmp_path):
    """The check can fail: an unused import in a file under the same config is reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n")
    r = subprocess.run(
        [*_ruff(), "check", "--config", str(ROOT / "pyproject.toml"), str(bad)], capture_output=True, text=True
    )
    assert r.returncode == 1 and "F401" in r.stdout


#: no module over about 800 lines (issue #12); the bash interpreter is the one exception
#: (its interpreter class stays whole: cut apart, its parts would import each other)
MAX_LINES = 800
LONG_MODULES_ALLOWED = {"vcfg/launch/shell.py"}


def _long_modules(root: Path) -> dict[str, int]:
    """The modules under ``root``/vcfg longer than MAX_LINES, with their line counts."""
    out = {}
    for p in sorted((root / "vcfg").rglob("*.py")):
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out[p.relative_to(root).as_posix()] = n
    return out


def test_no_module_over_800_lines():
    long = _long_modules(ROOT)
    assert {m: n for m, n in long.items() if m not in LONG_MODULES_ALLOWED} == {}, "cut it along its seams"
    assert LONG_MODULES_ALLOWED <= set(long), "an allowed long module got short: remove it from LONG_MODULES_ALLOWED"


def test_the_size_check_sees_a_long_module(tmp_path):
    (tmp_path / "vcfg").mkdir()
    (tmp_path / "vcfg" / "big.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "vcfg" / "small.py").write_text("x = 1\n" * MAX_LINES)
    assert _long_modules(tmp_path) == {"vcfg/big.py": MAX_LINES + 1}


def _layout_names(text: str) -> set[str]:
    """The paths named in the first column of docs/architecture.md's Layout table."""
    import re

    section = text.split("\n## Layout", 1)[1].split("\n## ", 1)[0]
    out: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            folder = None
            for name in re.findall(r"`([^`]+)`", first):
                if name.endswith("/"):
                    folder = name
                    out.add(name)
                elif folder is not None:  # a module named beside its folder
                    out.add(folder + name)
    return out


def test_the_layout_table_names_every_folder_and_top_module_and_nothing_else():
    """docs/architecture.md's Layout has one row per folder (issue #12): every package
    of vcfg/, every module at vcfg/'s top and every folder of the repository is named,
    and every path it names exists."""
    named = _layout_names((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    packages = {p.parent.relative_to(ROOT).as_posix() + "/" for p in (ROOT / "vcfg").rglob("__init__.py")}
    top = {f"vcfg/{p.name}" for p in (ROOT / "vcfg").glob("*.py") if p.name != "__init__.py"}
    repo = {
        f"{p.name}/"
        for p in ROOT.iterdir()
        if p.is_dir()
        and not p.name.startswith(".")
        and not p.name.endswith(".egg-info")
        and p.name not in ("build", "__pycache__")
    }
    assert packages - named == set()
    assert top - named == set()
    assert repo - named == set()
    assert {n for n in named if not (ROOT / n).exists()} == set()


def test_the_layout_check_reads_the_table():
    text = "x\n## Layout\n\n| folder | holds |\n|---|---|\n| `vcfg/` (`a.py`) | x |\n| `docs/`, `b/` | y |\n## Next\n"
    assert _layout_names(text) == {"vcfg/", "vcfg/a.py", "docs/", "b/"}
