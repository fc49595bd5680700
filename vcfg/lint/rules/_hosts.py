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

from functools import lru_cache
from typing import Any, Iterator, Optional

from vcfg.lint.constraints import UNKNOWN, option
from vcfg.lint.context import LaunchContext, RunContext
from vcfg.records import record

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


@record(frozen=True)
class _Shape:
    """Control structure of a script: branches, loop bodies, stop commands."""

    #: (start, end, node start, branch id) of every if/case branch
    branches: tuple[tuple[int, int, int, str], ...] = ()
    loops: tuple[tuple[int, int], ...] = ()
    #: byte offsets of kill / wait / pkill / killall outside function bodies
    stops: tuple[int, ...] = ()


_STOPS = {"kill", "wait", "pkill", "killall"}
_LOOPS = {"for_statement", "c_style_for_statement", "while_statement"}


@lru_cache(maxsize=64)
def _shape(source_kind: str, text: str) -> _Shape:
    if source_kind != "bash" or not text:
        return _Shape()
    try:
        from vcfg.launch.shell import parse_tree  # safe for any bytes (tree-sitter can crash)

        data = text.encode("utf-8", "surrogateescape")
        root = parse_tree(data).root_node
    except Exception:  # noqa: BLE001 - no shape: every launch is unconditional
        return _Shape()
    branches: list[tuple[int, int, int, str]] = []
    loops: list[tuple[int, int]] = []
    stops: list[int] = []
    stack = [(root, False)]
    while stack:
        node, in_func = stack.pop()
        t = node.type
        if t == "if_statement":
            after_then = False
            for ch in node.children:
                if not ch.is_named:
                    if ch.type == "then":
                        after_then = True
                    continue
                if ch.type in ("elif_clause", "else_clause"):
                    branches.append((ch.start_byte, ch.end_byte, node.start_byte, f"{ch.type}@{ch.start_byte}"))
                elif after_then:
                    branches.append((ch.start_byte, ch.end_byte, node.start_byte, "then"))
        elif t == "case_statement":
            for ch in node.children:
                if ch.type == "case_item":
                    branches.append((ch.start_byte, ch.end_byte, node.start_byte, f"item@{ch.start_byte}"))
        elif t in _LOOPS:
            body = node.child_by_field_name("body")
            if body is not None:
                loops.append((body.start_byte, body.end_byte))
        elif t == "command" and not in_func:
            name = node.child_by_field_name("name")
            word = data[name.start_byte:name.end_byte].decode("utf-8", "replace") if name is not None else ""
            if word.rsplit("/", 1)[-1] in _STOPS:
                stops.append(node.start_byte)
        func = in_func or t == "function_definition"
        stack.extend((ch, func) for ch in node.children if ch.is_named)
    return _Shape(tuple(branches), tuple(loops), tuple(sorted(stops)))


def _shape_of(lc: LaunchContext) -> _Shape:
    return _shape(lc.file.plan.source_kind, lc.file.text)


def _exclusive(shape: _Shape, a: int, b: int) -> bool:
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
