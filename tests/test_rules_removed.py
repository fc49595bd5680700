"""The removed-name rules (VC002 flags, VC103 variables, VC023 config keys, VC027
connectors) say what replaces a name the same way: each replacement in backticks."""

from __future__ import annotations

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths


def _helps(tmp_path, text: str, version: str) -> dict[str, str]:
    p = tmp_path / "run.sh"
    p.write_text(text)
    r = lint_paths([str(p)], version, config=LintConfig())
    assert r.internal_errors == []
    return {d.code: d.help for d in r.diagnostics}


def test_removed_flag_names_its_replacements(tmp_path):
    helps = _helps(tmp_path, "vllm serve m --task embed\n", "0.33.0")
    assert helps["VC002"].startswith("use `--runner` or `--convert`"), helps


def test_removed_variable_names_its_replacement(tmp_path):
    helps = _helps(tmp_path, "export VLLM_ALL2ALL_BACKEND=deepep_low_latency\nvllm serve m\n", "0.33.0")
    assert helps["VC103"] == "use `--all2all-backend` instead"
