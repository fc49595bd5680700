"""A real pre-commit run over many files (which pre-commit splits into batches run in
parallel) reports exactly what one `vcfg lint` of the same files reports."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FINDING = re.compile(r"^(\S+):(\d+):(\d+): (VC\d+)")


def _project(repo: Path) -> list[str]:
    """A folder of deployments whose findings depend on files judged together: the
    property test's project, and the 0.33.0 corpus files."""
    from test_deployments import PROJECT

    names = []
    for name, text in PROJECT.items():
        (repo / name).write_text(text)
        names.append(name)
    for sub in ("seeded", "clean"):
        for f in sorted((ROOT / "tests" / "corpus" / sub).glob("*-0.33.0.sh")):
            (repo / f"{sub}-{f.name}").write_text(f.read_text())
            names.append(f"{sub}-{f.name}")
    (repo / ".vcfg.toml").write_text(
        PROJECT[".vcfg.toml"].replace("[deployments", 'vllm-version = "0.33.0"\n\n[deployments', 1)
    )
    return [n for n in names if not n.startswith(".")]


def _findings(out: str) -> list[str]:
    return sorted(m.group(0) for line in out.splitlines() if (m := FINDING.match(line)))


@pytest.mark.slow
def test_pre_commit_batches_agree_with_one_lint(tmp_path):
    pc = shutil.which("pre-commit") or str(Path(sys.executable).parent / "pre-commit")
    if not Path(pc).exists():
        pytest.fail("pre-commit is not installed (it is in the [test] extra)")
    repo = tmp_path / "ops"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    names = _project(repo)
    assert len(names) > 40
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
    run = subprocess.run(
        [pc, "try-repo", str(ROOT), "vcfg-lint", "--verbose", "--files", *names],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    # pre-commit ran several batches: each prints its own summary line
    batches = len(re.findall(r"in \d+ files?, \d+ vLLM launch", run.stdout))
    assert batches >= 2, run.stdout
    one = subprocess.run(
        [sys.executable, "-m", "vcfg", "lint", "--format", "concise", *names],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert one.returncode == 1, one.stdout + one.stderr
    whole = _findings(one.stdout)
    # the cross-file findings are there (not a vacuous comparison)
    assert any(f.startswith("dec.sh:") and "VC303" in f for f in whole)
    assert any(f.startswith("b.sh:") and "VC302" in f for f in whole)
    assert _findings(run.stdout) == whole
