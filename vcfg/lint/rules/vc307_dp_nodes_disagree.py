"""VC307 dp-nodes-disagree: the nodes of one data-parallel group launched with settings
that must be equal."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic, Span
from vcfg.lint.constraints import launch_span
from vcfg.lint.context import LaunchContext, RunContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _dp, _hosts
from vcfg.lint.rules._args import span

RULE = Rule(
    code="VC307",
    name="dp-nodes-disagree",
    summary="nodes of one data-parallel group with different DP size, address, RPC port, model, parallel sizes or release",
    severity="error",
    scope="run",
    why=(
        "The launches of a multi-node data-parallel group (a head node and `--headless` "
        "nodes, or one launch per `--node-rank`) build one group: each must name the same "
        "`--data-parallel-size`, the same `--data-parallel-address` and "
        "`--data-parallel-rpc-port` of the head (a node that leaves the address unset "
        "looks for the head on 127.0.0.1), the same model, tensor and pipeline parallel "
        "sizes, expert parallelism (its all2all backend and load balancer) and `--nnodes`, and one vLLM release (the tags of their "
        "images, when they run in containers). vLLM checks none of this across nodes: "
        "the nodes wait for each other until the start-up timeout, or hang in the first "
        "collective. vcfg compares the launches of one deployment (a script with a branch "
        "per node, or the files `[tool.vcfg.deployments]` groups) whose values it knows; a "
        "disaggregated deployment's prefill and decode groups are compared separately."
    ),
    when_vllm_fails="at start-up: the head waits for engines that never register (timeout), or the first collective hangs",
    example=(
        'if [ "$NODE_RANK" = 0 ]; then\n'
        "  vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-size-local 8 \\\n"
        "    --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --enable-expert-parallel\n"
        "else\n"
        "  vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \\\n"
        "    --data-parallel-address 10.0.0.2 --data-parallel-rpc-port 13345 --enable-expert-parallel --headless\n"
        "fi\n"
    ),
    use_instead=(
        'if [ "$NODE_RANK" = 0 ]; then\n'
        "  vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-size-local 8 \\\n"
        "    --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --enable-expert-parallel\n"
        "else\n"
        "  vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \\\n"
        "    --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --enable-expert-parallel --headless\n"
        "fi\n"
    ),
    sources=(
        "vllm@0.33.0:vllm/engine/arg_utils.py:2539",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2559",
        "vllm@0.33.0:vllm/config/parallel.py:161",
    ),
)


class _Setting:
    def __init__(self, value: Any, shown: str, at: Optional[Span]) -> None:
        self.value, self.shown, self.at = value, shown, at


def _model(lc: LaunchContext) -> Optional[_Setting]:
    m = lc.args.model
    if m is None or not m.known or not isinstance(m.value, str):
        return None
    return _Setting(m.value, f"the model `{m.value}`", span(lc, m.value_span or m.span))


def _opt(dest: str, unset: Optional[tuple[str, str]] = None) -> Any:
    """A reader of option ``dest``: its value as given, else the catalog default, else
    (``unset``: a config class and field) the default of the field vLLM fills it from."""

    def read(lc: LaunchContext) -> Optional[_Setting]:
        o = option(lc, dest)
        if not o.known:
            return None
        if o.ov is None:
            v = o.value
            if v is None and unset is not None:
                cls = lc.catalog.config(unset[0])
                f = cls.field(unset[1]) if cls is not None else None
                v = f.default if f is not None else None
            return _Setting(v, f"{o.name} {v} (unset)", None)
        return _Setting(o.value, f"`{o.name}` {o.value}", span(lc, o.ov.value_span or o.ov.span))

    return read


def _address_default(lc: LaunchContext) -> Any:
    # an unset address is --master-addr, else 127.0.0.1 (arg_utils.py:2539-2553, 0.33.0)
    value = option(lc, "master_addr").value
    return value if isinstance(value, str) and value else "127.0.0.1"


def _address(lc: LaunchContext) -> Optional[_Setting]:
    o = option(lc, "data_parallel_address")
    if not o.known:
        return None
    if o.ov is None:
        d = _address_default(lc)
        return _Setting(d, f"no `{o.name}` (so {d})", None)
    return _Setting(o.value, f"`{o.name}` {o.value}", span(lc, o.ov.value_span or o.ov.span))


def _release(lc: LaunchContext) -> Optional[_Setting]:
    """The vLLM release of the launch's image (`vcfg.launch.release`), when it names one."""
    from vcfg.launch.release import release_of

    rel = release_of(lc.inv)
    if rel.version is None or lc.inv.image is None:
        return None
    return _Setting(rel.version, f"the image {rel.image} (vLLM {rel.version})", span(lc, lc.inv.image.span))


#: what every node of one group must agree on
_SETTINGS = (
    ("the data-parallel size", _opt("data_parallel_size")),
    ("the head's address", _address),
    # an unset RPC port is ParallelConfig's default (29550: parallel.py:161, arg_utils.py:2559, 0.33.0)
    ("the head's RPC port", _opt("data_parallel_rpc_port", ("ParallelConfig", "data_parallel_rpc_port"))),
    ("the model", _model),
    ("tensor parallelism", _opt("tensor_parallel_size")),
    ("pipeline parallelism", _opt("pipeline_parallel_size")),
    ("expert parallelism", _opt("enable_expert_parallel")),
    ("the all2all backend", _opt("all2all_backend")),
    ("the expert-parallel load balancer", _opt("enable_eplb")),
    ("the node count", _opt("nnodes")),
    ("the vLLM release", _release),
)


def check(run: RunContext) -> Iterator[Diagnostic]:
    for group in _dp.groups(run):
        if len(group) < 2:
            continue
        for what, read in _SETTINGS:
            first: Optional[tuple[LaunchContext, _Setting]] = None
            for lc, _ in group:
                mine = read(lc)
                if mine is None:
                    continue
                if first is None:
                    first = (lc, mine)
                    continue
                ref_lc, ref = first
                if mine.value == ref.value:
                    continue
                yield RULE.diag(
                    mine.at or launch_span(lc),
                    f"{what} differs from the node at {_hosts.where(lc, ref_lc)}: {mine.shown} here, {ref.shown} there",
                    help="every node of one data-parallel group must use the same value",
                )
