"""Per-node launch commands of a planned layout (`vcfg plan --nodes N --gpus-per-node G`).

The commands form one bash script with a branch per node (``NODE_RANK`` picks it), so
the whole deployment is one file that ``vcfg lint`` judges as one (its cross-node rules
see every node).  A layout whose replica fits in one node runs data parallel with a
head node and ``--headless`` nodes (``--data-parallel-size-local`` ranks each, start
ranks 0, L, 2L, ...); a replica larger than a node uses ``--nnodes``/``--node-rank``
(vLLM 0.27.1+ derives every node's ranks).  With ``--pd`` the first half of the nodes
prefills and the second half decodes, each half its own data-parallel group with its
own head, NixlConnector between them and a proxy on the first prefill node.
"""

from __future__ import annotations

import ipaddress
import shlex
from typing import Optional

from vcfg.errors import VcfgError
from vcfg.plan.layouts import Layout, Plan
from vcfg.records import record, replace

RPC_PORT = 13345
PREFILL_PORT, DECODE_PORT, PROXY_PORT, SERVE_PORT = 8100, 8200, 8000, 8000


@record(frozen=True)
class NodeLaunch:
    node: int
    role: str  # "head", "worker", "prefill head", ...
    address: str
    commands: tuple[str, ...]


def node_addresses(head: str, n: int) -> list[str]:
    """``head`` and the next ``n - 1`` addresses (placeholders the user replaces)."""
    try:
        ip = ipaddress.ip_address(head)
    except ValueError as e:
        raise VcfgError(f"--head-address {head!r} is not an IP address") from e
    return [str(ip + i) for i in range(n)]


def _join(words: list[str]) -> str:
    return " ".join(shlex.quote(w) if w and not w.startswith("$") else w for w in words)


def _worker(role: str) -> str:
    return role.replace("head", "worker") if "head" in role else "worker"


def _group(
    lay: Layout, nodes: list[str], gpus_per_node: int, model: str, extra: list[str], port: int, role: str, first: int
) -> list[NodeLaunch]:
    """The launches of one data-parallel group over ``nodes`` (addresses)."""
    n = len(nodes)
    replica = lay.tp * lay.pp
    base = ["vllm", "serve", model, "--tensor-parallel-size", str(lay.tp)]
    if lay.pp > 1:
        base += ["--pipeline-parallel-size", str(lay.pp)]
    if lay.ep:
        base.append("--enable-expert-parallel")
    base += extra
    out = []
    if n == 1:
        words = base + (["--data-parallel-size", str(lay.dp)] if lay.dp > 1 else []) + ["--port", str(port)]
        return [NodeLaunch(first, role, nodes[0], (_join(words),))]
    if replica <= gpus_per_node:
        local = gpus_per_node // replica
        for i, addr in enumerate(nodes):
            words = base + [
                "--data-parallel-size",
                str(lay.dp),
                "--data-parallel-size-local",
                str(local),
                "--data-parallel-address",
                nodes[0],
                "--data-parallel-rpc-port",
                str(RPC_PORT),
            ]
            if i == 0:
                words += ["--port", str(port)]
            else:
                words += ["--data-parallel-start-rank", str(i * local), "--headless"]
            out.append(NodeLaunch(first + i, role if i == 0 else _worker(role), addr, (_join(words),)))
        return out
    # a replica spans nodes: vLLM splits the world over --nnodes (0.27.1+)
    for i, addr in enumerate(nodes):
        words = base + (["--data-parallel-size", str(lay.dp)] if lay.dp > 1 else [])
        words += ["--nnodes", str(n), "--node-rank", str(i), "--master-addr", nodes[0]]
        words += ["--port", str(port)] if i == 0 else ["--headless"]
        out.append(NodeLaunch(first + i, role if i == 0 else _worker(role), addr, (_join(words),)))
    return out


