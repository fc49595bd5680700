"""A real editor as the client: Neovim's built-in LSP client, headless, opens the seed
script with `vcfg lsp` attached and reports the diagnostics, a completion and a hover
it received.  Skipped where Neovim is not installed (``apt-get install neovim``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "examples" / "pd-decode-p2p.sh"
LUA = ROOT / "tests" / "fixtures" / "lsp" / "nvim-client.lua"


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed")
def test_neovim_headless_gets_diagnostics_completion_and_hover(tmp_path):
    from vcfg.lint.config import LintConfig
    from vcfg.lint.engine import lint_paths

    script = tmp_path / SEED.name
    shutil.copy(SEED, script)
    out = tmp_path / "out.json"
    env = {
        "VCFG_NVIM_OUT": str(out),
        "VCFG_NVIM_CMD": json.dumps([sys.executable, "-m", "vcfg", "lsp"]),
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    r = subprocess.run(
        ["nvim", "--headless", "-n", "-u", "NONE", "-c", f"luafile {LUA}", script.name],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(out.read_text())
    want = lint_paths([str(script)], "0.33.0", config=LintConfig()).diagnostics
    assert got["ok"] is True
    assert sorted((d["code"], d["lnum"] + 1, d["col"] + 1) for d in got["diagnostics"]) == sorted(
        (d.code, d.span.line, d.span.col) for d in want
    )
    assert got["labels"] == ["--max-model-len"]
    assert "ModelConfig.max_model_len" in got["hover"] and "vllm/engine/arg_utils.py:" in got["hover"]
