"""A real `pre-commit run --all-files` over a repository holding a Helm chart of other
software, application configs, a GitHub workflow and vLLM launch files (Kubernetes, a
script, Markdown, a Dockerfile, production-stack Helm values, compose, a workflow that
serves vLLM, a serve config): it passes on the clean repository and fails, at the right
lines, on a mistake seeded in each format."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CLEAN = {
    ".vcfg.toml": 'vllm-version = "0.33.0"\n',
    "chart/Chart.yaml": "apiVersion: v2\nname: web\nversion: 0.1.0\n",
    "chart/values.yaml": "replicaCount: 2\nimage:\n  repository: nginx\n  tag: 1.25\nservice:\n  port: 80\n",
    "chart/templates/deployment.yaml": (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n"
        "  replicas: {{ .Values.replicaCount }}\n  template:\n    spec:\n      containers:\n"
        '        - name: web\n          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"\n'
        "          {{- with .Values.args }}\n          args: {{ toYaml . | nindent 12 }}\n          {{- end }}\n"
    ),
    "app/settings.yaml": "model: gpt-4o\nport: 8080\nhost: 0.0.0.0\ntimeout: 30\n",
    ".github/workflows/ci.yml": (
        "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - run: pytest -q ${{ matrix.args }}\n"
    ),
    "deploy/vllm.yaml": (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: llama\nspec:\n  template:\n    spec:\n"
        "      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.13.0\n"
        '          args: ["meta-llama/Llama-3.1-8B", "--max-num-seqs", "64"]\n'
    ),
    "scripts/serve.sh": "#!/bin/bash\nvllm serve facebook/opt-125m --max-num-seqs 64\n",
    "docs/serve.md": "# Serve\n\n```bash\nvllm serve facebook/opt-125m --max-num-seqs 64\n```\n",
    "Dockerfile": 'FROM vllm/vllm-openai:v0.13.0\nCMD ["facebook/opt-125m", "--max-num-seqs", "64"]\n',
    # vLLM's production-stack chart values, a compose file with a vLLM service and another,
    # a workflow that serves vLLM beside the one that does not, a serve config a script reads
    "helm/vllm-stack/values.yaml": (
        'servingEngineSpec:\n  runtimeClassName: ""\n  modelSpec:\n  - name: "opt"\n'
        '    repository: "vllm/vllm-openai"\n    tag: "v0.13.0"\n    modelURL: "facebook/opt-125m"\n'
        "    replicaCount: 1\n    requestGPU: 1\n    vllmConfig:\n      maxModelLen: 2048\n"
        '      extraArgs: ["--max-num-seqs", "64"]\n'
    ),
    "deploy/compose.yaml": (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.13.0\n"
        '    command: facebook/opt-125m --max-num-seqs 64\n    ports:\n      - "8000:8000"\n'
        '  web:\n    image: nginx:1.25\n    ports:\n      - "80:80"\n'
    ),
    ".github/workflows/e2e.yml": (
        "name: e2e\non: [push]\njobs:\n  serve:\n    runs-on: gpu\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - name: serve\n        run: |\n"
        "          vllm serve facebook/opt-125m --max-num-seqs 64 &\n          sleep 60\n"
    ),
    "configs/serve.yaml": "model: facebook/opt-125m\nmax-num-seqs: 64\nmax-model-len: 2048\n",
    "scripts/serve-cfg.sh": "#!/bin/bash\nvllm serve --config ../configs/serve.yaml\n",
}

#: (file, the clean text's part, the mistake) and where vcfg must report it
SEEDED = [
    ("deploy/vllm.yaml", '"--max-num-seqs"', '"--max-num-seqz"', "deploy/vllm.yaml:11:46: VC001"),
    ("scripts/serve.sh", "--max-num-seqs", "--max-num-seqz", "scripts/serve.sh:2:30: VC001"),
    ("docs/serve.md", "--max-num-seqs", "--max-num-seqz", "docs/serve.md:4:30: VC001"),
    ("Dockerfile", '"--max-num-seqs"', '"--max-num-seqz"', "Dockerfile:2:28: VC001"),
    ("helm/vllm-stack/values.yaml", '"--max-num-seqs"', '"--max-num-seqz"', "helm/vllm-stack/values.yaml:12:20: VC001"),
    ("deploy/compose.yaml", "--max-num-seqs", "--max-num-seqz", "deploy/compose.yaml:4:32: VC001"),
    (".github/workflows/e2e.yml", "--max-num-seqs", "--max-num-seqz", ".github/workflows/e2e.yml:10:40: VC001"),
    ("configs/serve.yaml", "max-num-seqs", "max-num-seqz", "configs/serve.yaml:2:1: VC001"),
]


def _env(tmp_path):
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
    return env


@pytest.mark.slow
def test_pre_commit_all_files_over_every_format(tmp_path):
    pc = shutil.which("pre-commit") or str(Path(sys.executable).parent / "pre-commit")
    if not Path(pc).exists():
        pytest.fail("pre-commit is not installed (it is in the [test] extra)")
    repo = tmp_path / "ops"
    for rel, text in CLEAN.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    env = _env(tmp_path)

    def run():  # type: ignore[no-untyped-def]
        subprocess.run(["git", "add", "."], cwd=repo, check=True)
        return subprocess.run(
            [pc, "try-repo", str(ROOT), "vcfg-lint", "--all-files"],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )

    ok = run()
    assert ok.returncode == 0, ok.stdout + ok.stderr
    for rel, good, bad, _ in SEEDED:
        f = repo / rel
        f.write_text(CLEAN[rel].replace(good, bad, 1))
    res = run()
    assert res.returncode == 1, res.stdout + res.stderr
    found = [line for line in res.stdout.splitlines() if ": VC" in line]
    for _, _, _, where in SEEDED:
        assert any(line.startswith(where) for line in found), (where, res.stdout)
    # nothing about the chart, the app config or the workflow that runs no vLLM
    assert not [line for line in found if line.startswith(("chart/", "app/", ".github/workflows/ci.yml"))], res.stdout
    assert len(found) == len(SEEDED), res.stdout
