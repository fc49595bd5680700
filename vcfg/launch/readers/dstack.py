"""dstack configurations (``type: task`` / ``service`` / ``dev-environment``, usually
``*.dstack.yml``): the ``commands:`` list is a script, one shell line per item, run
with the configuration's ``env:`` (a list of ``NAME=value``, a bare ``NAME`` given at
apply time, or a mapping) in its ``image:``.  The same reading serves a dstack
configuration in a Markdown ```yaml block (`block_launches`)."""

from __future__ import annotations

from typing import Any, Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="dstack",
    patterns=("*.yaml", "*.yml"),
    summary="dstack tasks and services: commands: with env: in image:",
)

#: dstack's configuration types that run ``commands:``
_TYPES = ("task", "service", "dev-environment")


def is_dstack(top: dict[str, Any]) -> bool:
    """A ``type:`` dstack knows together with a ``commands:`` list of strings."""
    import yaml

    t, cmds = top.get("type"), top.get("commands")
    return (
        isinstance(t, yaml.ScalarNode)
        and t.value in _TYPES
        and isinstance(cmds, yaml.SequenceNode)
        and bool(cmds.value)
        and all(isinstance(c, yaml.ScalarNode) for c in cmds.value)
    )


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    from vcfg.launch.readers._yaml import documents, mapping

    docs = documents(path, text)
    first = docs.head(1)
    if docs.error is not None or not first:
        return None
    top = mapping(first[0])
    if is_dstack(top) and docs.complete().error is None:
        return Evidence("dstack", 0.8, (f"a dstack {top['type'].value} (type: with commands:)",), docs)
    return None


def launches(loc: Any, doc: Any, path: str) -> list[Any]:
    """The launches of one dstack configuration's ``commands:``."""
    import yaml

    from vcfg.launch import shell
    from vcfg.launch.model import Hole, Run, Word
    from vcfg.launch.readers._containers import _join, container_env, keyed
    from vcfg.launch.yaml_config import _node_span, _scalar_word
    from vcfg.span import Span

    top = keyed(doc)
    env = container_env(loc, top, [], keys=("env",))
    node = top.get("env", (None, None))[1]
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:  # a bare NAME: its value is given when the run is applied
            if isinstance(item, yaml.ScalarNode) and "=" not in item.value and item.value.strip():
                sp = _node_span(loc, item)
                name = item.value.strip()
                env.append((name, Word("", sp, "", (), (Hole(0, f"{name} is given at apply time", sp),)), sp))
    image = None
    im = top.get("image", (None, None))[1]
    if isinstance(im, yaml.ScalarNode) and im.value:
        image = _scalar_word(loc, im)
    cmds = top["commands"][1]
    parts: list[Word] = []
    for c in cmds.value:
        w = _scalar_word(loc, c)
        end = _node_span(loc, c)
        nl = Span(end.end, end.end, end.end_line, end.end_col, end.end_line, end.end_col, end.file)
        parts.extend([w, Word("\n", nl, "\n", (Run(0, 1, nl, False),))])
    script = _join(parts, parts[0])
    found: list[Any] = shell.classify_argv([], env, _node_span(loc, cmds), path, script=script)
    return [i._replace(image=image) for i in found] if image is not None else found


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.yaml_config import _TextLoc

    text = data.decode("utf-8", "surrogateescape")
    loc = _TextLoc(text, path)
    out: list[Any] = []
    for doc in documents(path, text).head(1):
        out.extend(launches(loc, doc, path))
    return LaunchPlan(path, invocations=tuple(out), source_kind="dstack")


def block_launches(path: str, text: str, a: int, b: int) -> list[Any]:
    """The launches of a dstack configuration in lines ``a``..``b`` (1-based) of a
    Markdown file, with positions in that file; [] for any other YAML."""
    import yaml

    from vcfg.launch.readers._yaml import mapping
    from vcfg.launch.yaml_bounds import BoundedLoader
    from vcfg.launch.yaml_config import _TextLoc

    lines = text.splitlines(keepends=True)
    # every character outside the block becomes a space: indexes stay the file's own
    blanked = "".join(
        ln if a <= n <= b else "".join(ch if ch in "\r\n" else " " for ch in ln) for n, ln in enumerate(lines, 1)
    )
    body = "".join(lines[a - 1 : b])
    if "commands" not in body or "type" not in body:
        return []
    try:
        doc = yaml.compose(blanked, Loader=BoundedLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return []
    if not is_dstack(mapping(doc)):
        return []
    return launches(_TextLoc(text, path), doc, path)
