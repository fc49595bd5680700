"""Kubernetes manifests: every container of every object that runs vLLM, a vLLM
benchmark or a proxy (``command`` + ``args``, ``env``, the image)."""

from __future__ import annotations

import re
from typing import Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="kubernetes",
    patterns=("*.yaml", "*.yml"),
    summary="Kubernetes manifests (any object with containers), multi-document files",
)

_API_LINE = re.compile(r"^apiVersion:[ \t]*\S", re.M)
_KIND_LINE = re.compile(r"^kind:[ \t]*\S", re.M)


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    from vcfg.launch.readers._yaml import documents, mapping, scalar

    docs = documents(path, text)
    if docs.error is not None:
        if _API_LINE.search(text) and _KIND_LINE.search(text):
            return Evidence("kubernetes", 0.8, ("apiVersion and kind lines, though the YAML does not parse",))
        return None
    kinds = []
    fragment = False
    for node in docs.nodes:
        m = mapping(node)
        if "apiVersion" in m and "kind" in m:
            kinds.append(scalar(m["kind"]) or "?")
        elif "containers" in m or "spec" in m:
            fragment = True
    if kinds:
        shown = ", ".join(dict.fromkeys(kinds))
        return Evidence("kubernetes", 1.0, (f"Kubernetes objects ({shown})",), docs)
    if fragment:
        return Evidence("kubernetes", 0.6, ("a top-level containers or spec key, as in a Kubernetes object",), docs)
    return None


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.yaml_config import parse_manifest

    return parse_manifest(data, path)._replace(source_kind="kubernetes")
