"""What a launch listens on (HTTP port, connector ports from the knowledge packs), which
GPUs it uses, and where a proxy's upstreams point."""

from __future__ import annotations

import re
from typing import Any, Optional

from vcfg.diagnostics import Span
from vcfg.lint.constraints import launch_span, script_binding
from vcfg.lint.context import LaunchContext, RunContext
from vcfg.lint.options import UNKNOWN, option
from vcfg.lint.rules._args import span, value_span_of
from vcfg.lint.rules._hosts import WILDCARD, address, cached, elsewhere, http_host, serves
from vcfg.lint.rules._kv import facts, kv_all, port_number
from vcfg.records import record
from vcfg.regex import lazy


@record(frozen=True)
class Listener:
    lc: LaunchContext
    ports: tuple[int, ...]
    addr: Optional[str]
    what: str
    span: Span
    #: what sets the base port, for the help text (``VLLM_NIXL_SIDE_CHANNEL_PORT``)
    setting: str
    #: the base port is vLLM's default (the user did not set it)
    default: bool = False


def http_listener(lc: LaunchContext) -> Optional[Listener]:
    """The API server of a serve launch (none with --headless) or a proxy's --port; None
    when unknown, or when it listens in a container or on another machine."""
    inv = lc.inv
    if elsewhere(lc):
        return None
    if inv.kind == "proxy":
        w = inv.port
        p = port_number(w.text) if w is not None else None
        host = http_host(lc)
        if w is None or p is None or host is UNKNOWN:
            return None
        return Listener(
            lc,
            (p,),
            address(host) if host is not None else WILDCARD,
            "proxy port",
            w.span.for_finding(lc.path),
            "--port",
        )
    if inv.kind != "serve":
        return None
    if option(lc, "headless", absent=False).value is not False:
        return None
    port = option(lc, "port")
    ov = port.ov
    p = port_number(port.value) if port.known else None
    host = http_host(lc)
    if p is None or host is UNKNOWN:
        return None
    at = span(lc, ov.value_span or ov.span) if ov is not None else launch_span(lc)
    return Listener(lc, (p,), address(host) if host is not None else WILDCARD, "HTTP port", at, "--port", ov is None)


def _int_option(lc: LaunchContext, dest: str, default: int) -> Optional[int]:
    """An int option's value (``default`` when unset or not in this release), None unknown."""
    value = option(lc, dest, absent=None).value
    if value is None:
        return default
    if value is UNKNOWN or isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def _dp_indexes(lc: LaunchContext) -> Optional[list[int]]:
    """The data-parallel indexes this launch runs locally."""
    size = _int_option(lc, "data_parallel_size", 1)
    local = _int_option(lc, "data_parallel_size_local", 0)
    rank = _int_option(lc, "data_parallel_rank", -1)
    start = _int_option(lc, "data_parallel_start_rank", -1)
    if None in (size, local, rank, start):
        return None
    if rank is not None and rank >= 0:
        return [rank]
    first = start if start is not None and start >= 0 else 0
    count = local if local else size
    return list(range(first, first + (count or 1)))


def _offsets(kind: str, lc: LaunchContext) -> Optional[list[int]]:
    tp = _int_option(lc, "tensor_parallel_size", 1)
    pp = _int_option(lc, "pipeline_parallel_size", 1)
    dps = _dp_indexes(lc)
    if tp is None or pp is None or dps is None or tp < 1 or pp < 1:
        return None
    if kind == "none":
        return [0]
    if kind == "world_rank":
        return list(range(tp * pp))
    if kind in ("dp_rank", "dp_index"):
        return dps
    if kind in ("dp_rank_times_tp_plus_tp_rank", "dp_index_times_tp_plus_tp_rank"):
        return [d * tp + r for d in dps for r in range(tp)]
    return None


