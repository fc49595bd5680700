"""Which launches of a deployment share a host and run at the same time (the run rules'
view).  The deployment itself (which files) comes from vcfg/lint/deployments.py.

Hosts.  Each launch has a host that is known or unknown (`host_of`):
- a launch in a container (``docker run``, a Kubernetes or compose container, the pod a
  chart's values start, a Dockerfile's CMD: `HOST_OF_KIND`) is a host
  of its own;
- a launch started on another machine whose name vcfg cannot read (``ssh``, ``srun``,
  ``ray job submit``)
  has an unknown host: it is compared with nothing;
- any other launch runs on the machine that runs its file: the host the project config
  names for the file (``hosts`` of ``[tool.vcfg.deployments.NAME]``), the host of the
  script that starts it, else the file's own (unnamed) machine.
Two launches share a host when their hosts are known and equal and they do not pass
two different specific `--host` addresses, or when both pass the same specific
(literal, not wildcard, not loopback) `--host` address.  Unknown values (a caller's
variable, command output) are never equal to anything.

Time.  Two launches of one file overlap when the earlier one was started in the
background (``&``), they are not in two branches of one ``if``/``case`` (a script that
starts "prefill" or "decode" by its argument), and no ``kill``/``wait`` runs between
them (written between them, or run between them in the order the script runs its
function bodies: a ``main`` that restarts a server stops it each time).  One launch unrolled from a loop overlaps with itself only when started in the
background and the loop body stops nothing.  Launches in two fenced blocks of one
Markdown file never overlap: each block of a document is an example of its own (a
recipe's H100 block that starts its server in the background and its DGX Spark block are
other machines, not one session).  Launches of different files overlap (servers run until
stopped).
"""

from __future__ import annotations

import bisect
import heapq
import re
from typing import Any, Iterable, Iterator, Optional

from vcfg.launch.shape import Shape
from vcfg.lint.context import LaunchContext, RunContext
from vcfg.lint.options import UNKNOWN, option
from vcfg.regex import lazy

WILDCARD = "*"
LOOPBACK = "loopback"
HOST_IP = "host-ip"  # an empty VLLM_HOST_IP: the host's own address
_WILDCARDS = {"0.0.0.0", "::", "*", "[::]"}
_LOOPBACKS = {"localhost", "127.0.0.1", "::1", "[::1]"}


def cached(run: RunContext, key: str, build: Any) -> Any:
    """A value computed once per run (rules of one run share it)."""
    if key not in run.memo:
        run.memo[key] = build()
    return run.memo[key]


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
        value = option(lc, "host").value
        return value if value is UNKNOWN or value is None or isinstance(value, str) else UNKNOWN
    h = lc.inv.host
    if h is None:
        return None
    return h.text if h.text is not None else UNKNOWN


def specific_host(lc: LaunchContext) -> Optional[str]:
    """The `--host` address when it names one machine's interface, else None."""
    if "specific_host" not in lc.memo:
        lc.memo["specific_host"] = _specific_host(lc)
    return lc.memo["specific_host"]


def _specific_host(lc: LaunchContext) -> Optional[str]:
    h = http_host(lc)
    if not isinstance(h, str):
        return None
    a = address(h)
    return a if a not in (WILDCARD, LOOPBACK, HOST_IP) else None


#: Wrappers that start the program on another machine or in its own network namespace.
_ELSEWHERE = ("ssh", "srun", "kubectl", "docker", "podman", "ray")


def elsewhere(lc: LaunchContext) -> bool:
    """Whether the launch runs on another machine or in a container's own network."""
    return any(w.split()[0] in _ELSEWHERE for w in lc.inv.wrappers if w) or lc.inv.entrypoint.startswith(_ELSEWHERE)


#: Where the launches of each source kind (`LaunchPlan.source_kind`, one per reader) run:
#: "container" -- each in a container or pod of its own, not on the machine that reads
#: the file (a Kubernetes or compose container, the pod a chart's values start, a
#: Dockerfile's CMD); "file" -- on the machine that runs the file (a script, a
#: README's commands, a workflow's runner, the node a recipe or task runs on).
#: Every kind a reader returns must be here (tests/test_hosts_kinds.py).
HOST_OF_KIND = {
    "bash": "file",
    "markdown": "file",
    "rst": "file",
    "serve-config": "file",
    "github-actions": "file",
    "ray-serve": "file",
    "skypilot": "file",
    "srt-slurm": "file",
    "dstack": "file",
    "none": "file",
    "kubernetes": "container",
    "compose": "container",
    "helm-values": "container",
    "dockerfile": "container",
}
_CONTAINER_KINDS = frozenset(k for k, v in HOST_OF_KIND.items() if v == "container")
_REMOTE = ("ssh", "srun", "kubectl", "ray")


