"""A launch's KV connector as the run rules see it: its name, `kv_role`, the knowledge
pack facts about it, and the side of a disaggregated pair the role can play."""

from __future__ import annotations

from typing import Any, Optional

from vcfg.diagnostics import Span
from vcfg.launch.model import ENGINE_KINDS
from vcfg.lint.context import LaunchContext
from vcfg.lint.rules._args import kv_transfer, value_span_of
from vcfg.records import record


@record(frozen=True)
class Kv:
    """A launch's KV connector, as configured."""

    ov: Any  # the --kv-transfer-config OptionValue
    doc: dict  # the connector's config object (the whole JSON, or a MultiConnector child)
    path: tuple  # where ``doc`` sits inside the JSON value
    name: str
    role: Optional[str]


def kv(lc: LaunchContext) -> Optional[Kv]:
    """The top-level connector of a serve launch."""
    got = kv_transfer(lc) if lc.inv.kind in ENGINE_KINDS else None
    if got is None:
        return None
    ov, value = got
    name = value.get("kv_connector")
    if not isinstance(name, str) or not name:
        return None
    role = value.get("kv_role")
    return Kv(ov, value, (), name, role if isinstance(role, str) else None)


def kv_all(lc: LaunchContext) -> list[Kv]:
    """The connector and, for a MultiConnector, each child (extra config ``connectors``,
    0.33 distributed/kv_transfer/kv_connector/v1/multi_connector.py:236)."""
    top = kv(lc)
    if top is None:
        return []
    out = [top]
    extra = top.doc.get("kv_connector_extra_config")
    children = extra.get("connectors") if isinstance(extra, dict) else None
    if isinstance(children, list):
        for i, ch in enumerate(children):
            if isinstance(ch, dict) and isinstance(ch.get("kv_connector"), str):
                role = ch.get("kv_role")
                out.append(
                    Kv(
                        top.ov,
                        ch,
                        ("kv_connector_extra_config", "connectors", i),
                        ch["kv_connector"],
                        role if isinstance(role, str) else None,
                    )
                )
    return out


def facts(lc: LaunchContext, name: str) -> Any:
    """The knowledge pack facts of connector ``name`` for the target release."""
    return lc.target.knowledge.connector_facts(name, lc.target.version)


def roles(lc: LaunchContext, name: str) -> Any:
    """The connector's RoleFacts for the target release, or None."""
    f = facts(lc, name)
    return f.roles[0] if f is not None and f.roles else None


def role_span(lc: LaunchContext, k: Kv) -> Span:
    return value_span_of(lc, k.ov, *k.path, "kv_role")


def port_number(x: Any) -> Optional[int]:
    """A TCP port from a JSON/argv value (``"20001"`` or 20001)."""
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return x if 0 < x < 65536 else None
    if isinstance(x, str) and x.strip().isdigit():
        return port_number(int(x.strip()))
    return None


def is_pd(r: Any) -> bool:
    """Whether RoleFacts describe a connector that moves KV between a prefill and a
    decode instance (its prefill and decode roles differ)."""
    return r is not None and bool(r.prefill) and bool(r.decode) and set(r.prefill) != set(r.decode)


def fmt_roles(roles: Any) -> str:
    names = [f"`{x}`" for x in roles]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def side_of(lc: LaunchContext) -> Optional[tuple[str, set[str]]]:
    """(connector, the sides its kv_role can play: "prefill", "decode") for a serve
    launch of a disaggregating connector; None otherwise."""
    k = kv(lc)
    if k is None or k.role is None:
        return None
    r = roles(lc, k.name)
    if not is_pd(r):
        return None
    sides = {s for s, fits in (("prefill", r.prefill), ("decode", r.decode)) if k.role in fits}
    return k.name, sides
