"""Docker Compose files: each service that runs vLLM (``command`` as a string or a
list, ``entrypoint``, ``environment`` as a list or a map, the image)."""

from __future__ import annotations

from typing import Any, Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="compose",
    patterns=("*.yaml", "*.yml"),
    summary="Docker Compose files: services' command, entrypoint, environment and image",
)

_SERVICE_KEYS = {"image", "build", "command", "entrypoint", "environment"}


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    from vcfg.launch.readers._yaml import documents, mapping

    docs = documents(path, text)
    doc = docs.single()
    if doc is None:
        return None
    services = mapping(mapping(doc).get("services"))
    named = [k for k, v in services.items() if _SERVICE_KEYS & mapping(v).keys()]
    if not named:
        return None
    return Evidence("compose", 0.9, (f"services with images or commands ({', '.join(named[:5])})",), docs)


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.model import MAX_LAUNCHES
    from vcfg.launch.readers._containers import container_launches, keyed
    from vcfg.launch.readers._yaml import documents
    from vcfg.launch.yaml_config import _TextLoc

    text = data.decode("utf-8", "surrogateescape")
    loc = _TextLoc(text, path)
    docs = documents(path, text)
    invocations: list[Any] = []
    unknowns: list[Any] = []
    for doc in docs.head(1):
        services = keyed(doc).get("services", (None, None))[1]
        for _, (_, service) in keyed(services).items():
            invocations.extend(container_launches(loc, service, path, unknowns, compose=True))
            if len(invocations) > MAX_LAUNCHES:
                break  # read.capped notes the rest
    return LaunchPlan(path, invocations=tuple(invocations), unknowns=tuple(unknowns), source_kind="compose")