def host_of(lc: LaunchContext, run: RunContext) -> Optional[str]:
    """The host ``lc`` runs on: ``own:...`` (its container), ``host:NAME`` (named in the
    project config), ``file:PATH`` (the machine running that file); None unknown."""
    memo = lc.memo.get("host_of")
    if memo is None:
        memo = lc.memo["host_of"] = {}
    key = id(run)
    if key in memo:
        return memo[key]  # type: ignore[no-any-return]
    h = memo[key] = _host_of(lc, run)
    return h


def _host_of(lc: LaunchContext, run: RunContext) -> Optional[str]:
    inv = lc.inv
    words = [w.split()[0] for w in inv.wrappers if w]
    if any(w in _REMOTE for w in words) or inv.entrypoint.startswith(_REMOTE):
        return None
    if (
        any(w in ("docker", "podman") for w in words)
        or inv.entrypoint.startswith(("docker", "podman"))
        or lc.file.plan.source_kind in _CONTAINER_KINDS
    ):
        return f"own:{lc.path}:{inv.span.start}:{inv.iteration or ''}"
    return run.hosts.get(lc.path) or f"file:{lc.path}"


def host_label(lc: LaunchContext, run: RunContext) -> str:
    """The host, for people (`vcfg launch show`, messages)."""
    h = host_of(lc, run)
    spec = specific_host(lc)
    if h is None:
        return "unknown (started on another machine)"
    if h.startswith("own:"):
        return "its own container"
    name = h.split(":", 1)[1]
    where = f"host {name}" if h.startswith("host:") else f"the machine running {name}"
    return f"{where}, --host {spec}" if spec else where


def same_host(a: LaunchContext, b: LaunchContext, run: RunContext) -> bool:
    ha, hb = host_of(a, run), host_of(b, run)
    if ha is None or hb is None or ha.startswith("own:") or hb.startswith("own:"):
        return ha is not None and ha == hb
    sa, sb = specific_host(a), specific_host(b)
    if ha == hb:
        return not (sa and sb and sa != sb)
    return bool(sa and sb and sa == sb)


_NO_SHAPE = Shape()


def _shape_of(lc: LaunchContext) -> Shape:
    """The script's branches, loops and stop commands, read by the shell front end
    (`vcfg.launch.shape`); none for other files (every launch unconditional)."""
    shape = lc.file.plan.shape
    return shape if shape is not None else _NO_SHAPE


