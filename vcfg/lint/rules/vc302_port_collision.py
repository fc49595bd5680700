"""VC302 port-collision: two listeners on one host on the same port."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import RunContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _hosts, _ports

RULE = Rule(
    code="VC302",
    name="port-collision",
    summary="two listeners on one host on the same port",
    severity="error",
    scope="run",
    why=(
        "Every instance binds its HTTP `--port` and, with a KV connector, more ports: "
        "P2pNcclConnector `kv_port` .. `kv_port`+TP*PP-1, the NIXL handshake side channel "
        "`VLLM_NIXL_SIDE_CHANNEL_PORT` (+ the data-parallel index), the Mooncake bootstrap "
        "port; the head of a data-parallel group spanning nodes binds "
        "`--data-parallel-rpc-port` (29550 by default) for the other nodes' handshake, so "
        "the prefill and decode heads of one node need two. Two instances on one host that leave these at their defaults collide: the "
        "second fails with `Address already in use` after loading its model, or, for two "
        "API servers on one port, silently shares the requests. vcfg compares launches of "
        "one deployment (one file, or the files the project config or a starting script "
        "groups) on the same known host: launches of one script share its machine (unless "
        "both pass different `--host` addresses), files share one when the project config "
        "names the same host for them or both pass the same `--host` address; a container "
        "is a host of its own and a launch on an unknown machine (`ssh $NODE`) is compared "
        "with nothing. A launch that runs in the foreground, that another branch of an "
        "`if`/`case` starts instead, or that a `kill`/`wait` ends first, does not overlap "
        "with the next one."
    ),
    when_vllm_fails="at start-up or when the connector starts, often after the model has loaded",
    example=(
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B > a.log 2>&1 &\n"
        "CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B > b.log 2>&1 &\n"
        "wait\n"
    ),
    use_instead=(
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 > a.log 2>&1 &\n"
        "CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B --port 8200 > b.log 2>&1 &\n"
        "wait\n"
    ),
)


def _clash(a: _ports.Listener, b: _ports.Listener) -> int | None:
    if not _hosts.addresses_meet(a.addr, b.addr):
        return None
    shared = sorted(set(a.ports) & set(b.ports))
    return shared[0] if shared else None


def _help(b: _ports.Listener) -> str:
    if b.default:
        return f"this is the default; give each instance on this host its own {b.setting}"
    return f"give each instance on this host its own {b.setting}"


def check(run: RunContext) -> Iterator[Diagnostic]:
    pool = [lc for lc in run.launches if lc.inv.kind in ("serve", "proxy")]
    found = {id(lc): _ports.listeners(lc) for lc in pool}
    near = _hosts.Neighbours(run, pool, {k: [p for li in v for p in li.ports] for k, v in found.items()})
    for lc in pool:
        mine = found[id(lc)]
        reported: set[int] = set()
        for i, b in enumerate(mine):
            for a in mine[:i]:
                port = _clash(a, b)
                if port is not None:
                    reported.add(i)
                    yield RULE.diag(b.span, f"{b.what} {port} is also this instance's {a.what}", help=_help(b))
                    break
        for other in near.before(lc):
            if len(reported) == len(mine):
                break  # each listener has its finding: the other launches need not be read
            for i, b in enumerate(mine):
                if i in reported:
                    continue
                for a in found[id(other)]:
                    port = _clash(a, b)
                    if port is not None:
                        reported.add(i)
                        yield RULE.diag(
                            b.span,
                            f"{b.what} {port} is already used by the launch at "
                            f"{_hosts.where(lc, other)}" + ("" if a.what == b.what else f" (its {a.what})"),
                            help=_help(b),
                        )
                        break
