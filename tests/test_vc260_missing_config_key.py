"""VC260 missing-config-key, and the JSON walk that stays out of fields vLLM does not
validate (found by the lint-vs-schema equivalence test)."""

from __future__ import annotations

from pathlib import Path

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths


def _lint(tmp_path: Path, text: str, name: str = "run.sh", version: str = "0.33.0") -> list:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    r = lint_paths([str(p)], version, config=LintConfig())
    assert r.internal_errors == []
    return [(d.code, d.span.line, d.span.col) for d in r.diagnostics if d.severity != "info"]


def test_watermark_config_without_its_key(tmp_path):
    text = 'vllm serve Qwen/Qwen3-8B --watermark-config \'{"algorithm": "gumbel"}\'\n'
    assert _lint(tmp_path, text) == [("VC260", 1, text.index("{") + 1)]
    ok = 'vllm serve Qwen/Qwen3-8B --watermark-config \'{"key": 7, "algorithm": "gumbel"}\'\n'
    assert _lint(tmp_path, ok) == []


def test_in_a_serve_config_mapping(tmp_path):
    text = "model: Qwen/Qwen3-8B\nmax-num-seqs: 8\nwatermark-config:\n  algorithm: gumbel\n"
    assert _lint(tmp_path, text, "serve.vllm.yaml") == [("VC260", 4, 3)]


def test_not_before_the_class_exists(tmp_path):
    # 0.20.2 has no --watermark-config: VC001 speaks, VC260 does not
    text = 'vllm serve Qwen/Qwen3-8B --watermark-config \'{"algorithm": "gumbel"}\'\n'
    assert [c for c, *_ in _lint(tmp_path, text, version="0.20.2")] == ["VC001"]


def test_fields_vllm_fills_itself_are_not_judged(tmp_path):
    # SpeculativeConfig.target_model_config: SkipValidation[ModelConfig] = None (0.33.0
    # config/speculative.py:518): a given value is not validated, so no VC022/VC024 inside
    text = (
        "vllm serve Qwen/Qwen3-8B --speculative-config "
        '\'{"method": "ngram", "num_speculative_tokens": 3, "target_model_config": {"no_such_key": 1}}\'\n'
    )
    assert _lint(tmp_path, text) == []