def _env_value(lc: LaunchContext, name: str, fallback: Any) -> tuple[Any, Optional[Any], bool]:
    """(value, binding, set by the script) of a variable; the catalog default (else
    ``fallback``) when the script leaves it alone; UNKNOWN when a sourced file may set it."""
    b = script_binding(lc, name)
    if b is not None and b.exported and not b.unset:
        if b.value is None or b.value.text is None:
            return UNKNOWN, b, True
        return b.value.text, b, True
    if b is None and (lc.inv.env_unknowns or not lc.inv.inherits_env or name in lc.inv.env):
        return UNKNOWN, None, False
    ev = lc.catalog.env(name)
    default = ev.default if ev is not None else fallback
    if isinstance(default, dict):
        default = fallback
    return default, None, False


def connector_listeners(lc: LaunchContext) -> list[Listener]:
    """The ports a launch's KV connector(s) bind, from the knowledge packs' port facts."""
    out: list[Listener] = []
    if elsewhere(lc):
        return out
    for k in kv_all(lc):
        f = facts(lc, k.name)
        if f is None:
            continue
        extra = k.doc.get("kv_connector_extra_config")
        extra = extra if isinstance(extra, dict) else {}
        for pf in f.ports:
            if pf.connects_only or k.role in pf.unbound_roles:
                continue
            if pf.unbound_with_key is not None and pf.unbound_with_key in extra:
                continue
            src, _, base_key = pf.base.partition(":")
            conn_at = value_span_of(lc, k.ov, *k.path, "kv_connector")
            given = base_key in (k.doc if src == "config" else extra)
            if src == "config":
                if given:
                    base, at = k.doc[base_key], value_span_of(lc, k.ov, *k.path, base_key)
                else:
                    cls = lc.catalog.config("KVTransferConfig")
                    fld = cls.field(base_key) if cls is not None else None
                    base = fld.default if fld is not None and fld.default is not None else pf.default
                    at = conn_at
                setting = f"`{base_key}`"
            elif src == "extra":
                base = extra.get(base_key, pf.default)
                at = (
                    value_span_of(lc, k.ov, *k.path, "kv_connector_extra_config", base_key)
                    if base_key in extra
                    else conn_at
                )
                setting = f"extra config `{base_key}`"
            else:
                base, b, given = _env_value(lc, base_key, pf.default)
                # a prefix of this command is this launch's own word; an export earlier in
                # the script is shared by several launches: point at the launch instead
                own = b.value if given and b is not None and b.source == "prefix" else None
                at = own.span.for_finding(lc.path) if own is not None else conn_at
                setting = base_key
            p = port_number(base) if base is not UNKNOWN else None
            offs = _offsets(pf.offset, lc)
            if p is None or offs is None:
                continue
            addr: Optional[str] = WILDCARD
            if pf.host:
                hsrc, _, hname = pf.host.partition(":")
                if hsrc == "env":
                    hv, _, _ = _env_value(lc, hname, None)
                    addr = address(hv) if isinstance(hv, str) else None
                else:
                    addr = address(pf.host)
            out.append(
                Listener(lc, tuple(p + o for o in offs), addr, f"{f.name} {pf.name} port", at, setting, not given)
            )
    return out


def rpc_listener(lc: LaunchContext) -> Optional[Listener]:
    """The data-parallel handshake socket the front end of rank 0 binds on
    `--data-parallel-address`:`--data-parallel-rpc-port` when its ranks span nodes (a
    group on one node handshakes over IPC; a headless node or a later node's front end
    connects instead): 0.33.0 vllm/v1/engine/utils.py:1342-1365 (0.10.2 :692-696)."""
    from vcfg.lint.rules._dp import view

    if elsewhere(lc):
        return None
    v = view(lc)
    if v is None or v.headless or v.size <= 1:
        return None
    ranks = v.local_ranks()
    first = ranks.start if ranks is not None else None
    if ranks is None or first != 0 or len(ranks) >= v.size:
        return None
    rpc = option(lc, "data_parallel_rpc_port")
    value, ov = rpc.value, rpc.ov
    if not rpc.known:
        return None
    if value is None:
        cls = lc.catalog.config("ParallelConfig")
        fld = cls.field("data_parallel_rpc_port") if cls is not None else None
        value = fld.default if fld is not None else None
    port = port_number(value) if value is not None else None
    host = option(lc, "data_parallel_address").value
    if port is None or host is UNKNOWN:
        return None
    addr = address(host) if isinstance(host, str) else address("127.0.0.1")
    at = span(lc, ov.value_span or ov.span) if ov is not None else launch_span(lc)
    return Listener(lc, (port,), addr, "data-parallel RPC port", at, "--data-parallel-rpc-port", ov is None)


