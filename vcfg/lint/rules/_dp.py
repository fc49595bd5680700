"""A launch's data-parallel layout, as vLLM's engine arguments derive it: how many DP
ranks it runs on its node, which ones, and which load-balancing mode it is in.

Read from the options (catalog defaults where the user left one unset); any value vcfg
cannot know makes the view unknown (None).  The derivation follows 0.33.0
vllm/engine/arg_utils.py:2380-2537 (0.11.2 :1456-1550): an explicit
``--data-parallel-rank`` (or ``--data-parallel-external-lb``) runs one rank; else a
``--data-parallel-size-local`` runs that many from ``--data-parallel-start-rank`` (or the
rank ``--node-rank`` implies); else ``--nnodes`` > 1 infers both from the node rank;
else the launch runs every rank.
"""

from __future__ import annotations

from typing import Any, Optional

from vcfg.lint.context import LaunchContext
from vcfg.lint.options import UNKNOWN, option
from vcfg.records import record


def _int(x: Any) -> Any:
    if x is None or x is UNKNOWN:
        return x
    return x if isinstance(x, int) and not isinstance(x, bool) else UNKNOWN


@record(frozen=True)
class DpView:
    size: int
    local: Optional[int]  # --data-parallel-size-local as given (None: unset)
    rank: Optional[int]  # --data-parallel-rank as given
    start: Optional[int]  # --data-parallel-start-rank as given
    nnodes: int
    node_rank: int
    tp: int
    pp: int
    pcp: int
    headless: bool
    external: bool  # --data-parallel-external-lb
    hybrid: bool  # --data-parallel-hybrid-lb
    backend: Any  # "mp", "ray", ... (UNKNOWN allowed)

    @property
    def within_dp(self) -> int:
        return self.tp * self.pp * self.pcp

    @property
    def external_lb(self) -> bool:
        return self.external or self.rank is not None

    def local_ranks(self) -> Optional[range]:
        """The DP ranks this launch runs on its node; None when vLLM would refuse the
        combination (other rules say why) or it cannot be derived."""
        if self.size < 1:
            return None
        inferred = 0
        local = self.local
        if self.nnodes > 1:
            world = self.size * self.within_dp
            if world % self.nnodes or not 0 <= self.node_rank < self.nnodes:
                return None
            per_node = world // self.nnodes
            inferred = self.node_rank * per_node // self.within_dp
            if local is None and not (self.size > 1 and self.external):
                local = max(per_node // self.within_dp, 1)
        if self.external_lb:
            rank = self.rank if self.rank is not None else (inferred if self.nnodes > 1 else None)
            return range(rank, rank + 1) if rank is not None else None
        if local is not None:
            first = self.start if self.start is not None else inferred
            return range(first, first + local)
        if self.backend != "mp":
            return None  # Ray places the ranks itself
        return range(0, self.size)

    @property
    def multi_node(self) -> bool:
        """Part of a data-parallel group that spans machines."""
        if self.size <= 1:
            return False
        r = self.local_ranks()
        return self.headless or self.nnodes > 1 or r is None or len(r) < self.size


def view(lc: LaunchContext) -> Optional[DpView]:
    """The launch's DP view, None when any input is unknown (or not a serve launch);
    derived once per launch (several rules and every run's grouping ask)."""
    if "dp.view" not in lc.memo:
        lc.memo["dp.view"] = _view(lc)
    return lc.memo["dp.view"]


def _view(lc: LaunchContext) -> Optional[DpView]:
    if lc.inv.kind != "serve" or lc.args is None:
        return None
    vals = dict(
        size=_int(option(lc, "data_parallel_size", absent=1).value),
        local=_int(option(lc, "data_parallel_size_local", absent=None).value),
        rank=_int(option(lc, "data_parallel_rank", absent=None).value),
        start=_int(option(lc, "data_parallel_start_rank", absent=None).value),
        nnodes=_int(option(lc, "nnodes", absent=1).value),
        node_rank=_int(option(lc, "node_rank", absent=0).value),
        tp=_int(option(lc, "tensor_parallel_size", absent=1).value),
        pp=_int(option(lc, "pipeline_parallel_size", absent=1).value),
        pcp=_int(option(lc, "prefill_context_parallel_size", absent=1).value),
        headless=option(lc, "headless", absent=False).value,
        external=option(lc, "data_parallel_external_lb", absent=False).value,
        hybrid=option(lc, "data_parallel_hybrid_lb", absent=False).value,
        backend=option(lc, "data_parallel_backend", absent="mp").value,
    )
    if any(v is UNKNOWN for k, v in vals.items() if k != "backend"):
        return None
    for k in ("size", "nnodes", "tp", "pp", "pcp"):
        if vals[k] is None or vals[k] < 1:
            return None
    if vals["node_rank"] is None:
        vals["node_rank"] = 0
    for k in ("headless", "external", "hybrid"):
        vals[k] = bool(vals[k])
    return DpView(**vals)


def groups(run: Any) -> list[list[tuple[LaunchContext, DpView]]]:
    """The multi-node data-parallel groups of a deployment: its launches that run part of
    a data-parallel group spanning machines, split by prefill/decode side (a
    disaggregated deployment runs one DP group per side), in deployment order."""
    from vcfg.lint.rules._hosts import cached, serves
    from vcfg.lint.rules._kv import side_of

    def build() -> list[list[tuple[LaunchContext, DpView]]]:
        out: dict[Any, list[tuple[LaunchContext, DpView]]] = {}
        for lc in serves(run):
            v = view(lc)
            if v is None or not v.multi_node:
                continue
            side = side_of(lc)
            key = (_block(lc), side[0], tuple(sorted(side[1]))) if side is not None else (_block(lc),)
            out.setdefault(key, []).append((lc, v))
        return list(out.values())

    return cached(run, "dp_groups", build)


def _block(lc: LaunchContext) -> int:
    """Which fenced code block of a Markdown file holds the launch (each block of a
    document is an example of its own); 0 for other files."""
    from vcfg.lint.rules._hosts import fenced_block

    return fenced_block(lc)
