"""What `vcfg launch show` prints about a file's deployment: its member files and the
host of each launch.  Above the engine (it loads members the way a lint does), so
that vcfg/lint/deployments.py, which the engine and the config read, imports neither."""

from __future__ import annotations

from typing import Optional

from vcfg.lint.config import load_config
from vcfg.lint.context import LaunchContext, Run, RunContext
from vcfg.lint.deployments import group
from vcfg.lint.engine import _member_loader, make_target
from vcfg.lint.rules._hosts import host_label, host_of


def launch_hosts(path: str, version: Optional[str] = None) -> tuple[list[str], list[tuple[int, str, str]]]:
    """For `vcfg launch show`: the files of ``path``'s deployment, and for each launch
    of ``path`` (line, its host for people, its host key or "unknown")."""
    config = load_config()
    target = make_target(version, config)
    load = _member_loader(Run(target))
    fc = load(path)
    if fc is None:
        return [path], []
    root = config.path.parent if config.path is not None else None
    dep = next(d for d in group([fc], load, config.deployments, root) if any(f is fc for f in d.files))
    run = RunContext(files=dep.files, target=target, hosts=dep.hosts, name=dep.name)
    out = []
    for inv in fc.plan.invocations:
        lc = LaunchContext(file=fc, inv=inv)
        out.append((inv.span.line, host_label(lc, run), host_of(lc, run) or "unknown"))
    return [f.path for f in dep.files], out