def listeners(lc: LaunchContext) -> list[Listener]:
    h = http_listener(lc)
    r = rpc_listener(lc) if lc.inv.kind == "serve" and lc.args is not None else None
    return ([h] if h is not None else []) + ([r] if r is not None else []) + connector_listeners(lc)


#: no replica has more GPUs on one host than this (`gpus` lists at most this many:
#: ``--tensor-parallel-size 99999999`` must not make a list of a hundred million)
_MAX_GPUS = 1024


def gpus(lc: LaunchContext) -> Optional[tuple[str, ...]]:
    """The devices the first replica of a serve launch uses: the first TP x PP x PCP
    entries of its CUDA_VISIBLE_DEVICES (``caller:<file>:<i>`` when the script leaves the
    variable to the caller); None when unknown."""
    from vcfg.lint.constraints import device_ids

    if lc.inv.kind != "serve" or lc.args is None:
        return None
    if option(lc, "device_ids", absent=None).value is not None:
        return None  # --device-ids picks devices itself (or may: unknown)
    n = 1
    for dest in ("tensor_parallel_size", "pipeline_parallel_size", "prefill_context_parallel_size"):
        v = _int_option(lc, dest, 1)
        if v is None:
            v = 1  # unknown: at least its first GPU
        n *= max(v, 1)
    n = min(n, _MAX_GPUS)
    b = script_binding(lc, "CUDA_VISIBLE_DEVICES")
    if b is None:
        if lc.inv.env_unknowns or not lc.inv.inherits_env or "CUDA_VISIBLE_DEVICES" in lc.inv.env:
            return None
        # the caller's value: the same for the launches of one file, never equal to
        # another file's (two unknown values are never equal)
        return tuple(f"caller:{lc.path}:{i}" for i in range(n))
    if b.unset:  # every device is visible: the first ones by their physical index
        return tuple(str(i) for i in range(n))
    if not b.exported or b.value is None or b.value.text is None:
        return None
    ids = device_ids(b.value.text)
    return tuple(ids[:n]) if ids else None


_HTTP_URL = lazy(r"^(?:[a-z]+://)?\[?(?P<host>[^\]/:\s]*)\]?(?::(?P<port>\d+))?(?:/.*)?$", re.I)


def upstream_endpoint(up: Any) -> Optional[tuple[Optional[str], int, Any]]:
    """(host or None, HTTP port, word to point at) of a proxy upstream."""
    if up.url is not None and up.url.text is not None:
        m = _HTTP_URL.match(up.url.text.strip())
        if m and m.group("port"):
            host = m.group("host") or None
            return host, int(m.group("port")), up.url
    if up.port is not None and up.port.text is not None:
        p = port_number(up.port.text)
        if p is None:
            return None
        if up.host is not None and up.host.text is None:
            return None
        return (up.host.text if up.host is not None else None), p, up.port
    return None


def http_ports(run: RunContext) -> dict[int, list[LaunchContext]]:
    """HTTP port -> the servers of the run listening on it."""

    def build() -> dict[int, list[LaunchContext]]:
        out: dict[int, list[LaunchContext]] = {}
        for lc in serves(run):
            h = http_listener(lc)
            for p in h.ports if h is not None else ():
                out.setdefault(p, []).append(lc)
        return out

    return cached(run, "http_ports", build)
