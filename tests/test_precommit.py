"""The pre-commit hook, run by the real pre-commit (`pre-commit try-repo`)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _pre_commit() -> str:
    pc = shutil.which("pre-commit") or str(Path(sys.executable).parent / "pre-commit")
    if not Path(pc).exists():
        pytest.fail("pre-commit is not installed (it is in the [test] extra)")
    return pc


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    """A git repository ``ops`` with ``files`` (relative path -> text) staged."""
    repo = tmp_path / "ops"
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    return repo


def _try_repo(tmp_path: Path, repo: Path, *args: str) -> subprocess.CompletedProcess:
    """``pre-commit try-repo`` of this checkout's hook in ``repo``, in a clean
    environment (its own pre-commit home; the package index settings kept)."""
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
    return subprocess.run(
        [_pre_commit(), "try-repo", str(ROOT), "vcfg-lint", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.slow
def test_vcfg_lint_hook(tmp_path):
    repo = _repo(
        tmp_path,
        {
            "good.sh": "vllm serve facebook/opt-125m --max-num-seqs 64\n",
            "bad.sh": "vllm serve facebook/opt-125m --max-num-seqz 64\n",
            ".vcfg.toml": 'vllm-version = "0.33.0"\n',
        },
    )
    ok = _try_repo(tmp_path, repo, "--files", "good.sh")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = _try_repo(tmp_path, repo, "--files", "bad.sh")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "bad.sh:1:30: VC001" in bad.stdout


@pytest.mark.slow
def test_vcfg_lint_hook_batches_and_relative_paths(tmp_path):
    """Issue 17: pre-commit splits many files into several `vcfg lint` runs (in
    parallel: require_serial is false): each finding is reported once, under the path
    relative to the repository, per-file-ignores (relative to the config file) hold in
    every batch, and a file reached through a launch's absolute --config path is shown
    relative too."""
    n = 240  # long paths: more than one batch on any machine (pre-commit splits by length)
    long = "x" * 120
    repo = tmp_path / "ops"
    files = {
        ".vcfg.toml": 'vllm-version = "0.33.0"\n[per-file-ignores]\n"legacy/*.sh" = ["VC001"]\n',
        **{
            f"nodes/node-{i:03d}-{long}.sh": f"vllm serve facebook/opt-125m --port {8000 + i} --max-num-seqz 64\n"
            for i in range(n)
        },
        "legacy/old.sh": "vllm serve facebook/opt-125m --max-num-seqz 64\n",
        "serve.yaml": "max-num-seqz: 8\n",
        "abs.sh": f"vllm serve facebook/opt-125m --config {repo}/serve.yaml\n",
    }
    assert _repo(tmp_path, files) == repo
    r = _try_repo(tmp_path, repo, "--all-files", "--verbose")
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    batches = out.count("checked against vllm 0.33.0")
    assert batches >= 2, out[-3000:]  # the summary line ends each run's output
    for i in range(n):
        assert out.count(f"nodes/node-{i:03d}-{long}.sh:1:") == 1, (i, out[-2000:])
    assert "legacy/old.sh:1:30: VC001" not in out  # the per-file ignore held
    assert "serve.yaml:1:1: VC001" in out  # through abs.sh's --config, shown relative
    assert str(repo) not in out.replace(f"cwd={repo}", "")
