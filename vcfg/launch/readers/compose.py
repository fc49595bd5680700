"""Docker Compose files: each service that runs vLLM (``command`` as a string or a
list, ``entrypoint``, ``environment`` as a list or a map, the image)."""

from __future__ import annotations

from typing import Optional

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
    if docs.error is not None or len(docs.nodes) != 1:
        return None
    services = mapping(mapping(docs.nodes[0]).get("services"))
    named = [k for k, v in services.items() if _SERVICE_KEYS & mapping(v).keys()]
    if not named:
        return None
    return Evidence("compose", 0.9, (f"services with images or commands ({', '.join(named[:5])})",), docs)


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.yaml_config import parse_manifest

    return parse_manifest(data, path, compose=True)._replace(source_kind="compose")
