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
    env = {
        "PRE_COMMIT_HOME": str(tmp_path / "pc-home"),
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    import os

    for k in ("PIP_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE", "VCFG_CACHE_DIR"):
        if k in os.environ:
            env[k] = os.environ[k]
    ok = subprocess.run(
        [pc, "try-repo", str(ROOT), "vcfg-lint", "--files", "good.sh"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = subprocess.run(
        [pc, "try-repo", str(ROOT), "vcfg-lint", "--files", "bad.sh"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "bad.sh:1:30: VC001" in bad.stdout


@pytest.mark.slow
def test_vcfg_lint_hook_batches_and_relative_paths(tmp_path):
    """Issue 17: pre-commit splits many files into several `vcfg lint` runs (in
    parallel: require_serial is false): each finding is reported once, under the path
    relative to the repository, per-file-ignores (relative to the config file) hold in
    every batch, and a file reached through a launch's absolute --config path is shown
    relative too."""
    import os

    pc = shutil.which("pre-commit") or str(Path(sys.executable).parent / "pre-commit")
    if not Path(pc).exists():
        pytest.fail("pre-commit is not installed (it is in the [test] extra)")
    repo = tmp_path / "ops"
    (repo / "legacy").mkdir(parents=True)
    (repo / "nodes").mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / ".vcfg.toml").write_text('vllm-version = "0.33.0"\n[per-file-ignores]\n"legacy/*.sh" = ["VC001"]\n')
    n = 240  # long paths: more than one batch on any machine (pre-commit splits by length)
    long = "x" * 120
    for i in range(n):
        (repo / "nodes" / f"node-{i:03d}-{long}.sh").write_text(
            f"vllm serve facebook/opt-125m --port {8000 + i} --max-num-seqz 64\n"
        )
    (repo / "legacy" / "old.sh").write_text("vllm serve facebook/opt-125m --max-num-seqz 64\n")
    (repo / "serve.yaml").write_text("max-num-seqz: 8\n")
    (repo / "abs.sh").write_text(f"vllm serve facebook/opt-125m --config {repo}/serve.yaml\n")
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    env = {
        "PRE_COMMIT_HOME": str(tmp_path / "pc-home"),
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    for k in ("PIP_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE", "VCFG_CACHE_DIR"):
        if k in os.environ:
            env[k] = os.environ[k]
    r = subprocess.run(
        [pc, "try-repo", str(ROOT), "vcfg-lint", "--all-files", "--verbose"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    batches = out.count("checked against vllm 0.33.0")
    assert batches >= 2, out[-3000:]  # the summary line ends each run's output
    for i in range(n):
        assert out.count(f"nodes/node-{i:03d}-{long}.sh:1:") == 1, (i, out[-2000:])
    assert "legacy/old.sh:1:30: VC001" not in out  # the per-file ignore held
    assert "serve.yaml:1:1: VC001" in out  # through abs.sh's --config, shown relative
    assert str(repo) not in out.replace(f"cwd={repo}", "")
