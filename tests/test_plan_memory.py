"""vcfg plan: model facts and memory figures, checked against hand-worked arithmetic.

Fixtures in tests/fixtures/plan/ follow the published shapes of DeepSeek-V3 (and V3.2's
indexer), Llama-3.1-70B and Qwen3-30B-A3B; the GPUs are 8 x 141 GiB at 0.9 utilisation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vcfg.errors import VcfgError
from vcfg.plan import memory
from vcfg.plan.layouts import PlanRequest, layout_problems, plan
from vcfg.plan.model_facts import load_facts, parse_config

FIX = Path(__file__).parent / "fixtures" / "plan"
GIB = 2**30
BUDGET = 141 * GIB * 0.9 - 4 * GIB  # memory x utilisation - the default reserve


def facts(name: str):
    return load_facts(model=str(FIX / name))


# ------------------------------------------------------------------ model facts


def test_deepseek_v3_facts() -> None:
    f = facts("deepseek-v3")
    assert (f.num_layers, f.hidden_size, f.num_heads, f.vocab_size) == (61, 7168, 128, 129280)
    assert f.is_mla and f.head_dim == 512 + 64
    assert (f.num_experts, f.experts_per_token, f.num_shared_experts) == (256, 8, 1)
    assert f.moe_layers == 61 - 3  # first_k_dense_replace = 3
    assert f.max_len == 163840  # yarn: the factor is not applied again
    assert f.weight_bytes == 688586727753 and "total_size" in f.weight_source
    assert f.weight_dtype_bytes == 1.0  # fp8 checkpoint


def test_llama_and_qwen_facts() -> None:
    ll = facts("llama-3.1-70b")
    assert (ll.num_layers, ll.num_heads, ll.num_kv_heads, ll.head_dim) == (80, 64, 8, 128)
    assert ll.max_len == 131072 and not ll.is_moe and not ll.is_mla
    qw = facts("qwen3-30b-a3b")
    assert (qw.num_layers, qw.num_heads, qw.num_kv_heads, qw.num_experts, qw.moe_layers) == (48, 32, 4, 128, 48)
    assert qw.weight_source == "estimated from shapes"


def test_max_len_rope_factor_applies_only_to_plain_scaling() -> None:
    base = {"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 10}
    linear = parse_config({**base, "max_position_embeddings": 4096, "rope_scaling": {"type": "linear", "factor": 2.0}})
    yarn = parse_config({**base, "max_position_embeddings": 4096, "rope_scaling": {"rope_type": "yarn", "factor": 4.0}})
    smallest = parse_config({**base, "max_position_embeddings": 4096, "seq_length": 2048})
    assert (linear.max_len, yarn.max_len) == (8192, 4096)
    assert (smallest.max_len, smallest.max_len_key) == (2048, "seq_length")


def test_text_config_of_a_multimodal_model_is_read() -> None:
    f = parse_config(
        {
            "model_type": "vl",
            "text_config": {
                "num_hidden_layers": 4,
                "hidden_size": 256,
                "num_attention_heads": 8,
                "num_key_value_heads": 2,
                "vocab_size": 1000,
                "max_position_embeddings": 8192,
            },
        }
    )
    assert (f.num_layers, f.num_kv_heads, f.head_dim, f.max_len) == (4, 2, 32, 8192)


def test_partial_config_names_every_missing_field() -> None:
    with pytest.raises(VcfgError) as e:
        parse_config({"hidden_size": 64, "vocab_size": 10}, "m/config.json")
    assert e.value.message == (
        "m/config.json: missing num_hidden_layers, num_attention_heads, max_position_embeddings"
        " (or not a positive integer)"
    )
    with pytest.raises(VcfgError, match="missing num_hidden_layers, vocab_size "):
        parse_config(
            {
                "num_hidden_layers": 0,
                "hidden_size": 64,
                "num_attention_heads": 4,
                "vocab_size": "many",
                "max_position_embeddings": 128,
            }
        )
    with pytest.raises(VcfgError, match="cannot tell the head size"):
        parse_config(
            {
                "num_hidden_layers": 2,
                "hidden_size": 2,
                "num_attention_heads": 4,
                "vocab_size": 8,
                "max_position_embeddings": 128,
            }
        )


def test_unreadable_config(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(VcfgError, match="not valid JSON"):
        load_facts(model=str(tmp_path))
    with pytest.raises(VcfgError, match="cannot read"):
        load_facts(config_file=str(tmp_path / "absent.json"))
    with pytest.raises(VcfgError, match="not a local directory"):
        load_facts(model="deepseek-ai/DeepSeek-V3")


# ------------------------------------------------------------------ weights


def test_weights_estimated_from_shapes_deepseek_v32() -> None:
    f = facts("deepseek-v3.2")  # no index: estimated; fp8 linears (1 byte), bf16 embeddings
    assert f.weight_source == "estimated from shapes"
    embed = 129280 * 7168 * 2 * 2  # embed_tokens + lm_head, bf16
    attn = 7168 * 1536 + 1536 * 128 * (128 + 64) + 7168 * 512 + 7168 * 64 + 512 * 128 * (128 + 128) + 128 * 128 * 7168
    indexer = 1536 * 64 * 128 + 7168 * 128 + 7168 * 64
    dense_mlp = 3 * 3 * 7168 * 18432
    shared = 58 * 3 * 7168 * 2048
    router = 58 * 7168 * 256 * 2
    experts = 58 * 256 * 3 * 7168 * 2048
    split = memory.estimate_weight_split(f)
    assert split.experts == experts
    assert split.dense == embed + 61 * (attn + indexer) + dense_mlp + shared + router
    assert f.weight_bytes == embed + 61 * (attn + indexer) + dense_mlp + shared + router + experts


def test_weights_estimated_qwen3_moe() -> None:
    f = facts("qwen3-30b-a3b")
    embed = 151936 * 2048 * 2 * 2
    attn = 2048 * 128 * (32 * 2 + 4 * 2) * 2
    router = 2048 * 128 * 2
    experts = 128 * 3 * 2048 * 768 * 2
    assert f.weight_bytes == embed + 48 * (attn + router + experts)  # 30.5e9 parameters in bf16
    assert 30.4e9 < f.weight_bytes / 2 < 30.6e9


def test_weights_per_gpu() -> None:
    ll = facts("llama-3.1-70b")
    assert memory.weight_bytes_per_gpu(ll, tp=8, pp=1, dp=1) == 141107412992 / 8
    assert memory.weight_bytes_per_gpu(ll, tp=2, pp=2, dp=2) == 141107412992 / 4  # DP copies
    ds = facts("deepseek-v3")
    assert memory.weight_bytes_per_gpu(ds, tp=8, pp=1, dp=1) == 688586727753 / 8
    # DP8: attention and embeddings copied on each GPU, experts spread over all 8
    est = memory.estimate_weight_split(ds)
    share = est.experts / est.total
    per_gpu = 688586727753 * (1 - share) + 688586727753 * share / 8
    assert memory.weight_bytes_per_gpu(ds, tp=1, pp=1, dp=8) == pytest.approx(per_gpu)


# ------------------------------------------------------------------ KV cache


def test_kv_bytes_per_token() -> None:
    ll = facts("llama-3.1-70b")
    assert memory.kv_bytes_per_token(ll, tp=8, pp=1) == 2 * 80 * (8 // 8) * 128 * 2 == 40960
    assert memory.kv_bytes_per_token(ll, tp=2, pp=1) == 2 * 80 * (8 // 2) * 128 * 2
    assert memory.kv_bytes_per_token(ll, tp=8, pp=2) == 2 * 40 * 1 * 128 * 2
    assert memory.kv_bytes_per_token(ll, tp=8, pp=1, kv_cache_dtype="fp8") == 2 * 80 * 1 * 128 * 1
    qw = facts("qwen3-30b-a3b")  # 4 KV heads: replicated at TP 8, one per GPU
    assert memory.kv_bytes_per_token(qw, tp=8, pp=1) == 2 * 48 * 1 * 128 * 2 == 24576
    assert memory.kv_bytes_per_token(qw, tp=4, pp=1) == 24576
    ds = facts("deepseek-v3")  # MLA: one latent per token and layer, not split by TP
    assert memory.kv_bytes_per_token(ds, tp=8, pp=1) == 61 * (512 + 64) * 2 == 70272
    assert memory.kv_bytes_per_token(ds, tp=1, pp=1) == 70272
    assert memory.kv_bytes_per_token(ds, tp=8, pp=2) == 31 * 576 * 2  # the larger stage
    assert memory.kv_bytes_per_token(ds, tp=8, pp=1, kv_cache_dtype="fp8") == 61 * 576
    v32 = facts("deepseek-v3.2")  # plus the indexer's fp8 keys and float32 scale
    assert memory.kv_bytes_per_token(v32, tp=8, pp=1) == 61 * (576 * 2 + 128 + 4)
    assert memory.kv_bytes_per_token(v32, tp=8, pp=1, kv_cache_dtype="fp8") == 61 * (656 + 128 + 4)


def test_parse_size_and_bad_dtype() -> None:
    assert memory.parse_size("141GiB") == 141 * GIB
    assert memory.parse_size("80 GB") == 80 * 10**9
    with pytest.raises(VcfgError):
        memory.parse_size("lots")
    with pytest.raises(VcfgError, match="kv-cache-dtype"):
        memory.kv_dtype_bytes(facts("llama-3.1-70b"), "int3")


# ------------------------------------------------------------------ layouts


def test_llama_tp8_tokens_that_fit() -> None:
    p = plan(facts("llama-3.1-70b"), PlanRequest(gpus=8, max_model_len=131072))
    lay = p.find(tp=8)
    assert lay is not None and lay.feasible
    assert lay.kv_tokens_per_replica == int((BUDGET - 141107412992 / 8) // 40960) == 2791124
    assert lay.seqs_per_replica == 2791124 // 131072 == 21
    assert p.layouts[0] is lay  # best: inside one node, no pipeline, most sequences
    tp1 = p.find(tp=1, dp=8)
    assert tp1 is not None and not tp1.weights_fit  # 131.4 GiB of weights > 122.9 GiB budget


def test_deepseek_tp8_tokens_that_fit() -> None:
    p = plan(facts("deepseek-v3"), PlanRequest(gpus=8, max_model_len=10000))
    lay = p.find(tp=8)
    assert lay is not None and lay.feasible
    assert lay.kv_tokens_per_replica == int((BUDGET - 688586727753 / 8) // 70272) == 653027
    assert lay.seqs_per_replica == 65
    # MLA keeps the whole latent on every TP rank, so DP + EP holds far more sequences
    best = p.layouts[0]
    assert (best.tp, best.pp, best.dp, best.ep) == (1, 1, 8, True)
    assert best.total_seqs > 4 * lay.total_seqs


def test_qwen3_tp8_tokens_that_fit() -> None:
    f = facts("qwen3-30b-a3b")
    p = plan(f, PlanRequest(gpus=8))
    lay = p.find(tp=8)
    assert lay is not None and lay.feasible and p.max_model_len == 40960
    assert lay.kv_tokens_per_replica == int((BUDGET - f.weight_bytes / 8) // 24576)
    assert lay.seqs_per_replica == lay.kv_tokens_per_replica // 40960


def test_heads_not_divisible_by_tp() -> None:
    ll = facts("llama-3.1-70b")
    assert layout_problems(ll, tp=6, pp=1) == [
        "64 attention heads are not divisible by tp 6",
        "8 KV heads can be neither split nor replicated evenly over tp 6",
    ]
    assert layout_problems(ll, tp=16, pp=1) == []  # 8 KV heads replicated twice
    p = plan(ll, PlanRequest(gpus=6, max_model_len=8192))
    bad = p.find(tp=6)
    assert bad is not None and not bad.valid and bad not in p.feasible
    assert p.layouts[-1].problems  # invalid layouts are ranked last
    assert layout_problems(facts("deepseek-v3"), tp=1, pp=62) == ["pp 62 is more than the 61 layers"]


def test_max_model_len_above_limit_is_a_plan_problem() -> None:
    p = plan(facts("qwen3-30b-a3b"), PlanRequest(gpus=8, max_model_len=65536))
    assert p.problems and "above the model's limit 40960" in p.problems[0]
    assert p.feasible == []


def test_one_sequence_that_does_not_fit() -> None:
    # one 80 GiB GPU, Llama-70B at TP 1: the weights alone do not fit
    p = plan(facts("llama-3.1-70b"), PlanRequest(gpus=1, gpu_memory=80 * GIB))
    assert p.feasible == [] and not p.layouts[0].weights_fit
    # 2 x 141 GiB at 0.5 and TP 2: 65.7 GiB of weights, 2 x 80 x 4 x 128 x 2 bytes per token
    p2 = plan(facts("llama-3.1-70b"), PlanRequest(gpus=2, gpu_memory_utilization=0.5))
    lay = p2.find(tp=2)
    assert lay is not None
    tokens = int((141 * GIB * 0.5 - 4 * GIB - 141107412992 / 2) // (2 * 80 * 4 * 128 * 2))
    assert lay.kv_tokens_per_replica == tokens == 5188  # far below one 131072-token sequence
    assert lay.weights_fit and not lay.fits_one_sequence and not lay.feasible


def test_nodes_mark_tp_spanning_nodes() -> None:
    p = plan(facts("deepseek-v3"), PlanRequest(gpus=16, nodes=2, max_model_len=10000))
    lay = p.find(tp=16)
    assert lay is not None and any("spans nodes" in n for n in lay.notes)
    assert p.layouts.index(lay) > p.layouts.index(p.find(tp=8, pp=2))


# ------------------------------------------------------------------ the user's deployment


def test_seed_deployment_deepseek_v32_tp8() -> None:
    """The seed script: DeepSeek-V3.2, --tensor-parallel-size 8, --max-model-len 10000,
    --gpu-memory-utilization 0.9, on 8 GPUs of 141 GiB."""
    f = facts("deepseek-v3.2")
    p = plan(f, PlanRequest(gpus=8, gpu_memory=141 * GIB, max_model_len=10000, gpu_memory_utilization=0.9))
    assert p.problems == ()
    lay = p.find(tp=8)
    assert lay is not None and lay in p.feasible
    assert lay.flags() == ["--tensor-parallel-size 8"]
    per_token = 61 * (576 * 2 + 128 + 4)
    tokens = int((BUDGET - f.weight_bytes / 8) // per_token)
    assert lay.kv_tokens_per_replica == tokens
    assert lay.seqs_per_replica == tokens // 10000 >= 1  # one 10000-token sequence fits
    assert json.dumps(lay.flags())  # plain data