def _fits(lay: Layout, nodes: int, gpus_per_node: int) -> bool:
    replica = lay.tp * lay.pp
    if replica <= gpus_per_node:
        return gpus_per_node % replica == 0 and lay.dp == nodes * (gpus_per_node // replica)
    return replica % gpus_per_node == 0 and (lay.dp * replica) % nodes == 0


def best_layout(p: Plan, nodes: int, gpus_per_node: int) -> Optional[Layout]:
    """The best-ranked feasible layout that splits evenly over the nodes."""
    return next((lay for lay in p.feasible if _fits(lay, nodes, gpus_per_node)), None)


def _flags(p: Plan) -> list[str]:
    out = ["--max-model-len", str(p.max_model_len), "--gpu-memory-utilization", str(p.request.gpu_memory_utilization)]
    if p.request.kv_cache_dtype != "auto":
        out += ["--kv-cache-dtype", p.request.kv_cache_dtype]
    return out


def launches(p: Plan, nodes: int, gpus_per_node: int, model: str, head: str) -> list[NodeLaunch]:
    lay = best_layout(p, nodes, gpus_per_node)
    if lay is None:
        return []
    return _group(
        lay,
        node_addresses(head, nodes),
        gpus_per_node,
        model,
        _flags(p),
        SERVE_PORT,
        "head" if nodes > 1 else "server",
        0,
    )


def _kv(role: str) -> list[str]:
    return ["--kv-transfer-config", f'{{"kv_connector":"NixlConnector","kv_role":"{role}"}}']


def pd_launches(prefill: Plan, decode: Plan, nodes: int, gpus_per_node: int, model: str, head: str) -> list[NodeLaunch]:
    """Prefill on the first half of the nodes, decode on the rest, a proxy in front."""
    np_ = nodes // 2
    addrs = node_addresses(head, nodes)
    lp, ld = best_layout(prefill, np_, gpus_per_node), best_layout(decode, nodes - np_, gpus_per_node)
    if lp is None or ld is None:
        return []
    out = _group(
        lp, addrs[:np_], gpus_per_node, model, _flags(prefill) + _kv("kv_producer"), PREFILL_PORT, "prefill head", 0
    )
    out += _group(
        ld, addrs[np_:], gpus_per_node, model, _flags(decode) + _kv("kv_consumer"), DECODE_PORT, "decode head", np_
    )
    # NIXL's handshake side channel must be reachable from the other side: each node
    # announces its own address (it defaults to localhost)
    out = [
        NodeLaunch(x.node, x.role, x.address, tuple(f"VLLM_NIXL_SIDE_CHANNEL_HOST={x.address} {c}" for c in x.commands))
        for x in out
    ]
    proxy = _join(
        [
            "python3",
            "toy_proxy_server.py",
            "--port",
            str(PROXY_PORT),
            "--prefiller-hosts",
            addrs[0],
            "--prefiller-ports",
            str(PREFILL_PORT),
            "--decoder-hosts",
            addrs[np_],
            "--decoder-ports",
            str(DECODE_PORT),
        ]
    )
    head0 = out[0]
    out[0] = NodeLaunch(head0.node, head0.role, head0.address, (head0.commands[0] + " &", proxy))
    return out


def script(items: list[NodeLaunch]) -> str:
    """One bash script, a branch per node."""
    lines = [
        "#!/bin/bash",
        "# one branch per node: run it as NODE_RANK=<i> bash this-script.sh on node <i>;",
        "# the addresses are placeholders for your nodes' own",
        'case "$NODE_RANK" in',
    ]
    for x in items:
        lines.append(f"  {x.node})  # {x.role}, {x.address}")
        for c in x.commands:
            lines.append(f"    {c}")
        lines.append("    ;;")
    lines += ['  *) echo "NODE_RANK must be 0..%d" >&2; exit 2 ;;' % (len(items) - 1), "esac"]
    return "\n".join(lines) + "\n"


@record(frozen=True)
class PerNodePlan:
    nodes: int
    gpus_per_node: int
    pd: bool
    launches: tuple[NodeLaunch, ...]
    why_none: str = ""

    def text(self) -> str:
        what = "prefill/decode " if self.pd else ""
        head = f"\nper-node launch commands ({what}{self.nodes} nodes x {self.gpus_per_node} GPUs):\n"
        if not self.launches:
            return head + f"none: {self.why_none}\n"
        return head + script(list(self.launches))

    def to_json(self) -> dict:  # type: ignore[type-arg]
        return {
            "nodes": self.nodes,
            "gpus_per_node": self.gpus_per_node,
            "pd": self.pd,
            "launches": [
                {"node": x.node, "role": x.role, "address": x.address, "commands": list(x.commands)}
                for x in self.launches
            ],
            "script": script(list(self.launches)) if self.launches else None,
            "why_none": self.why_none or None,
        }


def per_node_plan(
    facts,
    request,
    result: Plan,
    nodes: int,
    gpus_per_node: int,
    pd: bool,  # type: ignore[no-untyped-def]
    head: str,
    model: str,
) -> PerNodePlan:
    """The per-node launches of the best layout that splits over the nodes; with ``pd``
    each half of the nodes planned on its own."""
    from vcfg.plan.layouts import plan

    none = "no feasible layout splits evenly over the nodes"
    if not pd:
        got = launches(result, nodes, gpus_per_node, model, head)
        return PerNodePlan(nodes, gpus_per_node, False, tuple(got), "" if got else none)
    np_ = nodes // 2
    side = [plan(facts, replace(request, gpus=n * gpus_per_node, nodes=n)) for n in (np_, nodes - np_)]
    got = pd_launches(side[0], side[1], nodes, gpus_per_node, model, head)
    return PerNodePlan(nodes, gpus_per_node, True, tuple(got), "" if got else none)
