"""Prefill/decode structure of a run: which servers a proxy sends prefills and decodes
to, which files form one deployment, and the prefill/decode pairs to compare."""

from __future__ import annotations

from typing import Optional

from vcfg.lint.context import LaunchContext, RunContext
from vcfg.lint.rules._hosts import LOOPBACK, WILDCARD, address, cached, host_of, proxies, serves, specific_host
from vcfg.lint.rules._kv import kv, side_of
from vcfg.lint.rules._ports import http_ports, upstream_endpoint
from vcfg.records import record


def _servers_at(run: RunContext) -> dict[tuple[str, str, int], list[LaunchContext]]:
    """("at", host, port) and ("addr", address, port) -> the servers listening there: by
    the host they run on (`host_of`), and by their specific `--host` address or the name
    the project config gives their host."""

    def build() -> dict[tuple[str, str, int], list[LaunchContext]]:
        out: dict[tuple[str, str, int], list[LaunchContext]] = {}
        for port, lcs in http_ports(run).items():
            for lc in lcs:
                m = host_of(lc, run)
                if m is None:
                    continue
                out.setdefault(("at", m, port), []).append(lc)
                names = {specific_host(lc)}
                if m.startswith("host:"):
                    names.add(address(m[5:]))
                for h in (n for n in names if n is not None):
                    out.setdefault(("addr", h, port), []).append(lc)
        return out

    return cached(run, "servers_at", build)


def _match_server(proxy: LaunchContext, host: Optional[str], port: int, run: RunContext) -> Optional[LaunchContext]:
    """The one server of the run an upstream (host, port) of ``proxy`` names: one on
    the proxy's own host for a local address, else one known to listen at that address
    (its `--host`, or its host's name in the project config).  An unknown host matches
    nothing."""
    local = host is None or address(host) in (LOOPBACK, WILDCARD)
    mine = host_of(proxy, run)
    if local and mine is None:
        return None
    key = ("at", mine or "", port) if local else ("addr", address(host) or "", port)
    hits = [x for x in _servers_at(run).get(key, []) if x is not proxy]
    return hits[0] if len(hits) == 1 else None


@record(frozen=True)
class Assignment:
    side: str  # "prefill" / "decode"
    proxy: LaunchContext


def proxy_sides(run: RunContext) -> tuple[dict[int, Assignment], bool]:
    """Which servers a proxy of the run sends prefills or decodes to (by ``id`` of their
    LaunchContext), and whether every proxy upstream names a server of the run (False:
    some servers run elsewhere, the run is not the whole deployment)."""
    return cached(run, "proxy_sides", lambda: _proxy_sides(run))


def _proxy_sides(run: RunContext) -> tuple[dict[int, Assignment], bool]:
    out: dict[int, Assignment] = {}
    complete = True
    for proxy in proxies(run):
        for up in proxy.inv.upstreams:
            if up.role not in ("prefill", "decode"):
                continue
            e = upstream_endpoint(up)
            if e is None:  # an upstream vcfg cannot read may name a server elsewhere
                complete = False
                continue
            lc = _match_server(proxy, e[0], e[1], run)
            if lc is None:
                complete = False
            elif id(lc) not in out:
                out[id(lc)] = Assignment(up.role, proxy)
    return out, complete


SHARED = "<files holding one side>"


def by_file(run: RunContext) -> dict[str, list[LaunchContext]]:
    """path -> the launches of that file, in order."""

    def build() -> dict[str, list[LaunchContext]]:
        out: dict[str, list[LaunchContext]] = {}
        for x in run.launches:
            out.setdefault(x.path, []).append(x)
        return out

    return cached(run, "launches_by_file", build)


def unit_of(lc: LaunchContext, run: RunContext) -> str:
    """The deployment a launch belongs to: its own file when that file holds a proxy or
    both sides of a disaggregated pair; else one deployment made of every such
    one-sided file of the run (``prefill.sh`` and ``decode.sh`` linted together)."""
    cache = cached(run, "units", dict)
    if lc.path not in cache:
        mine = by_file(run).get(lc.path, [])
        sides: set[str] = set()
        for x in mine:
            got = side_of(x) if x.inv.kind == "serve" else None
            if got is not None:
                sides |= got[1]
        whole = any(x.inv.kind == "proxy" for x in mine) or sides >= {"prefill", "decode"}
        cache[lc.path] = lc.path if whole else SHARED
    return cache[lc.path]


def pd_pairs(run: RunContext) -> list[tuple[LaunchContext, LaunchContext, str]]:
    """(prefill, decode, connector) pairs of the run: the servers one proxy sends
    prefills and decodes to, else, per deployment (`unit_of`) and connector, every
    producer-only instance with every consumer-only one (roles from the knowledge
    packs)."""
    sides, _ = proxy_sides(run)
    pairs: list[tuple[LaunchContext, LaunchContext, str]] = []
    servers = serves(run)
    by_proxy: dict[int, tuple[list[LaunchContext], list[LaunchContext]]] = {}
    for lc in servers:
        a = sides.get(id(lc))
        if a is not None:
            slot = by_proxy.setdefault(id(a.proxy), ([], []))
            slot[0 if a.side == "prefill" else 1].append(lc)
    for ps, ds in by_proxy.values():
        for d in ds:
            kd = kv(d)
            for p in ps:
                kp = kv(p)
                if kd is not None and kp is not None and kd.name == kp.name:
                    pairs.append((p, d, kd.name))
    groups: dict[tuple[str, str], tuple[list[LaunchContext], list[LaunchContext]]] = {}
    for lc in servers:
        got = side_of(lc)
        if got is None or id(lc) in sides:
            continue
        name, can = got
        slot = groups.setdefault((unit_of(lc, run), name), ([], []))
        if can == {"prefill"}:
            slot[0].append(lc)
        elif can == {"decode"}:
            slot[1].append(lc)
    for (_, name), (ps, ds) in groups.items():
        pairs.extend((p, d, name) for d in ds for p in ps)
    return pairs
