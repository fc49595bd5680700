"""Engine parity (#16): the engine-config and serve checks of VC240-VC244 and the bounds
of hand-written options (the field the engine config passes them to), per release, with
exact positions, on launch scripts such as an operator writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths

DENSE = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": 32,
    "hidden_size": 4096, "intermediate_size": 14336, "num_attention_heads": 32,
    "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 8192,
    "torch_dtype": "bfloat16",
}  # fmt: skip


def lint(tmp_path: Path, text: str, version: str = "0.33.0") -> list[tuple[str, int, int, str]]:
    p = tmp_path / "serve.sh"
    p.write_text(text, encoding="utf-8")
    r = lint_paths([str(p)], version, config=LintConfig())
    assert r.internal_errors == []
    return [(d.code, d.span.line, d.span.col, d.severity) for d in r.diagnostics]


def script(*args: str, model: str = "meta-llama/Llama-3.1-8B-Instruct") -> str:
    lines = ["#!/bin/bash", "set -euo pipefail", f"vllm serve {model} \\", "  --port 8000 \\"]
    lines += [f"  {a} \\" for a in args[:-1]] + [f"  {args[-1]}"]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- VC240


def test_stochastic_rounding_with_another_ssm_dtype(tmp_path):
    text = script("--enable-mamba-cache-stochastic-rounding", "--mamba-ssm-cache-dtype float32")
    assert lint(tmp_path, text) == [("VC240", 6, 3, "error")]
    ok = script("--enable-mamba-cache-stochastic-rounding", "--mamba-ssm-cache-dtype float16")
    assert lint(tmp_path, ok) == []


def test_stochastic_rounding_with_auto_reads_the_model(tmp_path):
    # auto: a hybrid model's config.json may name float16 (vLLM copies it before the
    # check); a model vcfg cannot read is not judged
    text = script("--enable-mamba-cache-stochastic-rounding")
    assert lint(tmp_path, text) == []
    d = tmp_path / "llama"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(DENSE))
    text = script("--enable-mamba-cache-stochastic-rounding", model="./llama")
    assert lint(tmp_path, text) == [("VC240", 5, 3, "error")]
    (d / "config.json").write_text(json.dumps({**DENSE, "mamba_ssm_dtype": "float16"}))
    assert lint(tmp_path, text) == []


# --------------------------------------------------------------------------- VC241


def test_fault_tolerance_with_internal_load_balancing(tmp_path):
    text = script("--data-parallel-size 2", "--enable-fault-tolerance")
    assert lint(tmp_path, text) == [("VC241", 6, 3, "error")]
    assert "VC241" not in {f[0] for f in lint(tmp_path, text, "0.26.0")}  # no such check before 0.27
    for ok in ("--data-parallel-rank 0", "--data-parallel-external-lb"):
        assert lint(tmp_path, script("--data-parallel-size 2", ok, "--enable-fault-tolerance")) == []


# --------------------------------------------------------------------------- VC242


def test_negative_sse_keep_alive(tmp_path):
    text = script("--sse-keep-alive-interval -5")
    assert lint(tmp_path, text) == [("VC242", 5, 3, "error")]
    assert lint(tmp_path, script("--sse-keep-alive-interval 0")) == []


# --------------------------------------------------------------------------- VC243


def test_prefetch_offloading_with_the_default_group_size(tmp_path):
    text = script("--offload-backend prefetch")
    assert lint(tmp_path, text) == [("VC243", 5, 3, "error")]
    text = script("--offload-group-size 2", "--offload-num-in-group 3")
    assert lint(tmp_path, text) == [("VC243", 6, 3, "error")]
    assert lint(tmp_path, script("--offload-backend prefetch", "--offload-group-size 4")) == []
    assert lint(tmp_path, script("--offload-backend uva")) == []


# --------------------------------------------------------------------------- VC244


def test_kv_offloading_backend_without_size_on_0_13(tmp_path):
    text = script("--kv-offloading-backend native")
    assert lint(tmp_path, text, "0.13.0") == [("VC244", 5, 3, "error")]
    assert lint(tmp_path, script("--kv-offloading-backend native", "--kv-offloading-size 32"), "0.13.0") == []
    assert lint(tmp_path, text, "0.33.0") == []  # 0.14 on: another set-up, not this check


# --------------------------------------------------------------------------- bounds of hand-written options


@pytest.mark.parametrize(
    "arg", ["--shutdown-timeout -5", "--data-parallel-rpc-port -5", "--data-parallel-size-local -5", "-dpp 70000"]
)
def test_bound_of_the_field_the_engine_config_passes_it_to(tmp_path, arg):
    # written with add_argument(type=int), the option reaches VllmConfig/ParallelConfig's
    # bounded field through create_engine_config (engine/arg_utils.py:2584, :2915 @0.33.0)
    text = script(arg)
    assert lint(tmp_path, text) == [("VC006", 5, 4 + len(arg.split()[0]), "error")]


def test_bounds_of_hand_written_options_in_range_are_clean(tmp_path):
    text = script("--shutdown-timeout 30", "--data-parallel-rpc-port 29550", "--data-parallel-size-local 0")
    assert lint(tmp_path, text) == []


# --------------------------------------------------------------------------- VC245


def test_external_data_parallel_on_a_dense_model(tmp_path):
    d = tmp_path / "llama"
    d.mkdir()
    (d / "config.json").write_text(json.dumps(DENSE))
    text = script("--data-parallel-size 2", "--data-parallel-rank 1", model="./llama")
    assert lint(tmp_path, text) == [("VC245", 6, 3, "error")]
    assert lint(tmp_path, text, "0.20.2") == []  # no such check before 0.21
    # a mixture-of-experts model, an unknown model, or internal load balancing: clean
    (tmp_path / "moe").mkdir()
    (tmp_path / "moe" / "config.json").write_text(json.dumps({**DENSE, "num_local_experts": 8}))
    assert lint(tmp_path, script("--data-parallel-size 2", "--data-parallel-rank 1", model="./moe")) == []
    assert lint(tmp_path, script("--data-parallel-size 2", "--data-parallel-rank 1")) == []
    assert lint(tmp_path, script("--data-parallel-size 2", model="./llama")) == []
