"""VC305 proxy-upstream-mismatch: a proxy pointing at ports no server listens on."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext, RunContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _hosts, _ports
from vcfg.lint.rules._args import span

RULE = Rule(
    code="VC305",
    name="proxy-upstream-mismatch",
    summary="a proxy pointing at ports no server listens on, or at one server for both roles",
    severity="warning",
    scope="run",
    why=(
        "A disaggregated proxy sends each request to a prefill server and then to a decode "
        "server. An upstream port that no `vllm serve` of the script listens on fails at "
        "the first request (or, with some routers, silently falls back to decode-only "
        "serving); the same address given as prefiller and decoder runs both phases on one "
        "instance, so nothing is disaggregated. Upstreams on other hosts, and scripts whose "
        "server ports are not all known, are not checked."
    ),
    when_vllm_fails="at the first request: connection refused, or a silent fallback",
    example=(
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 &\n"
        "CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B --port 8200 &\n"
        "python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8300\n"
    ),
    use_instead=(
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B --port 8100 &\n"
        "CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-8B --port 8200 &\n"
        "python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200\n"
    ),
)


def _local(host: Optional[str]) -> bool:
    return host is None or _hosts.address(host) in (_hosts.LOOPBACK, _hosts.WILDCARD)


def _same_address(a: Optional[str], b: Optional[str]) -> bool:
    na = _hosts.address(a) if a is not None else _hosts.LOOPBACK
    nb = _hosts.address(b) if b is not None else _hosts.LOOPBACK
    return na == nb


def _server_ports(run: RunContext, proxy: LaunchContext) -> Optional[set[int]]:
    """The HTTP ports of the servers on the proxy's host; None when one of them is
    unknown, or the proxy's host is."""
    ports: set[int] = set()
    mine = _hosts.host_of(proxy, run)
    if mine is None:
        return None
    for lc in _hosts.serves(run):
        if _hosts.host_of(lc, run) != mine:
            continue
        h = _ports.http_listener(lc)
        if h is None:
            from vcfg.lint.options import option

            if option(lc, "headless", absent=None).value is True:
                continue
            return None
        ports.update(h.ports)
    return ports or None


def _ends(proxy: LaunchContext) -> list[tuple[str, Optional[str], int, Any]]:
    out = []
    for up in proxy.inv.upstreams:
        e = _ports.upstream_endpoint(up)
        if e is not None:
            out.append((up.role, e[0], e[1], e[2]))
    return out


def check(run: RunContext) -> Iterator[Diagnostic]:
    for proxy in _hosts.proxies(run):
        ports = _server_ports(run, proxy)
        ends = _ends(proxy)
        prefills = [(h, p) for role, h, p, _ in ends if role == "prefill"]
        for role, host, port, word in ends:
            at = span(proxy, word.span)
            if role == "decode" and any(p == port and _same_address(h, host) for h, p in prefills):
                yield RULE.diag(
                    at,
                    f"the decoder upstream {port} is also a prefiller upstream",
                    help="point the prefiller and decoder arguments at different instances",
                )
                continue
            if ports is not None and _local(host) and port not in ports:
                listening = ", ".join(str(p) for p in sorted(ports))
                yield RULE.diag(
                    at,
                    f"no vllm server of this run listens on port {port} ({role} upstream)",
                    help=f"the servers listen on {listening}",
                )
