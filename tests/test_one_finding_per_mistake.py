"""One finding per mistake, and each finding says what is true of the release.

- ``vllm serve M --model M`` on 0.9.0: that release's ``vllm serve`` registers no
  ``--model`` (only the api_server module's parser does, engine/arg_utils.py:452
  @0.9.0; vcfg/catalog/data/outside-serve-flags.json), and its FlexibleArgumentParser
  refuses ``--model`` before argparse runs (vllm/utils.py:1399-1407 @0.9.0).  That is
  VC010's error, citing where the release declares its model argument; not VC002's
  "removed in 0.9.0" (0.8.5 and 0.9.1 have it), nor argparse's ambiguity (never reached).
- A negative ``--data-parallel-rank`` is VC209 alone.
"""

from __future__ import annotations

import pytest

from vcfg.lint.engine import lint_paths


def lint(tmp_path, text, version):
    p = tmp_path / "serve.sh"
    p.write_text(text)
    res = lint_paths([str(p)], version)
    assert not res.internal_errors, res.internal_errors
    return [(d.code, d.severity, d.span.line, d.span.col, d.help) for d in res.diagnostics]


SCRIPT = "#!/bin/bash\nMODEL=facebook/opt-125m\nvllm serve $MODEL --model $MODEL --port 8000\n"
COL = SCRIPT.splitlines()[2].index("--model") + 1


@pytest.mark.parametrize(
    ("version", "where"),
    [("0.9.0", "vllm/entrypoints/cli/serve.py:55"), ("0.8.5", "vllm/entrypoints/cli/serve.py:40")],
)
def test_model_option_under_serve_is_one_error_citing_the_model_argument(tmp_path, version, where):
    assert lint(tmp_path, SCRIPT, version) == [
        (
            "VC010",
            "error",
            3,
            COL,
            f"give the model as the first argument: `vllm serve MODEL ...` "
            f"(vllm {version} declares it as `model_tag` at {where})",
        )
    ]


def test_model_option_with_equals_on_0_9_0_is_argparses_ambiguity_alone(tmp_path):
    # `--model=M` passes the exact-word check; argparse then finds it ambiguous
    s = SCRIPT.replace("--model $MODEL", "--model=$MODEL")
    assert [(c, ln, cl) for c, _, ln, cl, _ in lint(tmp_path, s, "0.9.0")] == [("VC001", 3, COL)]


def test_the_api_server_module_has_model_on_0_9_0(tmp_path):
    s = "python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m --port 8000\n"
    assert lint(tmp_path, s, "0.9.0") == []


@pytest.mark.parametrize("version", ["0.9.2", "0.13.0", "0.33.0"])
@pytest.mark.parametrize("rank", ["--data-parallel-rank -1", "--data-parallel-rank=-1", "-dpn -1"])
def test_a_negative_data_parallel_rank_is_one_finding(tmp_path, version, rank):
    s = f"vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 2 {rank} --port 8000\n"
    assert [c for c, *_ in lint(tmp_path, s, version)] == ["VC209"]
