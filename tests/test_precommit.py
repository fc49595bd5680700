"""The pre-commit hook, run by the real pre-commit (`pre-commit try-repo`)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_vcfg_lint_hook(tmp_path):
    pc = shutil.which("pre-commit") or str(Path(sys.executable).parent / "pre-commit")
    if not Path(pc).exists():
        pytest.fail("pre-commit is not installed (it is in the [test] extra)")
    repo = tmp_path / "ops"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / "good.sh").write_text("vllm serve facebook/opt-125m --max-num-seqs 64\n")
    (repo / "bad.sh").write_text("vllm serve facebook/opt-125m --max-num-seqz 64\n")
    (repo / ".vcfg.toml").write_text('vllm-version = "0.33.0"\n')
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    env = {"PRE_COMMIT_HOME": str(tmp_path / "pc-home"), "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    import os
    for k in ("PIP_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE", "VCFG_CACHE_DIR"):
        if k in os.environ:
            env[k] = os.environ[k]
    ok = subprocess.run([pc, "try-repo", str(ROOT), "vcfg-lint", "--files", "good.sh"],
                        cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = subprocess.run([pc, "try-repo", str(ROOT), "vcfg-lint", "--files", "bad.sh"],
                         cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "bad.sh:1:30: VC001" in bad.stdout
