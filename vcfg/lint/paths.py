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


def path_groups(launches: Sequence[Any]) -> list[list[int]]:
    """The launches of one command that runs on several paths (indexes into
    ``launches``, two or more each): computed once per lint, not per rule."""
    groups: dict[tuple[str, Any, int], list[int]] = {}
    for k, lc in enumerate(launches):
        inv = lc.inv
        if inv.path:
            groups.setdefault((lc.path, inv.site, inv.span.start), []).append(k)
    return [members for members in groups.values() if len(members) >= 2]


def reconcile(
    launches: Sequence[Any], per_launch: Sequence[list[Diagnostic]], groups: list[list[int]]
) -> list[Diagnostic]:
    """One rule's findings for each launch of a run (``per_launch[k]`` those of
    ``launches[k]``), with the path rule applied to the launches of each of
    ``groups`` (`path_groups`)."""
    partial: dict[int, str] = {}  # index of a launch on some paths -> its path
    everywhere: dict[int, set[tuple[str, Any, str]]] = {}
    for members in groups:
        if not any(per_launch[k] for k in members):
            continue
        keys = [{(d.code, d.span, d.message) for d in per_launch[k]} for k in members]
        common = set.intersection(*keys)
        for k in members:
            partial[k] = launches[k].inv.path
            everywhere[k] = common
    out: list[Diagnostic] = []
    for k, diags in enumerate(per_launch):
        if not diags:
            continue
        path = partial.get(k)
        for d in diags:
            if path is None or (d.code, d.span, d.message) in everywhere[k]:
                out.append(d)
                continue
            note = f"only on the path where {path}"
            out.append(replace(d, severity="warning" if d.severity == "error" else d.severity, notes=d.notes + (note,)))
    return out
