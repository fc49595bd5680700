"""Markdown: the launches in fenced shell blocks (```bash, ```sh, ```console ...),
read by the shell front end with every position in the ``.md`` file."""

from __future__ import annotations

import re
from typing import Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="markdown",
    patterns=("*.md", "*.markdown"),
    summary="Markdown: fenced bash/sh/console blocks, `$ ` prompts stripped, positions in the .md file",
)

_FENCE = re.compile(r"^[ \t>]*(```|~~~)", re.M)


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    n = len(_FENCE.findall(text)) // 2
    if not n:
        return Evidence("markdown", 0.0, ("Markdown without fenced code blocks",))
    return Evidence("markdown", 0.9, (f"Markdown with {n} fenced code block(s)",))


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.shell import parse_markdown

    return parse_markdown(data, path)
