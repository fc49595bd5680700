"""SkyPilot task and SkyServe service YAML: the ``run:`` script with the task's
``envs:`` (``secrets:`` are given at launch: unknown); ``resources.image_id:
docker:IMAGE`` is the image it runs in."""

from __future__ import annotations

from typing import Any, Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="skypilot",
    patterns=("*.yaml", "*.yml"),
    summary="SkyPilot tasks and SkyServe services: run: with envs:",
)

_TASK_KEYS = {"resources", "setup", "envs", "num_nodes", "service", "file_mounts", "workdir", "secrets"}


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    import yaml

    from vcfg.launch.readers._yaml import documents, mapping

    docs = documents(path, text)
    first = docs.head(1)
    if docs.error is not None or not first:
        return None
    top = mapping(first[0])
    hits = sorted(_TASK_KEYS & top.keys())
    # a task file whose later documents do not parse is no task (the rest is read only then)
    if isinstance(top.get("run"), yaml.ScalarNode) and hits and docs.complete().error is None:
        return Evidence("skypilot", 0.8, (f"a SkyPilot task (run: with {', '.join(hits)})",), docs)
    return None


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.model import Run, Word
    from vcfg.launch.readers._containers import keyed, map_env, script_launches
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.yaml_config import _scalar_word, _TextLoc

    text = data.decode("utf-8", "surrogateescape")
    loc = _TextLoc(text, path)
    docs = documents(path, text)
    out: list[Any] = []
    for doc in docs.head(1):
        top = keyed(doc)
        env = map_env(loc, top.get("envs", (None, None))[1]) + map_env(loc, top.get("secrets", (None, None))[1])
        image = None
        res = keyed(top.get("resources", (None, None))[1])
        im = res.get("image_id", (None, None))[1]
        if im is not None and getattr(im, "value", "").startswith("docker:"):
            w = _scalar_word(loc, im)
            image = Word(w.value[7:], w.span, w.raw, (Run(0, len(w.value) - 7, w.span, False),))
        if "run" in top:
            out.extend(script_launches(loc, top["run"][1], path, env, image=image))
    return LaunchPlan(path, invocations=tuple(out), source_kind="skypilot")
