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
        env = _native_env(loc, top) + map_env(loc, top.get("envs", (None, None))[1])
        env += map_env(loc, top.get("secrets", (None, None))[1])
        image = None
        res = keyed(top.get("resources", (None, None))[1])
        im = res.get("image_id", (None, None))[1]
        if im is not None and getattr(im, "value", "").startswith("docker:"):
            w = _scalar_word(loc, im)
            image = Word(w.value[7:], w.span, w.raw, (Run(0, len(w.value) - 7, w.span, False),))
        if "run" in top:
            out.extend(script_launches(loc, top["run"][1], path, env, image=image))
    return LaunchPlan(path, invocations=tuple(out), source_kind="skypilot")


#: what SkyPilot sets for a task's ``run:`` on each node, by its own name: known from the
#: task where it says (``num_nodes``, ``resources.accelerators``), else unknown
_NATIVE = ("SKYPILOT_NODE_RANK", "SKYPILOT_NODE_IPS", "SKYPILOT_NUM_NODES", "SKYPILOT_NUM_GPUS_PER_NODE",
           "SKYPILOT_TASK_ID", "SKYPILOT_CLUSTER_INFO", "SKYPILOT_SERVE_REPLICA_ID")  # fmt: skip


def _native_env(loc: Any, top: dict[str, Any]) -> list[Any]:
    """SkyPilot's own variables (its docs, "SkyPilot environment variables"): a script
    that reads ``${SKYPILOT_NUM_GPUS_PER_NODE:-1}`` gets the task's GPU count, not the
    default of an unset variable."""
    import yaml

    from vcfg.launch.model import Hole, Run, Word
    from vcfg.launch.readers._containers import keyed
    from vcfg.launch.yaml_config import _node_span

    run_key = top["run"][0] if "run" in top else None
    if run_key is None:
        return []
    sp = _node_span(loc, run_key)
    nodes = top.get("num_nodes", (None, None))[1]
    n_nodes = nodes.value if isinstance(nodes, yaml.ScalarNode) and nodes.value.isdigit() else None
    if nodes is None:
        n_nodes = "1"
    res = keyed(top.get("resources", (None, None))[1])
    known = {
        "SKYPILOT_NUM_NODES": n_nodes,
        "SKYPILOT_NUM_GPUS_PER_NODE": _gpus(res.get("accelerators", (None, None))[1]),
    }
    if n_nodes == "1":
        known["SKYPILOT_NODE_RANK"] = "0"
    out = []
    for name in _NATIVE:
        text = known.get(name)
        if text is not None:
            w = Word(text, sp, text, (Run(0, len(text), sp, False),))
        else:
            w = Word("", sp, "", (), (Hole(0, f"{name} is set by SkyPilot when the task runs", sp),))
        out.append((name, w, sp))
    return out


def _gpus(node: Any) -> Optional[str]:
    """The GPUs per node of ``resources.accelerators`` (``H100:8``, ``{A100: 8}``, or
    alternatives that all have the same count), else None."""
    import yaml

    names: list[str] = []
    if isinstance(node, yaml.ScalarNode):
        names = [node.value]
    elif isinstance(node, yaml.SequenceNode):
        names = [n.value for n in node.value if isinstance(n, yaml.ScalarNode)]
    elif isinstance(node, yaml.MappingNode):
        counts = {v.value if isinstance(v, yaml.ScalarNode) and v.value not in ("", "null", "~") else "1"
                  for _, v in node.value}  # fmt: skip
        return counts.pop() if len(counts) == 1 and next(iter(counts)).isdigit() else None
    counts = {(n.partition(":")[2] or "1").strip() for n in names if n.strip()}
    if len(counts) == 1:
        c = counts.pop()
        return c if c.isdigit() else None
    return None
