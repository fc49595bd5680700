"""Which launches of a run share a host and run at the same time (the run rules' view).

Hosts.  Launches in one file run on one host, unless both pass `--host` with two
different specific addresses (not a wildcard, not loopback).  Launches in different
files run on different hosts, unless both pass the same specific `--host` address.
A launch in a container (``docker run``) or started remotely (``ssh``, ``srun``) is
a host of its own.

Time.  Two launches of one file overlap when the earlier one was started in the
background (``&``), they are not in two branches of one ``if``/``case`` (a script that
starts "prefill" or "decode" by its argument), and no ``kill``/``wait`` runs between
them.  One launch unrolled from a loop overlaps with itself only when started in the
background and the loop body stops nothing.  Launches of different files overlap
(servers run until stopped).
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.launch.shape import Shape
from vcfg.lint.constraints import UNKNOWN, option
from vcfg.lint.context import LaunchContext, RunContext

WILDCARD = "*"
LOOPBACK = "loopback"
HOST_IP = "host-ip"  # an empty VLLM_HOST_IP: the host's own address
_WILDCARDS = {"0.0.0.0", "::", "*", "[::]"}
_LOOPBACKS = {"localhost", "127.0.0.1", "::1", "[::1]"}


def cached(run: RunContext, key: str, build: Any) -> Any:
    """A value computed once per run (rules of one run share it)."""
    store = run.__dict__.setdefault("_vcfg_topology", {})
    if key not in store:
        store[key] = build()
    return store[key]


def serves(run: RunContext) -> list[LaunchContext]:
    return [lc for lc in run.launches if lc.inv.kind == "serve" and lc.args is not None]


def proxies(run: RunContext) -> list[LaunchContext]:
    return [lc for lc in run.launches if lc.inv.kind == "proxy"]


def where(lc: LaunchContext, other: LaunchContext) -> str:
    """``other``'s place, as seen from a message about ``lc``."""
    it = f" (loop {other.inv.iteration})" if other.inv.iteration else ""
    if other.path == lc.path:
        return f"line {other.inv.span.line}{it}"
    return f"{other.path}:{other.inv.span.line}{it}"


def address(text: Optional[str]) -> Optional[str]:
    """A bind address, normalised: WILDCARD, LOOPBACK, HOST_IP or the text; None unknown."""
    if text is None:
        return None
    t = text.strip().lower()
    if t in _WILDCARDS:
        return WILDCARD
    if t in _LOOPBACKS or t.startswith("127."):
        return LOOPBACK
    if t == "":
        return HOST_IP
    return t


def addresses_meet(a: Optional[str], b: Optional[str]) -> bool:
    """Whether two listeners on one host bind overlapping addresses (unknown: no)."""
    if a is None or b is None:
        return False
    return a == WILDCARD or b == WILDCARD or a == b


def http_host(lc: LaunchContext) -> Any:
    if lc.inv.kind == "serve":
        value, _ = option(lc, "host")
        return value if value is UNKNOWN or value is None or isinstance(value, str) else UNKNOWN
    h = lc.inv.host
    if h is None:
        return None
    return h.text if h.text is not None else UNKNOWN


def specific_host(lc: LaunchContext) -> Optional[str]:
    """The `--host` address when it names one machine's interface, else None."""
    memo = lc.__dict__.setdefault("_vcfg_host", [])
    if not memo:
        memo.append(_specific_host(lc))
    return memo[0]


def _specific_host(lc: LaunchContext) -> Optional[str]:
    h = http_host(lc)
    if not isinstance(h, str):
        return None
    a = address(h)
    return a if a not in (WILDCARD, LOOPBACK, HOST_IP) else None


#: Wrappers that start the program on another machine or in its own network namespace.
_ELSEWHERE = ("ssh", "srun", "kubectl", "docker", "podman")


def elsewhere(lc: LaunchContext) -> bool:
    """Whether the launch runs on another machine or in a container's own network."""
    return any(w.split()[0] in _ELSEWHERE for w in lc.inv.wrappers if w) or lc.inv.entrypoint.startswith(_ELSEWHERE)


def same_host(a: LaunchContext, b: LaunchContext) -> bool:
    if elsewhere(a) or elsewhere(b):
        return False
    ha, hb = specific_host(a), specific_host(b)
    if a.path == b.path:
        return not (ha and hb and ha != hb)
    return bool(ha and hb and ha == hb)


_NO_SHAPE = Shape()


def _shape_of(lc: LaunchContext) -> Shape:
    """The script's branches, loops and stop commands, read by the shell front end
    (`vcfg.launch.shape`); none for other files (every launch unconditional)."""
    shape = lc.file.plan.shape
    return shape if shape is not None else _NO_SHAPE


def _exclusive(shape: Shape, a: int, b: int) -> bool:
    """Whether offsets a and b sit in two different branches of one if/case."""
    pa = {node: bid for s, e, node, bid in shape.branches if s <= a < e}
    for s, e, node, bid in shape.branches:
        if s <= b < e and node in pa and pa[node] != bid:
            return True
    return False


def overlap(a: LaunchContext, b: LaunchContext, run: RunContext) -> bool:
    """Whether launches ``a`` and ``b`` (distinct entries of the run) run at once."""
    if a is b:
        return False
    if a.file is not b.file:
        return True
    order = cached(run, "order", lambda: {id(x): i for i, x in enumerate(run.launches)})
    first, second = (a, b) if order.get(id(a), 0) <= order.get(id(b), 0) else (b, a)
    if not first.inv.background:
        return False
    shape = _shape_of(first)
    s1, s2 = first.inv.span, second.inv.span
    if s1.start == s2.start:  # one launch, unrolled or called twice
        for ls, le in shape.loops:
            if ls <= s1.start < le and any(ls <= x < le for x in shape.stops):
                return False
        return True
    if _exclusive(shape, s1.start, s2.start):
        return False
    if s1.end <= s2.start and any(s1.end <= x < s2.start for x in shape.stops):
        return False
    return True


class Neighbours:
    """For each launch of ``pool``: the launches listed before it that share its host and
    run at the same time (built once per rule, indexed by file and by `--host`)."""

    def __init__(self, run: RunContext, pool: list[LaunchContext]) -> None:
        self.run = run
        self.order = {id(x): i for i, x in enumerate(pool)}
        self.by_file: dict[str, list[LaunchContext]] = {}
        self.by_host: dict[str, list[LaunchContext]] = {}
        for x in pool:
            self.by_file.setdefault(x.path, []).append(x)
            h = specific_host(x)
            if h:
                self.by_host.setdefault(h, []).append(x)

    def before(self, lc: LaunchContext) -> Iterator[LaunchContext]:
        mine = self.order.get(id(lc))
        if mine is None:
            return
        h = specific_host(lc)
        near = list(self.by_file.get(lc.path, ()))
        if h:
            near += [x for x in self.by_host.get(h, ()) if x.path != lc.path]
        for other in sorted(near, key=lambda x: self.order[id(x)]):
            if self.order[id(other)] >= mine:
                break
            if same_host(lc, other) and overlap(other, lc, self.run):
                yield other
