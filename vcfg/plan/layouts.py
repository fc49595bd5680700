"""Enumerate (tp, pp, dp, ep) layouts for N GPUs, check them as vLLM would, rank them.

The ranking heuristic (docs/plan.md, "Ranking"):
 1. layouts that work (weights fit and one max_model_len sequence fits) first;
 2. tensor parallel groups inside one node before groups that span nodes;
 3. fewer pipeline stages (a pipeline adds bubbles and only pays when memory needs it);
 4. more sequences of max_model_len held at once, over all DP replicas (KV capacity);
 5. MoE: expert parallelism when there is more than one DP replica, plain TP-sharded
    experts otherwise; then larger TP (lower latency per token).
It ranks by memory capacity, not by measured speed.
"""

from __future__ import annotations

from typing import Optional

from vcfg.plan import memory
from vcfg.plan.model_facts import ModelFacts
from vcfg.records import field, record


@record(frozen=True)
class Layout:
    tp: int
    pp: int
    dp: int
    ep: bool
    problems: tuple[str, ...] = ()  # vLLM would refuse to start
    notes: tuple[str, ...] = ()  # works, with a caveat
    weights_per_gpu: float = 0.0
    kv_bytes_per_token: int = 0
    kv_budget_per_gpu: float = 0.0
    kv_tokens_per_replica: int = 0
    seqs_per_replica: int = 0

    @property
    def world_size(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def weights_fit(self) -> bool:
        return self.kv_budget_per_gpu > 0

    @property
    def fits_one_sequence(self) -> bool:
        return self.seqs_per_replica >= 1

    @property
    def feasible(self) -> bool:
        return self.valid and self.weights_fit and self.fits_one_sequence

    @property
    def total_seqs(self) -> int:
        return self.seqs_per_replica * self.dp

    def flags(self) -> list[str]:
        out = [f"--tensor-parallel-size {self.tp}"]
        if self.pp > 1:
            out.append(f"--pipeline-parallel-size {self.pp}")
        if self.dp > 1:
            out.append(f"--data-parallel-size {self.dp}")
        if self.ep:
            out.append("--enable-expert-parallel")
        return out


@record(frozen=True)
class PlanRequest:
    gpus: int
    gpu_memory: int = 141 * memory.GIB
    nodes: int = 1
    max_model_len: Optional[int] = None  # None: the model's limit
    kv_cache_dtype: str = "auto"
    gpu_memory_utilization: float = 0.9
    reserve: int = memory.DEFAULT_RESERVE_BYTES


@record(frozen=True)
class Plan:
    facts: ModelFacts
    request: PlanRequest
    max_model_len: int
    layouts: tuple[Layout, ...]  # ranked: best first, then the rest, then invalid ones
    problems: tuple[str, ...] = ()  # apply to every layout
    notes: tuple[str, ...] = field(default=())

    @property
    def feasible(self) -> list[Layout]:
        return [lay for lay in self.layouts if lay.feasible] if not self.problems else []

    def find(self, tp: int, pp: int = 1, dp: int = 1, ep: bool = False) -> Optional[Layout]:
        for lay in self.layouts:
            if (lay.tp, lay.pp, lay.dp, lay.ep) == (tp, pp, dp, ep):
                return lay
        return None


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def layout_problems(f: ModelFacts, tp: int, pp: int) -> list[str]:
    """What vLLM would refuse for this TP/PP, from the model's shapes alone."""
    out = []
    if f.num_heads % tp:
        # vllm/config/model.py:1557-1564 (0.33.0)
        out.append(f"{f.num_heads} attention heads are not divisible by tp {tp}")
    if not f.is_mla:
        kv = f.num_kv_heads
        # QKVParallelLinear shards KV heads, or replicates them when tp >= kv heads
        # (vllm/model_executor/layers/linear.py:1065-1071, 0.33.0).
        if (kv >= tp and kv % tp) or (kv < tp and tp % kv):
            out.append(f"{kv} KV heads can be neither split nor replicated evenly over tp {tp}")
    if pp > f.num_layers:
        out.append(f"pp {pp} is more than the {f.num_layers} layers")
    return out


def _layout(f: ModelFacts, req: PlanRequest, max_len: int, tp: int, pp: int, dp: int, ep: bool) -> Layout:
    problems = layout_problems(f, tp, pp)
    notes = []
    per_node = req.gpus // req.nodes if req.nodes and req.gpus % req.nodes == 0 else req.gpus
    if tp > per_node:
        notes.append(f"tp {tp} spans nodes ({per_node} GPUs per node): slow all-reduce")
    if ep and f.num_experts % (tp * dp):
        notes.append(f"{f.num_experts} experts do not split evenly over {tp * dp} ranks")
    if f.is_moe and not ep and f.moe_intermediate_size and f.moe_intermediate_size % (tp * dp):
        # floor division, not a check (fused_moe/config.py:1353, 0.33.0): a kernel may still refuse
        notes.append(f"moe_intermediate_size {f.moe_intermediate_size} does not split evenly over {tp * dp} ranks")
    weights = memory.weight_bytes_per_gpu(f, tp, pp, dp)
    per_token = memory.kv_bytes_per_token(f, tp, pp, req.kv_cache_dtype)
    budget = memory.kv_budget_bytes(req.gpu_memory, req.gpu_memory_utilization, weights, req.reserve)
    tokens = int(budget // per_token) if budget > 0 else 0
    return Layout(
        tp=tp,
        pp=pp,
        dp=dp,
        ep=ep,
        problems=tuple(problems),
        notes=tuple(notes),
        weights_per_gpu=weights,
        kv_bytes_per_token=per_token,
        kv_budget_per_gpu=budget,
        kv_tokens_per_replica=tokens,
        seqs_per_replica=tokens // max_len,
    )


def _rank_key(lay: Layout, per_node: int) -> tuple:
    prefer_ep = lay.dp > 1
    return (
        not lay.valid,
        not lay.feasible,
        lay.tp > per_node,
        lay.pp,
        -lay.total_seqs,
        lay.ep != prefer_ep,
        -lay.tp,
    )


def plan(f: ModelFacts, req: PlanRequest) -> Plan:
    from vcfg.errors import VcfgError

    if req.gpus < 1:
        raise VcfgError(f"--gpus must be at least 1, got {req.gpus}")
    if req.nodes < 1 or req.gpus % req.nodes:
        raise VcfgError(f"{req.gpus} GPUs cannot be spread evenly over {req.nodes} nodes")
    if not 0 < req.gpu_memory_utilization <= 1:
        # vllm/config/cache.py:215 (0.33.0)
        raise VcfgError(f"--gpu-memory-utilization must be in (0, 1], got {req.gpu_memory_utilization}")
    memory.kv_dtype_bytes(f, req.kv_cache_dtype)  # unknown dtype: a clear error
    max_len = req.max_model_len or f.max_len
    problems, notes = [], []
    if max_len > f.max_len:
        # vllm/config/model.py:2654-2683 (0.33.0)
        problems.append(
            f"max_model_len {max_len} is above the model's limit {f.max_len} ({f.max_len_key}); "
            "vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"
        )
    if f.sliding_window or any(t != "full_attention" for t in f.layer_types):
        notes.append("sliding-window or hybrid layers counted as full attention: KV figures are upper bounds")
    if f.mtp_layers and "total_size" in f.weight_source:
        notes.append(
            f"the checkpoint size includes {f.mtp_layers} MTP layer(s) vLLM loads only for speculative decoding"
        )
    if f.weight_source.startswith("estimated"):
        notes.append("weight size estimated from the shapes in config.json (no model.safetensors.index.json)")
    layouts: list[Layout] = []
    for tp in divisors(req.gpus):
        for pp in divisors(req.gpus // tp):
            dp = req.gpus // (tp * pp)
            eps = [False, True] if f.is_moe and tp * dp > 1 else [False]
            layouts.extend(_layout(f, req, max_len, tp, pp, dp, ep) for ep in eps)
    per_node = req.gpus // req.nodes
    layouts.sort(key=lambda lay: _rank_key(lay, per_node))
    return Plan(f, req, max_len, tuple(layouts), tuple(problems), tuple(notes))
