"""Findings on launches that run on some paths through a script only.

A script whose words depend on an ``if``/``case`` on an input (``if [ -n "$EXTRA" ];
then CMD="$CMD --enforce-eager"; fi; eval "$CMD"``) gives one launch per path, all
from one command (`Invocation.path` names each path).  A finding that holds on every
path of that command keeps its severity; one that holds on some paths only is at
most a warning, with a note naming the path (docs/launch.md, "Paths")."""

from __future__ import annotations

from typing import Any, Sequence

from vcfg.diagnostics import Diagnostic
from vcfg.records import replace


def reconcile(per_launch: Sequence[tuple[Any, list[Diagnostic]]]) -> list[Diagnostic]:
    """One rule's findings for each launch of a run, with the path rule applied."""
    groups: dict[tuple[str, Any, int], list[int]] = {}
    for k, (lc, _) in enumerate(per_launch):
        inv = lc.inv
        if inv.path:
            groups.setdefault((lc.path, inv.site, inv.span.start), []).append(k)
    if not groups:
        return [d for _, diags in per_launch for d in diags]
    partial: dict[int, str] = {}  # index of a launch on some paths -> its path
    everywhere: dict[int, set[tuple[str, Any, str]]] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        keys = [{(d.code, d.span, d.message) for d in per_launch[k][1]} for k in members]
        common = set.intersection(*keys)
        for k in members:
            partial[k] = per_launch[k][0].inv.path
            everywhere[k] = common
    out: list[Diagnostic] = []
    for k, (_lc, diags) in enumerate(per_launch):
        path = partial.get(k)
        for d in diags:
            if path is None or (d.code, d.span, d.message) in everywhere[k]:
                out.append(d)
                continue
            note = f"only on the path where {path}"
            out.append(replace(d, severity="warning" if d.severity == "error" else d.severity, notes=d.notes + (note,)))
    return out
