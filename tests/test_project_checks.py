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
