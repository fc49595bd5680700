"""Facts about a model, read from a Hugging Face config.json (and the safetensors index).

Only local files are read.  Field names follow the Hugging Face configs; where vLLM
derives a value itself the vLLM 0.33.0 location is cited.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Optional

from vcfg.errors import VcfgError
from vcfg.records import field, record

# Keys vLLM looks at for the model's length limit, smallest wins
# (vllm/transformers_utils/model_arch_config_convertor.py:374-396, 0.33.0).
MAX_LEN_KEYS = (
    "max_position_embeddings",
    "n_positions",
    "max_seq_len",
    "seq_length",
    "model_max_length",
    "max_target_positions",
    "max_sequence_length",
    "max_seq_length",
    "seq_len",
)
# RoPE types whose factor is NOT applied on top of the length (config/model.py:2613-2620).
ROPE_TYPES_ALREADY_SCALED = ("su", "longrope", "llama3", "yarn", "deepseek_yarn", "deepseek_llama_scaling")

DTYPE_BYTES = {
    "float32": 4,
    "fp32": 4,
    "float": 4,
    "bfloat16": 2,
    "bf16": 2,
    "float16": 2,
    "fp16": 2,
    "half": 2,
    "fp8": 1,
    "fp8_e4m3": 1,
    "fp8_e5m2": 1,
    "float8_e4m3fn": 1,
    "int8": 1,
}


@record(frozen=True)
class ModelFacts:
    source: str  # the file read
    model_type: str
    architectures: tuple[str, ...]
    num_layers: int
    hidden_size: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    vocab_size: int
    max_len: int  # the length vLLM derives (before tokenizer_config.json)
    max_len_key: str
    intermediate_size: Optional[int] = None
    tie_word_embeddings: bool = False
    dtype: str = "bfloat16"
    quant_method: Optional[str] = None
    weight_dtype_bytes: float = 2.0  # of the large linear weights on disk
    rope_scaling: Optional[dict[str, Any]] = None
    sliding_window: Optional[int] = None
    layer_types: tuple[str, ...] = ()
    # MLA (DeepSeek-V2/V3 style attention)
    kv_lora_rank: Optional[int] = None
    qk_rope_head_dim: Optional[int] = None
    qk_nope_head_dim: Optional[int] = None
    v_head_dim: Optional[int] = None
    q_lora_rank: Optional[int] = None
    # sparse-attention indexer (DeepSeek-V3.2)
    index_head_dim: Optional[int] = None
    index_n_heads: Optional[int] = None
    # MoE
    num_experts: int = 0
    experts_per_token: int = 0
    num_shared_experts: int = 0
    moe_intermediate_size: Optional[int] = None
    moe_layers: int = 0  # how many of the layers have a routed MoE block
    mtp_layers: int = 0  # extra next-token-prediction layers kept in the checkpoint
    # weights
    weight_bytes: int = 0
    weight_source: str = "estimated from shapes"
    notes: tuple[str, ...] = field(default=())

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank is not None

    @property
    def is_moe(self) -> bool:
        return self.num_experts > 0

    @property
    def has_indexer(self) -> bool:
        return self.index_head_dim is not None


def _int(cfg: dict[str, Any], *keys: str) -> Optional[int]:
    for k in keys:
        v = cfg.get(k)
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, float)) and v == int(v):
            return int(v)
    return None


def _text_config(cfg: dict[str, Any]) -> dict[str, Any]:
    """Multimodal configs nest the language model under text_config (or llm_config)."""
    for key in ("text_config", "llm_config", "language_config"):
        sub = cfg.get(key)
        if isinstance(sub, dict) and ("num_hidden_layers" in sub or "hidden_size" in sub):
            merged = {k: v for k, v in cfg.items() if k != key}
            merged.update(sub)
            return merged
    return cfg


def _max_len(cfg: dict[str, Any]) -> tuple[Optional[int], str]:
    best: Optional[int] = None
    key = ""
    for k in MAX_LEN_KEYS:
        v = _int(cfg, k)
        if v is not None and (best is None or v < best):
            best, key = v, k
    if best is None:
        return None, ""
    rope = cfg.get("rope_scaling") or cfg.get("rope_parameters")
    if isinstance(rope, dict):
        rtype = rope.get("rope_type", rope.get("type", "default"))
        factor = rope.get("factor")
        if rtype not in ROPE_TYPES_ALREADY_SCALED and rtype != "default" and isinstance(factor, (int, float)):
            best = int(best * factor)
            key = f"{key} x rope_scaling.factor"
    return best, key


def _weight_dtype(cfg: dict[str, Any]) -> tuple[str, Optional[str], float]:
    dtype = str(cfg.get("torch_dtype") or cfg.get("dtype") or "bfloat16")
    qc = cfg.get("quantization_config")
    if isinstance(qc, dict):
        method = str(qc.get("quant_method", "unknown"))
        bits = _int(qc, "bits", "weight_bits")
        if method == "fp8" or "fp8" in str(qc.get("fmt", "")):
            return dtype, method, 1.0
        if bits:
            return dtype, method, bits / 8
        return dtype, method, float(DTYPE_BYTES.get(dtype, 2))
    return dtype, None, float(DTYPE_BYTES.get(dtype, 2))


def parse_config(cfg: Any, source: str = "config.json") -> ModelFacts:
    """Facts from a parsed config.json; VcfgError naming every missing field."""
    if not isinstance(cfg, dict):
        raise VcfgError(f"{source}: expected a JSON object, got {type(cfg).__name__}")
    cfg = _text_config(cfg)
    layers = _int(cfg, "num_hidden_layers", "n_layer", "num_layers")
    hidden = _int(cfg, "hidden_size", "n_embd", "d_model")
    heads = _int(cfg, "num_attention_heads", "n_head")
    vocab = _int(cfg, "vocab_size")
    max_len, max_len_key = _max_len(cfg)
    missing = [
        name
        for name, value in (
            ("num_hidden_layers", layers),
            ("hidden_size", hidden),
            ("num_attention_heads", heads),
            ("vocab_size", vocab),
            ("max_position_embeddings", max_len),
        )
        if value is None or value <= 0
    ]
    if missing:
        raise VcfgError(
            f"{source}: missing {', '.join(missing)} (or not a positive integer)",
            hint="vcfg plan needs a Hugging Face config.json with these fields; it never downloads one",
        )
    assert layers and hidden and heads and vocab and max_len
    mla = _int(cfg, "kv_lora_rank")
    kv_heads = _int(cfg, "num_key_value_heads", "num_kv_heads", "n_head_kv") or heads
    head_dim = _int(cfg, "head_dim") or hidden // heads
    if mla is not None:
        # vLLM counts MLA as one latent "head" of kv_lora_rank + qk_rope_head_dim
        # (model_arch_config_convertor.py:91-98; config/model.py:1669-1671).
        rope_dim = _int(cfg, "qk_rope_head_dim")
        if rope_dim is None:
            raise VcfgError(f"{source}: MLA config (kv_lora_rank) without qk_rope_head_dim")
        head_dim = mla + rope_dim
    if head_dim <= 0:
        raise VcfgError(f"{source}: cannot tell the head size (head_dim, or hidden_size / num_attention_heads)")
    dtype, quant, wbytes = _weight_dtype(cfg)
    experts = _int(cfg, "n_routed_experts", "num_experts", "num_local_experts") or 0
    per_tok = _int(cfg, "num_experts_per_tok", "moe_topk", "num_experts_per_token") or 0
    shared = _int(cfg, "n_shared_experts", "num_shared_experts") or 0
    moe_layers = 0
    if experts:
        if per_tok == 0:
            raise VcfgError(f"{source}: MoE config with {experts} experts but no num_experts_per_tok")
        first_dense = _int(cfg, "first_k_dense_replace") or 0
        freq = _int(cfg, "moe_layer_freq", "decoder_sparse_step") or 1
        dense_only = set(cfg.get("mlp_only_layers") or [])
        moe_layers = sum(1 for i in range(layers) if i >= first_dense and i % freq == 0 and i not in dense_only)
    window = _int(cfg, "sliding_window") if cfg.get("use_sliding_window", True) else None
    rope = cfg.get("rope_scaling") or cfg.get("rope_parameters")
    facts = ModelFacts(
        source=source,
        model_type=str(cfg.get("model_type", "unknown")),
        architectures=tuple(str(a) for a in cfg.get("architectures") or ()),
        num_layers=layers,
        hidden_size=hidden,
        num_heads=heads,
        num_kv_heads=kv_heads,
        head_dim=head_dim,
        vocab_size=vocab,
        max_len=max_len,
        max_len_key=max_len_key,
        intermediate_size=_int(cfg, "intermediate_size", "ffn_hidden_size"),
        tie_word_embeddings=bool(cfg.get("tie_word_embeddings", False)),
        dtype=dtype,
        quant_method=quant,
        weight_dtype_bytes=wbytes,
        rope_scaling=rope if isinstance(rope, dict) else None,
        sliding_window=window,
        layer_types=tuple(str(t) for t in cfg.get("layer_types") or ()),
        kv_lora_rank=mla,
        qk_rope_head_dim=_int(cfg, "qk_rope_head_dim") if mla is not None else None,
        qk_nope_head_dim=_int(cfg, "qk_nope_head_dim") if mla is not None else None,
        v_head_dim=_int(cfg, "v_head_dim") if mla is not None else None,
        q_lora_rank=_int(cfg, "q_lora_rank") if mla is not None else None,
        index_head_dim=_int(cfg, "index_head_dim"),
        index_n_heads=_int(cfg, "index_n_heads"),
        num_experts=experts,
        experts_per_token=per_tok,
        num_shared_experts=shared,
        moe_intermediate_size=_int(cfg, "moe_intermediate_size"),
        moe_layers=moe_layers,
        mtp_layers=_int(cfg, "num_nextn_predict_layers") or 0,
    )
    est = estimate_weight_split(facts)
    return _replace(facts, weight_bytes=int(math.ceil(est.total)))


@record(frozen=True)
class WeightSplit:
    """Weight bytes split into the part expert parallelism shards and the rest."""

    dense: float
    experts: float

    @property
    def total(self) -> float:
        return self.dense + self.experts


def estimate_weight_split(f: ModelFacts) -> WeightSplit:
    """Bytes of the weights vLLM loads, estimated from the shapes in config.json.

    Linear layers at the checkpoint's weight width (1 byte for fp8 checkpoints),
    embeddings and the router at the model dtype; norms, biases and quantisation scales
    are left out (well under 1%).  Extra next-token-prediction layers are not loaded
    without speculative decoding, so they are not counted.
    """
    h, w = f.hidden_size, f.weight_dtype_bytes
    act = DTYPE_BYTES.get(f.dtype, 2)
    embed = f.vocab_size * h * act * (1 if f.tie_word_embeddings else 2)
    if f.is_mla:
        nope, rope = f.qk_nope_head_dim or 0, f.qk_rope_head_dim or 0
        v = f.v_head_dim or nope
        q_dim = f.num_heads * (nope + rope)
        q = h * f.q_lora_rank + f.q_lora_rank * q_dim if f.q_lora_rank else h * q_dim
        attn = q + h * (f.kv_lora_rank or 0) + h * rope
        attn += (f.kv_lora_rank or 0) * f.num_heads * (nope + v) + f.num_heads * v * h
        if f.has_indexer and f.index_n_heads:
            idx = f.index_head_dim or 0
            attn += (f.q_lora_rank or h) * f.index_n_heads * idx + h * idx + h * f.index_n_heads
    else:
        attn = h * f.head_dim * (f.num_heads * 2 + f.num_kv_heads * 2)
    inter = f.intermediate_size or 4 * h
    moe_inter = f.moe_intermediate_size or inter
    dense_layers = f.num_layers - f.moe_layers
    dense = embed + w * (f.num_layers * attn + dense_layers * 3 * h * inter)
    experts = 0.0
    if f.is_moe:
        dense += f.moe_layers * (w * f.num_shared_experts * 3 * h * moe_inter + act * h * f.num_experts)
        experts = w * f.moe_layers * f.num_experts * 3 * h * moe_inter
    return WeightSplit(dense=float(dense), experts=float(experts))


def _replace(facts: ModelFacts, **kw: Any) -> ModelFacts:
    from vcfg.records import replace

    return replace(facts, **kw)


def _read_json(path: Path) -> Any:
    try:
        from vcfg.fileio import MAX_BYTES, read_regular

        data = read_regular(str(path))
        if len(data) > MAX_BYTES:
            raise VcfgError(f"{path}: larger than {MAX_BYTES >> 20} MiB, not read")
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise VcfgError(f"{path}: not UTF-8 text") from None
    except OSError as e:
        raise VcfgError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        from vcfg.bounded import json_loads

        return json_loads(text)
    except RecursionError:
        raise VcfgError(f"{path}: JSON nested too deeply") from None
    except json.JSONDecodeError as e:
        raise VcfgError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except ValueError as e:  # a number of more than 100 digits
        raise VcfgError(f"{path}: {e}") from None


def load_facts(model: Optional[str] = None, config_file: Optional[str] = None) -> ModelFacts:
    """Facts of a local model directory or of one config.json file; never downloads."""
    if bool(model) == bool(config_file):
        raise VcfgError("give exactly one of --model DIR and --model-config FILE")
    if model:
        d = Path(model)
        if not d.is_dir():
            raise VcfgError(
                f"{model}: not a local directory",
                hint="vcfg never downloads a model; pass the config.json with --model-config FILE",
            )
        cfg_path = d / "config.json"
        index_path: Optional[Path] = d / "model.safetensors.index.json"
    else:
        cfg_path = Path(config_file or "")
        index_path = cfg_path.parent / "model.safetensors.index.json"
    facts = parse_config(_read_json(cfg_path), str(cfg_path))
    if index_path is not None and index_path.is_file():
        total = _index_total_size(index_path)
        if total:
            return _replace(facts, weight_bytes=total, weight_source=f"{index_path.name} metadata.total_size")
    return facts


def _index_total_size(path: Path) -> Optional[int]:
    doc = _read_json(path)
    meta = doc.get("metadata") if isinstance(doc, dict) else None
    total = meta.get("total_size") if isinstance(meta, dict) else None
    if isinstance(total, (int, float)) and not isinstance(total, bool) and total > 0:
        return int(total)
    return None
