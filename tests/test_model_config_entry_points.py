"""The rules that read the model's config.json (docs/model-config.md) for the launches
that name their model with ``--model`` rather than ``vllm serve``'s model argument:
``python -m vllm.entrypoints.openai.api_server`` and Dynamo's ``python -m dynamo.vllm``
workers.  Real corpus files, the model's config.json in a Hugging Face cache written
here; codes and positions."""

from __future__ import annotations

import json
from pathlib import Path

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths

CORPUS = Path(__file__).parent / "corpus" / "real"
MODEL_CODES = {"VC204", "VC205", "VC206", "VC207", "VC208", "VC261", "VC262", "VC263", "VC264"}

#: the keys vLLM reads of the two models' published config.json files
GEMMA_7B = {
    "architectures": ["GemmaForCausalLM"], "model_type": "gemma", "num_hidden_layers": 28,
    "hidden_size": 3072, "intermediate_size": 24576, "num_attention_heads": 16,
    "num_key_value_heads": 16, "head_dim": 256, "vocab_size": 256000,
    "max_position_embeddings": 8192, "torch_dtype": "bfloat16",
}  # fmt: skip
QWEN3_06B = {
    "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 28,
    "hidden_size": 1024, "intermediate_size": 3072, "num_attention_heads": 16,
    "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,
    "max_position_embeddings": 40960, "torch_dtype": "bfloat16",
}  # fmt: skip


def cache(root: Path, repo: str, cfg: dict) -> Path:
    """A Hugging Face hub cache holding ``repo``'s config.json at ref main."""
    d = root / ("models--" + repo.replace("/", "--"))
    snap = d / "snapshots" / ("a" * 40)
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps(cfg))
    (d / "refs").mkdir()
    (d / "refs" / "main").write_text("a" * 40)
    return root


def seeded(tmp_path: Path, rel: str, old: str, new: str) -> tuple[Path, int, int]:
    """``rel`` with ``old`` replaced by ``new``; the line and column of ``new``."""
    text = (CORPUS / rel).read_text()
    assert text.count(old) >= 1
    k = text.index(old)
    out = tmp_path / Path(rel).name
    out.write_text(text[:k] + new + text[k + len(old) :])
    return out, text.count("\n", 0, k) + 1, k - text.rfind("\n", 0, k)


def found(path: Path, version: str | None = None) -> list[tuple[str, int, int]]:
    r = lint_paths([str(path)], version, config=LintConfig())
    assert r.internal_errors == []
    return [(d.code, d.span.line, d.span.col) for d in r.diagnostics if d.code in MODEL_CODES]


def test_the_api_server_module_is_judged_with_its_models_config(tmp_path, monkeypatch):
    # GKE's Gemma 7B sample: `python3 -m vllm.entrypoints.openai.api_server
    # --model=$(MODEL_ID) --tensor-parallel-size=2` with MODEL_ID=google/gemma-7b-it
    rel = "kubernetes/gke-samples/vllm-7b-it-tensorparallelism.yaml"
    monkeypatch.setenv("HF_HUB_CACHE", str(cache(tmp_path / "hub", "google/gemma-7b-it", GEMMA_7B)))
    assert found(CORPUS / rel) == []  # 16 heads over 2 GPUs: as published, right
    p, line, col = seeded(tmp_path, rel, "--tensor-parallel-size=2", "--tensor-parallel-size=3")
    # VC204 at the option (3 does not divide 16 heads), and nothing else
    assert found(p) == [("VC204", line, col)]
    p, line, col = seeded(tmp_path, rel, "--tensor-parallel-size=2", "--max-model-len=16384")
    assert [(c, ln) for c, ln, _ in found(p)] == [("VC205", line)]


def test_a_dynamo_worker_is_judged_with_its_models_config(tmp_path, monkeypatch):
    # Dynamo's disagg.sh: two workers of Qwen/Qwen3-0.6B (16 heads, 40,960 positions)
    rel = "dynamo/dynamo/disagg.sh"
    monkeypatch.setenv("HF_HUB_CACHE", str(cache(tmp_path / "hub", "Qwen/Qwen3-0.6B", QWEN3_06B)))
    assert found(CORPUS / rel) == []
    old = "--model Qwen/Qwen3-0.6B --enforce-eager --disaggregation-mode decode"
    p, line, col = seeded(tmp_path, rel, old, old.replace("--enforce-eager", "--enforce-eager -tp 3"))
    assert found(p) == [("VC204", line, col + old.index("--enforce-eager") + len("--enforce-eager "))]
    p, line, col = seeded(tmp_path, rel, old, old + " --max-model-len 65536")
    assert [(c, ln) for c, ln, _ in found(p)] == [("VC205", line)]


def test_a_model_option_an_unknown_word_may_override_is_not_judged(tmp_path, monkeypatch):
    # Dynamo's agg.sh passes "${EXTRA_ARGS[@]}" (the script's own arguments) after
    # --model: a later --model there would win, so the model is not known
    monkeypatch.setenv("HF_HUB_CACHE", str(cache(tmp_path / "hub", "Qwen/Qwen3-0.6B", QWEN3_06B)))
    rel = "dynamo/dynamo/agg.sh"
    old = '--model "$MODEL" --enforce-eager'
    p, line, _ = seeded(tmp_path, rel, old, "--model Qwen/Qwen3-0.6B -tp 3 --enforce-eager")
    assert found(p) == []
    # the same line without the unknown words is judged
    p.write_text(p.read_text().replace(' "${EXTRA_ARGS[@]}"', ""))
    assert [(c, ln) for c, ln, _ in found(p)] == [("VC204", line)]
