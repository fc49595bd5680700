"""Deep rules VC204-VC208: checks that read the model's config.json when the launch's model
is a local directory.  Model directories are copies of tests/fixtures/plan/ in tmp_path;
positions are asserted as line:column."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from vcfg.errors import VcfgError
from vcfg.lint.config import LintConfig, from_table, load_config
from vcfg.lint.engine import lint_paths

FIXTURES = Path(__file__).parent / "fixtures" / "plan"
CODES = {"VC204", "VC205", "VC206", "VC207", "VC208"}
GIB = 1024**3


@pytest.fixture
def models(tmp_path: Path) -> Path:
    for name in ("deepseek-v3", "deepseek-v3.2", "llama-3.1-70b", "qwen3-30b-a3b"):
        shutil.copytree(FIXTURES / name, tmp_path / name)
    return tmp_path


def lint(folder: Path, text: str, gpu_memory: str | None = None, version: str = "0.33.0", name: str = "run.sh"):
    p = folder / name
    p.write_text(text)
    cfg = LintConfig()
    if gpu_memory:
        cfg = from_table({"gpu-memory": gpu_memory}, folder / ".vcfg.toml")
    res = lint_paths([str(p)], version, config=cfg)
    assert not res.internal_errors, res.internal_errors
    return [(d.code, d.span.line, d.span.col, d.severity, d.message) for d in res.diagnostics if d.code in CODES]


def where(found):
    return [(code, line, col) for code, line, col, _, _ in found]


# --------------------------------------------------------------------------- VC204


def test_vc204_heads_not_divisible(models):
    found = lint(models, "vllm serve ./llama-3.1-70b -tp 6\n")
    assert where(found) == [("VC204", 1, 28)]
    assert found[0][4] == "64 attention heads are not divisible by `-tp` 6"


def test_vc204_kv_heads_neither_split_nor_replicated(models, tmp_path):
    # 32 heads, 6 KV heads: tp 4 divides the heads, but 6 KV heads split neither way
    d = tmp_path / "odd-gqa"
    d.mkdir()
    cfg = json.loads((FIXTURES / "llama-3.1-70b" / "config.json").read_text())
    cfg.update(num_attention_heads=32, num_key_value_heads=6)
    (d / "config.json").write_text(json.dumps(cfg))
    found = lint(models, "vllm serve odd-gqa \\\n  --tensor-parallel-size=4\n")
    assert where(found) == [("VC204", 2, 3)]
    assert found[0][4] == "6 KV heads can be neither split nor replicated evenly over `--tensor-parallel-size` 4"


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve ./llama-3.1-70b -tp 8\n",
        "vllm serve ./llama-3.1-70b -tp 16\n",  # 8 KV heads replicated twice
        "vllm serve ./qwen3-30b-a3b -tp 4\n",
        "vllm serve ./deepseek-v3 -tp 16\n",  # MLA: no KV heads check
        "vllm serve ./llama-3.1-70b\n",
        "vllm serve meta-llama/Llama-3.1-70B -tp 6\n",  # a Hub name: never read
        "vllm serve ./llama-3.1-70b -tp $TP\n",
    ],
)
def test_vc204_silent(models, text):
    assert lint(models, text) == []


def test_dir_without_config_json_is_silent(models, tmp_path):
    (tmp_path / "empty-model").mkdir()
    assert lint(models, "vllm serve ./empty-model -tp 6 --max-model-len 999999 --enable-expert-parallel\n") == []


def test_partial_config_is_silent(models, tmp_path):
    d = tmp_path / "partial"
    d.mkdir()
    (d / "config.json").write_text('{"num_attention_heads": 64}')
    assert lint(models, "vllm serve ./partial -tp 6\n") == []
    (d / "config.json").write_text("{not json")
    assert lint(models, "vllm serve ./partial -tp 6\n") == []


def test_hf_overrides_make_the_rules_silent(models):
    text = "vllm serve ./llama-3.1-70b -tp 6 --hf-overrides '{\"num_attention_heads\": 48}'\n"
    assert lint(models, text) == []


def test_model_relative_to_the_script_folder(models, tmp_path, monkeypatch):
    sub = tmp_path / "scripts"
    sub.mkdir()
    monkeypatch.chdir(sub)  # cwd elsewhere: the script's folder decides
    found = lint(sub, "vllm serve ../llama-3.1-70b -tp 6\n")
    assert where(found) == [("VC204", 1, 29)]


def test_model_relative_to_cwd(models, tmp_path, monkeypatch):
    sub = tmp_path / "scripts"
    sub.mkdir()
    monkeypatch.chdir(tmp_path)
    found = lint(sub, "vllm serve llama-3.1-70b -tp 6\n")
    assert where(found) == [("VC204", 1, 26)]


def test_absolute_model_path(models, tmp_path):
    text = f"vllm serve {tmp_path / 'llama-3.1-70b'}/ -tp 3\n"
    found = lint(models, text)
    assert [c for c, *_ in found] == ["VC204"]


# --------------------------------------------------------------------------- VC205


def test_vc205_above_the_limit(models):
    found = lint(models, "vllm serve ./qwen3-30b-a3b --max-model-len 64k\n")
    assert where(found) == [("VC205", 1, 28)]
    assert found[0][4] == (
        "`--max-model-len` 64000 is above the model's limit 40960 (max_position_embeddings in config.json)"
    )


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve ./qwen3-30b-a3b --max-model-len 40960\n",
        "vllm serve ./qwen3-30b-a3b --max-model-len -1\n",
        "vllm serve ./qwen3-30b-a3b --max-model-len auto\n",
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve ./qwen3-30b-a3b --max-model-len 64000\n",
        "export VLLM_ALLOW_LONG_MAX_MODEL_LEN=true\nvllm serve ./qwen3-30b-a3b --max-model-len 64000\n",
        "source ./site.env\nvllm serve ./qwen3-30b-a3b --max-model-len 64000\n",  # may set it
        "vllm serve Qwen/Qwen3-30B-A3B --max-model-len 64000\n",
        # yarn: the factor is already in max_position_embeddings (163840)
        "vllm serve ./deepseek-v3.2 -tp 8 --max-model-len 163840\n",
    ],
)
def test_vc205_silent(models, text):
    assert lint(models, text) == []


def test_vc205_override_not_exported_or_false(models):
    found = lint(models, "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1\nvllm serve ./qwen3-30b-a3b --max-model-len 64000\n")
    assert where(found) == [("VC205", 2, 28)]
    found = lint(models, "export VLLM_ALLOW_LONG_MAX_MODEL_LEN=0\nvllm serve ./qwen3-30b-a3b --max-model-len 64000\n")
    assert where(found) == [("VC205", 2, 28)]


def test_vc205_model_max_length_allows_more(models, tmp_path):
    d = tmp_path / "longer"
    d.mkdir()
    cfg = json.loads((FIXTURES / "qwen3-30b-a3b" / "config.json").read_text())
    cfg["model_max_length"] = 131072  # vLLM accepts up to this (config/model.py:2656-2661)
    (d / "config.json").write_text(json.dumps(cfg))
    assert lint(models, "vllm serve ./longer --max-model-len 100000\n") == []
    assert where(lint(models, "vllm serve ./longer --max-model-len 200000\n")) == [("VC205", 1, 21)]


# --------------------------------------------------------------------------- VC206


def test_vc206_llama_70b_on_two_80gib_gpus(models):
    # weights 141.1 GB / 2 = 65.7 GiB; 80 x 0.92 - 65.7 - 4 = 3.9 GiB; 2 x 80 x 4 x 128 x 2
    # = 163840 bytes per token: about 25.5k tokens, far below 131072
    found = lint(models, "vllm serve ./llama-3.1-70b -tp 2 --max-model-len 131072\n", gpu_memory="80GiB")
    assert where(found) == [("VC206", 1, 34)]
    assert found[0][3] == "error"
    assert found[0][4].startswith("about 25") and "`--max-model-len` 131072" in found[0][4]


def test_vc206_borderline_is_a_warning(models):
    # the same layout holds about 25.5k tokens: 28000 is short by less than 20%
    found = lint(models, "vllm serve ./llama-3.1-70b -tp 2 --max-model-len 28000\n", gpu_memory="80GiB")
    assert [(c, sev) for c, _, _, sev, _ in found] == [("VC206", "warning")]
    assert lint(models, "vllm serve ./llama-3.1-70b -tp 2 --max-model-len 20000\n", gpu_memory="80GiB") == []


def test_vc206_weights_do_not_fit(models):
    found = lint(models, "vllm serve ./llama-3.1-70b --max-model-len 8192\n", gpu_memory="80GiB")
    assert where(found) == [("VC206", 1, 28)]
    assert "leave no KV cache" in found[0][4]


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve ./llama-3.1-70b -tp 4 --max-model-len 131072\n",
        "vllm serve ./llama-3.1-70b -tp 2 --max-model-len 131072 --kv-cache-memory-bytes 40G\n",
        "vllm serve ./llama-3.1-70b -tp 2\n",  # length not written
        "vllm serve meta-llama/Llama-3.1-70B -tp 2 --max-model-len 131072\n",
    ],
)
def test_vc206_silent(models, text):
    assert lint(models, text, gpu_memory="80GiB") == []


def test_vc206_silent_without_gpu_memory(models):
    assert lint(models, "vllm serve ./llama-3.1-70b -tp 2 --max-model-len 131072\n") == []


def test_vc206_gpu_memory_from_vcfg_toml(models):
    (models / ".vcfg.toml").write_text('gpu-memory = "80GiB"\n')
    cfg = load_config(models)
    assert cfg.gpu_memory == 80 * GIB
    p = models / "run.sh"
    p.write_text("vllm serve ./llama-3.1-70b -tp 2 --max-model-len 131072\n")
    res = lint_paths([str(p)], "0.33.0", config=cfg)
    assert [d.code for d in res.diagnostics if d.code in CODES] == ["VC206"]


def test_gpu_memory_setting_errors(tmp_path):
    with pytest.raises(VcfgError, match="gpu-memory"):
        from_table({"gpu-memory": "lots"}, tmp_path / ".vcfg.toml")
    with pytest.raises(VcfgError, match="gpu-memory"):
        from_table({"gpu-memory": True}, tmp_path / ".vcfg.toml")
    assert from_table({"gpu-memory": "80GB"}, tmp_path / ".vcfg.toml").gpu_memory == 80 * 10**9


# --------------------------------------------------------------------------- VC207


def test_vc207_expert_parallel_on_dense_model(models):
    found = lint(models, "vllm serve ./llama-3.1-70b -tp 8 -ep\n")
    assert where(found) == [("VC207", 1, 34)]
    assert found[0][4] == "`-ep` on a dense model: llama config.json has no experts"


@pytest.mark.parametrize(
    "text",
    [
        "vllm serve ./qwen3-30b-a3b -tp 4 --enable-expert-parallel\n",
        "vllm serve ./deepseek-v3 -tp 8 --enable-expert-parallel\n",
        "vllm serve ./llama-3.1-70b -tp 8 --no-enable-expert-parallel\n",
        "vllm serve meta-llama/Llama-3.1-70B -tp 8 --enable-expert-parallel\n",
    ],
)
def test_vc207_silent(models, text):
    assert lint(models, text) == []


def test_vc207_experts_under_a_key_vcfg_plan_does_not_read(models, tmp_path):
    d = tmp_path / "dbrx-like"
    d.mkdir()
    cfg = json.loads((FIXTURES / "llama-3.1-70b" / "config.json").read_text())
    cfg["ffn_config"] = {"moe_num_experts": 16}
    cfg["moe_num_experts"] = 16
    (d / "config.json").write_text(json.dumps(cfg))
    assert lint(models, "vllm serve ./dbrx-like -tp 8 --enable-expert-parallel\n") == []


# --------------------------------------------------------------------------- VC208


def test_vc208_more_stages_than_layers(models):
    found = lint(models, "vllm serve ./deepseek-v3 -pp 64\n")
    assert where(found) == [("VC208", 1, 26)]
    assert found[0][3] == "warning"
    assert found[0][4] == "`-pp` 64 is more than the model's 61 layers"
    assert lint(models, "vllm serve ./deepseek-v3 -pp 61\n") == []


# --------------------------------------------------------------------------- the seed


SEED = """export VLLM_RPC_TIMEOUT=600000
unset PYTHONPATH
nohup vllm serve {model} \\
--host 0.0.0.0 \\
--port 20002 \\
--tensor-parallel-size 8 \\
--seed 1024 \\
--served-model-name base_model \\
--max-model-len 10000 \\
--max-num-batched-tokens 10000 \\
--max-num-seqs 256 \\
--trust-remote-code \\
--gpu-memory-utilization 0.9 \\
--kv-transfer-config \\
'{{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_buffer_size":"8e9","kv_port":"22001"}}' > decode.log &
"""


@pytest.mark.parametrize("version", ["0.13.0", "0.33.0"])
def test_seed_deepseek_v32_launch_is_clean(models, version):
    text = SEED.format(model=f"{models / 'deepseek-v3.2'}/")
    assert lint(models, text, gpu_memory="141GiB", version=version) == []
    assert lint(models, text, version=version) == []
    # the rules do read this model: on 80 GiB GPUs its ~78 GiB of weights per GPU leave no room
    assert [c for c, *_ in lint(models, text, gpu_memory="80GiB", version=version)] == ["VC206"]


def test_seed_with_a_bad_tp_is_caught(models):
    # the same launch at TP 6: 128 heads do not split over 6 GPUs
    text = SEED.format(model="./deepseek-v3.2").replace("--tensor-parallel-size 8", "--tensor-parallel-size 6")
    assert where(lint(models, text, gpu_memory="141GiB")) == [("VC204", 6, 1)]
