"""GitHub Actions workflows and composite actions: each ``run:`` step is a shell
script, with the workflow's, the job's and the step's ``env:``; ``${{ ... }}``
expressions are unknown values, except ``${{ env.NAME }}`` of a known env value."""

from __future__ import annotations

from typing import Any, Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="github_actions",
    patterns=("*.yaml", "*.yml"),
    summary="GitHub Actions workflows and composite actions: run: steps with their env:",
)


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    from vcfg.launch.readers._yaml import documents, mapping

    docs = documents(path, text)
    doc = docs.single()
    if doc is None:
        return None
    top = mapping(doc)
    if "jobs" in top and ("on" in top or "true" in top or "True" in top):
        return Evidence("github_actions", 0.9, ("a GitHub Actions workflow (on:, jobs:)",), docs)
    if "steps" in mapping(top.get("runs")):
        return Evidence("github_actions", 0.9, ("a composite GitHub Action (runs.steps)",), docs)
    return None


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    import yaml

    from vcfg.launch.model import Hole, Word
    from vcfg.launch.readers._containers import keyed, map_env, script_launches
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.yaml_config import _TextLoc

    def gha_env(node: Any) -> list[Any]:
        out = []
        for name, w, sp in map_env(loc, node):
            if "${{" in w.value:  # an expression: known when the workflow runs
                w = Word("", w.span, w.raw, (), (Hole(0, f"{name} is a GitHub Actions expression", w.span),))
            out.append((name, w, sp))
        return out

    text = data.decode("utf-8", "surrogateescape")
    loc = _TextLoc(text, path)
    docs = documents(path, text)
    out: list[Any] = []
    first = docs.head(1)
    if not first:
        return LaunchPlan(path, source_kind="github-actions")
    top = keyed(first[0])
    wf_env = gha_env(top.get("env", (None, None))[1])
    jobs: list[tuple[list[Any], Any]] = []
    for _, (_, job) in keyed(top.get("jobs", (None, None))[1]).items():
        jobs.append((wf_env + gha_env(keyed(job).get("env", (None, None))[1]), keyed(job).get("steps")))
    runs = keyed(top.get("runs", (None, None))[1])
    if "steps" in runs:
        jobs.append((wf_env, runs["steps"]))
    for env, steps in jobs:
        steps_node = steps[1] if steps else None
        if not isinstance(steps_node, yaml.SequenceNode):
            continue
        for step in steps_node.value:
            s = keyed(step)
            if "run" not in s:
                continue
            step_env = env + gha_env(s.get("env", (None, None))[1])
            out.extend(script_launches(loc, s["run"][1], path, step_env, expressions="gha"))
    return LaunchPlan(path, invocations=tuple(out), source_kind="github-actions")