class _ShapeIndex:
    """A script's `Shape` indexed once, so that judging a pair of launches costs the
    depth of their branches, not the number of branches, loops and stops in the script
    (500 launches each in its own ``if`` were 90,000 scans of every branch)."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.stops = sorted(shape.stops)
        self.stop_seqs = sorted(shape.stop_seqs)
        self._at: dict[int, dict[int, str]] = {}
        self._looped: dict[int, bool] = {}

    def branches_at(self, offset: int) -> dict[int, str]:
        """The if/case nodes enclosing ``offset`` -> the branch it sits in."""
        got = self._at.get(offset)
        if got is None:
            got = self._at[offset] = {node: bid for s, e, node, bid in self.shape.branches if s <= offset < e}
        return got

    def stop_between(self, a: int, b: int) -> bool:
        """Whether a stop command starts at an offset x with a < x <= b."""
        i = bisect.bisect_right(self.stops, a)
        return i < len(self.stops) and self.stops[i] <= b

    def seq_stop_between(self, a: int, b: int) -> bool:
        """Whether a stop ran at a step x of the run with a < x < b."""
        i = bisect.bisect_right(self.stop_seqs, a)
        return i < len(self.stop_seqs) and self.stop_seqs[i] < b

    def loop_stops(self, offset: int) -> bool:
        """Whether a loop body enclosing ``offset`` holds a stop command."""
        got = self._looped.get(offset)
        if got is None:
            got = self._looped[offset] = any(
                ls <= offset < le and self.stop_between(ls - 1, le - 1) for ls, le in self.shape.loops
            )
        return got


def _index(run: RunContext, shape: Shape) -> _ShapeIndex:
    memo = cached(run, "shape-index", dict)
    got = memo.get(id(shape))
    if got is None or got.shape is not shape:
        got = memo[id(shape)] = _ShapeIndex(shape)
    return got


def _exclusive(index: _ShapeIndex, a: int, b: int) -> bool:
    """Whether offsets a and b sit in two different branches of one if/case."""
    pa, pb = index.branches_at(a), index.branches_at(b)
    return any(node in pa and pa[node] != bid for node, bid in pb.items())


_FENCE = lazy(rb"^[ \t>]*(```|~~~)", re.M)


def fenced_block(lc: LaunchContext, run: Optional[RunContext] = None) -> int:
    """Which code block of a Markdown or reStructuredText file holds the launch (each
    block of a document is an example of its own); 0 for other files."""
    kind = lc.file.plan.source_kind
    if kind not in ("markdown", "rst"):
        return 0
    memo: dict[int, list[int]] = cached(run, "fences", dict) if run is not None else {}
    fences = memo.get(id(lc.file))
    if fences is None:
        data = lc.file.data if isinstance(getattr(lc.file, "data", None), bytes) else lc.file.text.encode()
        if kind == "rst":
            from vcfg.launch.readers.rst import blocks

            # where each block's body starts: a launch in block k has k + 1 at or before it
            fences = memo[id(lc.file)] = [off for _lang, _a, _b, off in blocks(data)]
        else:
            fences = memo[id(lc.file)] = [m.start() for m in _FENCE.finditer(data)]
    if kind == "rst":
        return bisect.bisect_right(fences, lc.inv.span.start)
    return bisect.bisect_left(fences, lc.inv.span.start)


def overlap(a: LaunchContext, b: LaunchContext, run: RunContext) -> bool:
    """Whether launches ``a`` and ``b`` (distinct entries of the run) run at once."""
    if a is b:
        return False
    if a.file is not b.file:
        return True
    if fenced_block(a, run) != fenced_block(b, run):
        return False  # two examples of one document
    order = run.memo.get("order")
    if order is None:
        order = run.memo["order"] = {id(x): i for i, x in enumerate(run.launches)}
    first, second = (a, b) if order.get(id(a), 0) <= order.get(id(b), 0) else (b, a)
    if not first.inv.background:
        return False
    index = _index(run, _shape_of(first))
    # where each launch takes effect: its command, or the call / eval that runs it
    a1, a2 = _site(first.inv), _site(second.inv)
    if first.inv.path and second.inv.path and first.inv.path != second.inv.path and a1 == a2:
        return False  # one command on two paths through the script
    s1, s2 = first.inv.seq, second.inv.seq
    if s1 is not None and s2 is not None and index.seq_stop_between(s1, s2):
        return False  # a kill or wait ran between them (also inside one function's calls)
    if first.inv.span.start == second.inv.span.start and a1 == a2:  # unrolled by a loop
        return not index.loop_stops(a1)
    if _exclusive(index, a1, a2):
        return False
    if a1 < a2 and index.stop_between(a1, a2):  # x == a2: the body stops, then starts
        return False
    return True


def _site(inv: Any) -> int:
    return inv.site if inv.site is not None else inv.span.start


class Neighbours:
    """For each launch of ``pool``: the launches listed before it that share its host and
    run at the same time (built once per rule, indexed by host and key)."""

    def __init__(
        self, run: RunContext, pool: list[LaunchContext], keys: Optional[dict[int, Iterable[Any]]] = None
    ) -> None:
        """``keys`` (id of a launch -> its ports, GPUs, ...): only launches sharing a
        key are neighbours, so a rule over many launches with distinct ports is linear.
        Launches are indexed by (machine or ``--host`` address, key): a thousand pods
        each on its own port 8000 are never compared with each other."""
        self.run = run
        self.order = {id(x): i for i, x in enumerate(pool)}
        self.keys = {k: tuple(dict.fromkeys(v)) for k, v in keys.items()} if keys is not None else None
        self.index: dict[tuple[str, str, Any], list[LaunchContext]] = {}
        for x in pool:
            m, h = host_of(x, run), specific_host(x)
            for key in self._keys(x):
                if m is not None:
                    self.index.setdefault(("machine", m, key), []).append(x)
                if h:
                    self.index.setdefault(("address", h, key), []).append(x)

    def _keys(self, x: LaunchContext) -> tuple[Any, ...]:
        return (None,) if self.keys is None else self.keys.get(id(x), ())

    def before(self, lc: LaunchContext) -> Iterator[LaunchContext]:
        """Earliest first (the pool's order), lazily: a rule that needs only the first
        clash stops there."""
        mine = self.order.get(id(lc))
        if mine is None:
            return
        m, h = host_of(lc, self.run), specific_host(lc)
        lists: list[list[LaunchContext]] = []
        for key in self._keys(lc):
            if m is not None:
                lists.append(self.index.get(("machine", m, key), []))
            if h:
                lists.append(self.index.get(("address", h, key), []))
        order = self.order
        seen: set[int] = set()
        for other in heapq.merge(*lists, key=lambda x: order[id(x)]):
            if order[id(other)] >= mine:
                break
            if id(other) in seen:
                continue
            seen.add(id(other))
            if same_host(lc, other, self.run) and overlap(other, lc, self.run):
                yield other
