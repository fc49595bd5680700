"""VC301 pd-roles: a disaggregated run without a producer and a consumer, or roles that
do not fit the connector."""

from __future__ import annotations

from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext, RunContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _args, _hosts, _kv, _pd

RULE = Rule(
    code="VC301",
    name="pd-roles",
    summary="a disaggregated run without a producer and a consumer, or roles (or a proxy) that do not fit the connector",
    severity="error",
    scope="run",
    why=(
        "Connectors that move KV from a prefill to a decode instance read `kv_role`, each "
        "in its own way: P2pNcclConnector treats `kv_both` as a producer, so a decode "
        "instance must be `kv_consumer`; NixlConnector deprecates `kv_both` from 0.23. A "
        "run whose instances are all producers (or all consumers), or whose proxy sends "
        "prefills to a consumer, starts fine and then never transfers anything. A proxy "
        "script known not to pass the connector's transfer parameters (e.g. "
        "`disagg_proxy_demo.py` in front of NIXL) makes decode recompute every prefill. "
        "vcfg judges a deployment as a whole when it holds its proxy (whose upstreams "
        "all start in the deployment), or when it is several files that each start one "
        "side (grouped by the project config's `[tool.vcfg.deployments.NAME]`, or by a "
        "script that starts them); the per-connector role and proxy facts come from the knowledge packs."
    ),
    when_vllm_fails="never at start-up: requests hang, fail, or recompute the prefill on decode",
    example=(
        "CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve Qwen/Qwen3-8B --port 8100 \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}\' &\n'
        "CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve Qwen/Qwen3-8B --port 8200 \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}\' &\n'
        "python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200\n"
    ),
    use_instead=(
        "CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve Qwen/Qwen3-8B --port 8100 \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\' &\n'
        "CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve Qwen/Qwen3-8B --port 8200 \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}\' &\n'
        "python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200\n"
    ),
)


def _notes(r: Any) -> tuple[str, ...]:
    return (r.note,) if r.note else ()


def _per_launch(lc: LaunchContext, k: _kv.Kv, r: Any, side: Any) -> Iterator[Diagnostic]:
    """A role that fits no side, the wrong side for the proxy, or a deprecated one."""
    role = k.role
    at = _kv.role_span(lc, k)
    want = f"{k.name} needs {_kv.fmt_roles(r.prefill)} on prefill and {_kv.fmt_roles(r.decode)} on decode instances"
    if role not in ("kv_producer", "kv_consumer", "kv_both"):
        return  # not a role at all: VC025 reports it against the field's choices
    if r.reads_role and role not in r.prefill and role not in r.decode:
        yield RULE.diag(
            at,
            f"`kv_role` `{role}` fits neither a prefill nor a decode instance of {k.name}",
            help=want,
            notes=_notes(r),
        )
    elif side is not None and r.reads_role and role not in getattr(r, side.side):
        yield RULE.diag(
            at,
            f"the proxy at {_hosts.where(lc, side.proxy)} sends {side.side} requests here, but "
            f"`kv_role` `{role}` is not a {side.side} role for {k.name}",
            help=want,
            notes=_notes(r),
        )
    elif role in r.deprecated:
        yield RULE.diag(
            at, f"`kv_role` `{role}` is deprecated for {k.name}", help=want, notes=_notes(r), severity="warning"
        )


def _proxy_word(proxy: LaunchContext, script: str) -> Any:
    for w in proxy.inv.command:
        if w.text is not None and w.text.rsplit("/", 1)[-1] == script:
            return w
    return None


def _proxies(run: RunContext, sides: dict[int, Any]) -> Iterator[Diagnostic]:
    """A proxy script the knowledge packs list as not working with the run's connector."""
    routed: dict[int, list[LaunchContext]] = {}
    for lc in _hosts.serves(run):
        if id(lc) in sides:
            routed.setdefault(id(sides[id(lc)].proxy), []).append(lc)
    for proxy in _hosts.proxies(run):
        mine = routed.get(id(proxy)) or [
            lc for lc in _pd.by_file(run).get(proxy.path, []) if lc.inv.kind == "serve" and lc.args is not None
        ]
        names = sorted({k.name for lc in mine if (k := _kv.kv(lc)) is not None})
        for name in names:
            f = _kv.facts(mine[0], name)
            if f is None:
                continue
            for script in f.incompatible_proxies:
                w = _proxy_word(proxy, script)
                if w is None:
                    continue
                good = ", ".join(f.proxy_scripts)
                yield RULE.diag(
                    _args.span(proxy, w.span),
                    f"{script} does not work as the proxy of {name}",
                    help=(f"use a proxy that fits {name}, such as {good}" if good else f"use a proxy that fits {name}"),
                    notes=(f"{name} needs {f.proxy}",) if f.proxy else (),
                )


def check(run: RunContext) -> Iterator[Diagnostic]:
    sides, complete = _pd.proxy_sides(run)
    yield from _proxies(run, sides)
    groups: dict[tuple[str, str], list[tuple[LaunchContext, _kv.Kv]]] = {}
    flagged: set[int] = set()
    for lc in _hosts.serves(run):
        k = _kv.kv(lc)
        r = _kv.roles(lc, k.name) if k is not None else None
        if k is None or r is None or k.role is None:
            continue
        groups.setdefault((_pd.unit_of(lc, run), k.name), []).append((lc, k))
        for d in _per_launch(lc, k, r, sides.get(id(lc))):
            flagged.add(id(lc))
            yield d
    if not complete:
        return
    proxy_files = {p.path for p in _hosts.proxies(run)}
    for (unit, name), members in groups.items():
        lc0, _ = members[0]
        r = _kv.roles(lc0, name)
        files = {lc.path for lc, _ in members}
        # the deployment is whole: a proxy beside its servers, or several files of one side each
        whole = bool(files & proxy_files) or (unit == _pd.SHARED and len(files) > 1)
        if not whole or not _kv.is_pd(r) or not r.reads_role or len(members) < 2:
            continue
        for side, fits in (("decode", r.decode), ("prefill", r.prefill)):
            if any(k.role in fits for _, k in members):
                continue
            # the instance a proxy uses for that side, else a kv_both one, else the last
            chosen = [(lc, k) for lc, k in members if id(lc) in sides and sides[id(lc)].side == side]
            chosen = chosen or [(lc, k) for lc, k in members if k.role == "kv_both"] or members
            lc, k = chosen[-1]
            if id(lc) in flagged:
                continue
            yield RULE.diag(
                _kv.role_span(lc, k),
                f"no instance of this run can {side}: {name} {side} instances need `kv_role` {_kv.fmt_roles(fits)}",
                help=f"set `kv_role` to {_kv.fmt_roles(fits)} on the {side} instances",
                notes=_notes(r),
            )
            break
