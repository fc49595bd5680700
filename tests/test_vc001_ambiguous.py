"""VC001 on an ambiguous abbreviation: one finding, as argparse gives one error; a Ray
Serve config's engine_kwargs are keyword arguments, so a name that is no field is
unknown, not ambiguous (found on tests/corpus/real/ray-serve/kuberay/).  A removed
option that is ambiguous (`--device` on 0.31.0+) is VC002's alone:
tests/test_one_finding_per_mistake.py."""

from __future__ import annotations

from pathlib import Path

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths

RAY = """\
applications:
- name: llms
  import_path: ray.serve.llm:build_openai_app
  args:
    llm_configs:
    - model_loading_config:
        model_id: qwen
        model_source: Qwen/Qwen2.5-7B-Instruct
      engine_kwargs:
        max_model_len: 1024
        device: auto
"""


def _vc001(path: Path) -> list[tuple[int, int, str]]:
    res = lint_paths([str(path)], "0.33.0", config=LintConfig())
    return [(d.span.line, d.span.col, d.message) for d in res.diagnostics if d.code == "VC001"]


def test_ambiguous_abbreviation_on_argv_is_one_finding(tmp_path: Path) -> None:
    p = tmp_path / "run.sh"
    p.write_text("vllm serve facebook/opt-125m --max-num 64\n")
    got = _vc001(p)
    # 0.33.0 has six options starting with --max-num (the bundled catalog)
    assert got == [
        (
            1,
            30,
            "ambiguous option '--max-num' could match --max-num-active-seqs, --max-num-batched-tokens, "
            "--max-num-queued-reqs, --max-num-queued-tokens, --max-num-scheduled-tokens, --max-num-seqs",
        )
    ], got


def test_ray_serve_kwarg_that_is_no_field_is_unknown_not_ambiguous(tmp_path: Path) -> None:
    p = tmp_path / "serve.yaml"
    p.write_text(RAY)
    assert _vc001(p) == []  # not "ambiguous": keyword arguments have no abbreviations
    # and not "unknown" either: `device` was a field up to 0.9.2 (0.8 and 0.9 are bundled)
    res = lint_paths([str(p)], "0.33.0", config=LintConfig())
    got = [(d.span.line, d.span.col, d.message) for d in res.diagnostics if d.code == "VC002"]
    assert got == [(11, 9, "`--device` was removed in vllm 0.10.0")], got
