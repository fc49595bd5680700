"""`vcfg plan` on the command line: exit codes, JSON, errors, and no network."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from vcfg.cli.commands import main

FIX = Path(__file__).parent / "fixtures" / "plan"


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*a: object, **k: object) -> None:
        raise AssertionError("vcfg plan must not use the network")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def run(*args: str):
    return CliRunner().invoke(main, ["plan", *args])


def test_seed_deployment_text() -> None:
    r = run(
        "--model",
        str(FIX / "deepseek-v3.2"),
        "--gpus",
        "8",
        "--gpu-memory",
        "141GiB",
        "--max-model-len",
        "10000",
        "--gpu-memory-utilization",
        "0.9",
    )
    assert r.exit_code == 0, r.output
    assert "61 layers, hidden 7168, MLA (kv_lora_rank 512 + rope 64)" in r.output
    row = next(line for line in r.output.splitlines() if line.split()[1:5] == ["8", "1", "1", "no"])
    assert row.split()[-1] == "ok"
    assert "vllm serve MODEL --tensor-parallel-size 1 --data-parallel-size 8 --enable-expert-parallel" in r.output


def test_json_lists_every_layout() -> None:
    r = run("--model-config", str(FIX / "llama-3.1-70b" / "config.json"), "--gpus", "8", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["model"]["weight_source"] == "model.safetensors.index.json metadata.total_size"
    assert len(doc["layouts"]) == 10  # (tp, pp) over the divisors of 8, dp = the rest
    best = doc["layouts"][0]
    assert (best["tp"], best["kv_bytes_per_token_per_gpu"], best["flags"]) == (8, 40960, ["--tensor-parallel-size 8"])


def test_no_layout_works_exit_1() -> None:
    r = run("--model", str(FIX / "llama-3.1-70b"), "--gpus", "1", "--gpu-memory", "80GiB")
    assert r.exit_code == 1
    assert "weights do not fit" in r.output and "no layout works" in r.output


def test_max_model_len_above_limit_exit_1() -> None:
    r = run("--model", str(FIX / "qwen3-30b-a3b"), "--gpus", "8", "--max-model-len", "65536")
    assert r.exit_code == 1
    assert "error: max_model_len 65536 is above the model's limit 40960" in r.output


def test_partial_config_exit_2(tmp_path: Path) -> None:
    cfg = tmp_path / "config.json"
    cfg.write_text('{"hidden_size": 4096, "num_attention_heads": 32}')
    r = run("--model-config", str(cfg), "--gpus", "8")
    assert r.exit_code == 2
    assert "missing num_hidden_layers, vocab_size, max_position_embeddings" in r.output


def test_hub_name_is_not_downloaded_exit_2() -> None:
    r = run("--model", "deepseek-ai/DeepSeek-V3.2", "--gpus", "8")
    assert r.exit_code == 2 and "not a local directory" in r.output


def test_both_or_neither_model_source_exit_2() -> None:
    assert run("--gpus", "8").exit_code == 2
    r = run("--model", str(FIX / "qwen3-30b-a3b"), "--model-config", "x.json", "--gpus", "8")
    assert r.exit_code == 2 and "exactly one of" in r.output


def test_bad_sizes_exit_2() -> None:
    assert run("--model", str(FIX / "qwen3-30b-a3b"), "--gpus", "8", "--gpu-memory", "big").exit_code == 2
    assert run("--model", str(FIX / "qwen3-30b-a3b"), "--gpus", "8", "--nodes", "3").exit_code == 2
    r = run("--model", str(FIX / "qwen3-30b-a3b"), "--gpus", "8", "--gpu-memory-utilization", "1.5")
    assert r.exit_code == 2 and "(0, 1]" in r.output
