"""Markdown: the launches in fenced shell blocks (```bash, ```sh, ```console ...),
read by the shell front end with every position in the ``.md`` file.

A block that holds only options (its first line starts with ``--``), at least half of
them ``vllm serve`` options of the release, is the argument list of a ``vllm serve`` whose
model is unknown, so its values (JSON included) are still checked; a block of another
program's options (guidellm's ``--backend kind=...``) is not a launch.  Parse problems are reported only in blocks that start a launch:
a block of program output (a benchmark's result table under ```shell) is not a
script anyone runs.
"""

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


def blocks(text: str) -> list[tuple[str, int, int, int]]:
    """(language, first line, last line, byte offset of the first line) of each
    fenced block's body, lines 1-based."""
    from vcfg.launch.shell import markdown_fence

    out = []
    fence = None
    lang = ""
    start = 0
    offset = 0
    body_offset = 0
    for n, line in enumerate(text.splitlines(keepends=True), 1):
        body = line.rstrip("\r\n")
        if fence is None:
            m = markdown_fence(body)
            if m:
                fence, lang, start, body_offset = (
                    m.group(2)[0] * 3,
                    m.group(3).lower(),
                    n + 1,
                    offset + len(line.encode("utf-8", "surrogateescape")),
                )
        elif body.strip(" \t>").startswith(fence) and not body.strip(" \t>").strip(fence[0]):
            out.append((lang, start, n - 1, body_offset))
            fence = None
        offset += len(line.encode("utf-8", "surrogateescape"))
    return out


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.readers._blocks import read_blocks
    from vcfg.launch.shell import parse_markdown

    text = data.decode("utf-8", "surrogateescape")
    return read_blocks(path, data, parse_markdown(data, path), blocks(text), ctx)
