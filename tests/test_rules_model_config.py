"""The rules that read the model's config.json (VC261-VC264, and VC205 through the
Hugging Face cache): small config.json files written here, codes and positions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths

DENSE = {
    "architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_hidden_layers": 36,
    "hidden_size": 4096, "intermediate_size": 12288, "num_attention_heads": 32,
    "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,
    "max_position_embeddings": 40960, "torch_dtype": "bfloat16",
}  # fmt: skip
MTP = {
    "architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "num_hidden_layers": 61,
    "hidden_size": 7168, "num_attention_heads": 128, "num_key_value_heads": 128, "vocab_size": 129280,
    "max_position_embeddings": 163840, "kv_lora_rank": 512, "qk_rope_head_dim": 64,
    "n_routed_experts": 256, "num_experts_per_tok": 8, "num_nextn_predict_layers": 1,
    "torch_dtype": "bfloat16",
}  # fmt: skip
CODES = {"VC201", "VC205", "VC261", "VC262", "VC263", "VC264"}


def model(root: Path, name: str, cfg: dict, **files: str) -> Path:
    d = root / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "config.json").write_text(json.dumps(cfg))
    for fname, text in files.items():
        (d / fname.replace("__", ".")).write_text(text)
    return d


def lint(tmp_path: Path, script: str, version: str = "0.33.0") -> list[tuple[str, int, int, str]]:
    p = tmp_path / "run.sh"
    p.write_text(script)
    r = lint_paths([str(p)], version, config=LintConfig())
    assert r.internal_errors == []
    return [(d.code, d.span.line, d.span.col, d.severity) for d in r.diagnostics if d.code in CODES]


def col(script: str, needle: str, line: int = 1) -> int:
    return script.splitlines()[line - 1].index(needle) + 1


# --------------------------------------------------------------------------- VC261


def test_float16_kv_cache_on_a_bfloat16_model(tmp_path):
    model(tmp_path, "m", DENSE)
    s = "vllm serve ./m --kv-cache-dtype float16\n"
    # a warning: a GPU without bfloat16 runs the model in float16, where it is accepted
    assert lint(tmp_path, s) == [("VC261", 1, col(s, "float16"), "warning")]
    assert lint(tmp_path, "vllm serve ./m --kv-cache-dtype bfloat16\n") == []
    assert lint(tmp_path, "vllm serve ./m --kv-cache-dtype auto\n") == []
    assert lint(tmp_path, "vllm serve ./m --kv-cache-dtype fp8\n") == []  # not a float dtype
    # the check arrived in 0.33.0 (config/vllm.py:1492)
    assert lint(tmp_path, s, "0.32.0") == []


def test_explicit_dtype_decides_and_needs_no_model(tmp_path):
    s = "vllm serve Qwen/Qwen3-8B --dtype half --kv-cache-dtype bfloat16\n"
    assert lint(tmp_path, s) == [("VC261", 1, col(s, "bfloat16"), "error")]
    s = "vllm serve Qwen/Qwen3-8B --dtype float32 --kv-cache-dtype float16\n"
    assert lint(tmp_path, s) == [("VC261", 1, s.rindex("float16") + 1, "error")]
    assert lint(tmp_path, "vllm serve Qwen/Qwen3-8B --dtype bfloat16 --kv-cache-dtype bfloat16\n") == []


def test_a_float32_or_unstated_dtype_depends_on_the_gpu(tmp_path):
    model(tmp_path, "f32", {**DENSE, "torch_dtype": "float32"})
    cfg = dict(DENSE)
    del cfg["torch_dtype"]
    model(tmp_path, "none", cfg)
    model(tmp_path, "fp16", {**DENSE, "torch_dtype": None, "dtype": "float16"})
    assert lint(tmp_path, "vllm serve ./f32 --kv-cache-dtype float16\n") == []
    assert lint(tmp_path, "vllm serve ./none --kv-cache-dtype float16\n") == []
    s = "vllm serve ./fp16 --kv-cache-dtype bfloat16\n"  # float16 runs everywhere: certain
    assert lint(tmp_path, s) == [("VC261", 1, col(s, "bfloat16"), "error")]


# --------------------------------------------------------------------------- VC262


def test_awq_on_an_unquantized_checkpoint(tmp_path):
    model(tmp_path, "m", DENSE)
    s = "vllm serve ./m --quantization awq\n"
    assert lint(tmp_path, s) == [("VC262", 1, col(s, "awq"), "error")]
    s = "vllm serve ./m -q gptq_marlin\n"
    assert lint(tmp_path, s) == [("VC262", 1, col(s, "gptq_marlin"), "error")]
    assert lint(tmp_path, "vllm serve ./m --quantization fp8\n") == []  # quantizes on load


def test_quantized_checkpoints_pass(tmp_path):
    model(tmp_path, "awq", {**DENSE, "quantization_config": {"quant_method": "awq", "bits": 4}})
    model(tmp_path, "file", DENSE, quant_config__json='{"w_bit": 4}')
    model(tmp_path, "gptq", DENSE, quantize_config__json='{"bits": 4}')
    model(tmp_path, "ct", {**DENSE, "compression_config": {"quant_method": "compressed-tensors"}})
    for s in (
        "vllm serve ./awq --quantization awq\n",
        "vllm serve ./file --quantization awq\n",
        "vllm serve ./gptq --quantization gptq\n",
        "vllm serve ./ct --quantization awq\n",
    ):
        assert lint(tmp_path, s) == [], s
    # gptq reads only quantize_config.json
    s = "vllm serve ./file --quantization gptq\n"
    assert [c for c, *_ in lint(tmp_path, s)] == ["VC262"]


def test_hf_overrides_may_carry_the_settings(tmp_path):
    model(tmp_path, "m", DENSE)
    s = 'vllm serve ./m --quantization awq --hf-overrides \'{"quantization_config_file": "q.json"}\'\n'
    assert lint(tmp_path, s) == []


# --------------------------------------------------------------------------- VC263


def test_batched_tokens_below_the_derived_length(tmp_path):
    model(tmp_path, "m", DENSE)
    s = "vllm serve ./m --no-enable-chunked-prefill --max-num-batched-tokens 8192\n"
    assert lint(tmp_path, s) == [("VC263", 1, col(s, "--max-num-batched-tokens"), "error")]
    # chunked prefill left on (vLLM's default) or a budget that covers the model
    assert lint(tmp_path, "vllm serve ./m --max-num-batched-tokens 8192\n") == []
    assert lint(tmp_path, "vllm serve ./m --no-enable-chunked-prefill --max-num-batched-tokens 40960\n") == []
    # a written --max-model-len is VC201's
    s = "vllm serve ./m --no-enable-chunked-prefill --max-num-batched-tokens 8192 --max-model-len 16384\n"
    assert [c for c, *_ in lint(tmp_path, s)] == ["VC201"]
    s = "vllm serve ./m --no-enable-chunked-prefill --max-num-batched-tokens 8192 --max-model-len 8192\n"
    assert lint(tmp_path, s) == []
    # before 0.11.2 vLLM turned chunked prefill back on
    s = "vllm serve ./m --no-enable-chunked-prefill --max-num-batched-tokens 8192\n"
    assert lint(tmp_path, s, "0.10.2") == []


def test_derived_length_follows_rope_and_the_tokenizer(tmp_path):
    model(
        tmp_path,
        "yarn",
        {**DENSE, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}},
    )
    s = "vllm serve ./yarn --no-enable-chunked-prefill --max-num-batched-tokens 65536\n"
    # yarn's factor already applies (ROPE types vLLM does not scale again): 40960
    assert lint(tmp_path, s) == []
    model(tmp_path, "linear", {**DENSE, "rope_scaling": {"rope_type": "linear", "factor": 2.0}})
    s = "vllm serve ./linear --no-enable-chunked-prefill --max-num-batched-tokens 65536\n"
    assert lint(tmp_path, s) == [("VC263", 1, col(s, "--max-num-batched-tokens"), "error")]  # 81920
    model(tmp_path, "tok", DENSE, tokenizer_config__json='{"model_max_length": 8192}')
    s = "vllm serve ./tok --no-enable-chunked-prefill --max-num-batched-tokens 8192\n"
    assert lint(tmp_path, s) == []  # the tokenizer caps the length at 8192
    model(tmp_path, "long", {**DENSE, "rope_scaling": {"rope_type": "longrope", "factor": 4.0}})
    s = "vllm serve ./long --no-enable-chunked-prefill --max-num-batched-tokens 1024\n"
    assert lint(tmp_path, s) == []  # longrope: another length, not judged
    # Gemma 3's length is already scaled: vLLM skips the factor for every model type
    # that contains "gemma3" (gemma3_text too), so 65536 tokens cover its 40960
    model(
        tmp_path, "g3", {**DENSE, "model_type": "gemma3_text", "rope_scaling": {"rope_type": "linear", "factor": 2.0}}
    )
    s = "vllm serve ./g3 --no-enable-chunked-prefill --max-num-batched-tokens 65536\n"
    assert lint(tmp_path, s) == []


# --------------------------------------------------------------------------- VC264


def test_mtp_on_a_dense_model(tmp_path):
    model(tmp_path, "m", DENSE)
    s = 'vllm serve ./m --speculative-config \'{"method": "mtp", "num_speculative_tokens": 1}\'\n'
    assert lint(tmp_path, s) == [("VC264", 1, col(s, '"mtp"'), "error")]
    assert lint(tmp_path, s, "0.19.1") == []  # 0.15-0.20.1 build it as a draft model: not judged
    # 0.13 and 0.14 refuse a draft model (NotImplementedError), and take an MTP model
    # type named as the method for `mtp`
    assert lint(tmp_path, s, "0.13.0") == [("VC264", 1, col(s, '"mtp"'), "error")]
    s = 'vllm serve ./m --speculative-config \'{"method": "pangu_ultra_moe_mtp", "num_speculative_tokens": 3}\'\n'
    assert lint(tmp_path, s, "0.13.0") == [("VC264", 1, col(s, '"pangu_ultra_moe_mtp"'), "error")]


def test_a_named_mtp_method_is_mtp_in_every_judged_release(tmp_path):
    """vLLM replaces a method named after an MTP model type (`deepseek_mtp`, ...) by `mtp`
    in every release from 0.13.0 to 0.33.0 (0.20.2 config/speculative.py:455, 0.33.0:1246),
    not only before 0.15: a DeepSeek recipe's launch pointed at a Qwen3 checkpoint is
    refused on 0.20.2 and later too, and accepted for a checkpoint with next-n layers."""
    model(tmp_path, "qwen3-8b", DENSE)
    model(tmp_path, "deepseek-v3", MTP)
    s = (
        "#!/bin/bash\n"
        "vllm serve ./qwen3-8b \\\n"
        "  --tensor-parallel-size 8 \\\n"
        "  --trust-remote-code \\\n"
        '  --speculative-config \'{"method":"deepseek_mtp","num_speculative_tokens":1}\'\n'
    )
    found = [("VC264", 5, col(s, '"deepseek_mtp"', 5), "error")]
    for version in ("0.20.2", "0.25.0", "0.33.0"):
        assert lint(tmp_path, s, version) == found, version
    assert lint(tmp_path, s, "0.19.1") == []  # built as a plain draft model there: not judged
    ok = s.replace("./qwen3-8b", "./deepseek-v3")
    for version in ("0.20.2", "0.33.0"):
        assert lint(tmp_path, ok, version) == [], version


def test_mtp_where_the_checkpoint_has_layers_or_a_draft_is_given(tmp_path):
    model(tmp_path, "ds", MTP)
    model(tmp_path, "m", DENSE)
    s = 'vllm serve ./ds --speculative-config \'{"method": "mtp", "num_speculative_tokens": 1}\'\n'
    assert lint(tmp_path, s) == []
    s = 'vllm serve ./m --speculative-config \'{"method": "mtp", "model": "./m-mtp", "num_speculative_tokens": 1}\'\n'
    assert lint(tmp_path, s) == []
    cfg = {**DENSE, "model_type": "qwen3_next"}  # a type vLLM's MTP set-up knows by name
    model(tmp_path, "next", cfg)
    s = 'vllm serve ./next --speculative-config \'{"method": "mtp", "num_speculative_tokens": 1}\'\n'
    assert lint(tmp_path, s) == []


# --------------------------------------------------------------------------- the HF cache


def hub(cache: Path, repo: str, cfg: dict, commit: str = "a" * 40, ref: str = "main", **files: str) -> Path:
    root = cache / ("models--" + repo.replace("/", "--"))
    snap = root / "snapshots" / commit
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps(cfg))
    for fname, text in files.items():
        (snap / fname.replace("__", ".")).write_text(text)
    if ref:
        (root / "refs").mkdir(exist_ok=True)
        (root / "refs" / ref).write_text(commit)
    return snap


def test_a_hub_model_is_read_from_the_hf_cache(tmp_path, monkeypatch):
    cache = tmp_path / "hf" / "hub"
    hub(cache, "Qwen/Qwen3-8B", DENSE)
    s = "vllm serve Qwen/Qwen3-8B --max-model-len 65536\n"
    assert lint(tmp_path, s) == []  # the test's own (empty) cache: nothing known
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    assert lint(tmp_path, s) == [("VC205", 1, col(s, "--max-model-len"), "error")]
    s = 'vllm serve Qwen/Qwen3-8B --speculative-config \'{"method": "mtp", "num_speculative_tokens": 2}\'\n'
    assert [c for c, *_ in lint(tmp_path, s)] == ["VC264"]


def test_hf_home_and_the_launch_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_CACHE")
    home = tmp_path / "hfhome"
    hub(home / "hub", "Qwen/Qwen3-8B", DENSE)
    s = f"export HF_HOME={home}\nvllm serve Qwen/Qwen3-8B --max-model-len 65536\n"
    assert [c for c, *_ in lint(tmp_path, s)] == ["VC205"]
    monkeypatch.setenv("HF_HOME", str(home))
    s = "vllm serve Qwen/Qwen3-8B --max-model-len 65536\n"
    assert [c for c, *_ in lint(tmp_path, s)] == ["VC205"]


def test_download_dir_and_revision(tmp_path, monkeypatch):
    dl = tmp_path / "models"
    hub(dl, "Qwen/Qwen3-8B", DENSE, commit="b" * 40, ref="v1")
    s = f"vllm serve Qwen/Qwen3-8B --download-dir {dl} --max-model-len 65536\n"
    assert lint(tmp_path, s) == []  # the cache has no `main` ref: what main is, is not known
    s = f"vllm serve Qwen/Qwen3-8B --download-dir {dl} --revision v1 --max-model-len 65536\n"
    assert [c for c, *_ in lint(tmp_path, s)] == ["VC205"]
    s = f"vllm serve Qwen/Qwen3-8B --download-dir {dl} --revision {'b' * 40} --max-model-len 65536\n"
    assert [c for c, *_ in lint(tmp_path, s)] == ["VC205"]  # a commit names its snapshot
    s = f"vllm serve Qwen/Qwen3-8B --download-dir {dl} --revision v2 --max-model-len 65536\n"
    assert lint(tmp_path, s) == []  # a revision the cache does not have


@pytest.mark.parametrize("name", ["../escape", "a/b/c", "/abs/path", "./local"])
def test_only_hub_ids_are_looked_up(tmp_path, monkeypatch, name):
    from vcfg.plan.hf_cache import snapshot_dir

    cache = tmp_path / "hub"
    assert snapshot_dir(name, [cache]) is None


def test_a_partial_snapshot_is_not_taken_for_an_unquantized_checkpoint(tmp_path, monkeypatch):
    cache = tmp_path / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    hub(cache, "org/awq-model", DENSE)  # config.json only: vLLM would fetch the other files
    assert lint(tmp_path, "vllm serve org/awq-model --quantization awq\n") == []
    hub(cache, "org/plain", DENSE, model__safetensors="")
    s = "vllm serve org/plain --quantization awq\n"
    assert [c for c, *_ in lint(tmp_path, s)] == ["VC262"]
