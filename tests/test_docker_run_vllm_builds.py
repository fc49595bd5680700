"""`docker run` of a vLLM build other than vllm/vllm-openai (a CPU or Gaudi image) given
only options runs vLLM's API server module, which takes --model: no VC010 (found on
tests/corpus/real/github-actions/llama-stack/setup-vllm-action.yml); vllm/vllm-openai
runs `vllm serve`, where --model is deprecated."""

from __future__ import annotations

from pathlib import Path

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths


def _codes(tmp_path: Path, script: str) -> list[tuple[str, int, int]]:
    p = tmp_path / "run.sh"
    p.write_text(script)
    res = lint_paths([str(p)], "0.33.0", config=LintConfig())
    assert res.summary.launches == 1  # the launch is seen, and linted
    return [(d.code, d.span.line, d.span.col) for d in res.diagnostics]


def test_other_vllm_build_takes_model_option(tmp_path: Path) -> None:
    got = _codes(tmp_path, "docker run -d quay.io/someone/vllm-cpu:abc123 --model /m --port 8000\n")
    assert got == []


def test_vllm_openai_image_runs_vllm_serve(tmp_path: Path) -> None:
    got = _codes(tmp_path, "docker run -d vllm/vllm-openai:v0.13.0 --model /m --port 8000\n")
    assert got == [("VC010", 1, 40)]


def test_old_vllm_openai_image_runs_the_api_server(tmp_path: Path) -> None:
    # vllm/vllm-openai up to 0.8.5 ran the API server module (no VC010 for --model);
    # the release has no catalog, so the run's release is used for the rest
    got = _codes(tmp_path, "docker run -d vllm/vllm-openai:v0.8.5 --model /m --port 8000\n")
    assert got == []


def test_old_vllm_openai_image_in_kubernetes_runs_the_api_server(tmp_path: Path) -> None:
    p = tmp_path / "deploy.yaml"
    p.write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: v\nspec:\n  template:\n    spec:\n"
        "      containers:\n      - name: vllm\n        image: vllm/vllm-openai:v0.7.3\n"
        '        args: ["--model", "/m", "--port", "8000"]\n'
        "      - name: new\n        image: vllm/vllm-openai:v0.13.0\n"
        '        args: ["--model", "/m", "--port", "8001"]\n'
    )
    res = lint_paths([str(p)], None, config=LintConfig())
    assert res.summary.launches == 2
    assert [(d.code, d.span.line) for d in res.diagnostics if d.code == "VC010"] == [("VC010", 14)]
