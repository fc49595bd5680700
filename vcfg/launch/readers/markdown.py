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
from typing import Any, Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="markdown",
    patterns=("*.md", "*.markdown"),
    summary="Markdown: fenced bash/sh/console blocks, `$ ` prompts stripped, positions in the .md file",
)

_FENCE = re.compile(r"^[ \t>]*(```|~~~)", re.M)
_FLAG_LANGS = {"bash", "sh", "shell", "console", "text", ""}


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
    from vcfg.launch.shell import parse_markdown

    plan = parse_markdown(data, path)
    text = data.decode("utf-8", "surrogateescape")
    found = blocks(text)
    extra = []
    flag_blocks = []
    lines = text.splitlines(keepends=True)
    for lang, a, b, off in found:
        if lang not in _FLAG_LANGS or a > b:
            continue
        first = next((ln.strip() for ln in lines[a - 1 : b] if ln.strip()), "")
        if (
            first.startswith("--")
            and not any(a <= i.span.line <= b for i in plan.invocations)
            and _mostly_vllm_options(lines[a - 1 : b], ctx)
        ):
            extra.extend(_flags_block(path, data, lines, a, b, off))
            flag_blocks.append((a, b))
    for lang, a, b, _off in found:
        if lang in ("yaml", "yml") and a <= b:
            from vcfg.launch.readers import dstack, helm_values

            extra.extend(dstack.block_launches(path, text, a, b) or helm_values.block_launches(path, text, a, b))
    with_launch = [(a, b) for _, a, b, _ in found if any(a <= i.span.line <= b for i in [*plan.invocations, *extra])]
    # in a block of options, each line is one more part of the list, not a command
    problems = tuple(
        p
        for p in plan.problems
        if any(a <= p.span.line <= b for a, b in with_launch) and not any(a <= p.span.line <= b for a, b in flag_blocks)
    )
    invocations = tuple(sorted([*plan.invocations, *extra], key=lambda i: i.span.start))
    return plan._replace(invocations=invocations, problems=problems)


_OPTION_WORD = re.compile(r"--([A-Za-z0-9][A-Za-z0-9_.-]*)")


def _mostly_vllm_options(body: list[str], ctx: ReadContext) -> bool:
    """At least half of the block's ``--options`` (words starting with ``--``) are ``vllm serve`` options of the
    release (a typo among them still leaves the block a launch, for VC001 to name)."""
    from vcfg.launch.readers.serve_config import _catalog, _is_option

    names = [m.group(1) for m in map(_OPTION_WORD.match, _words("".join(body))) if m]
    if not names:
        return False
    cat = _catalog(ctx)
    known = sum(1 for n in names if _is_option(cat, n))
    return known > 0 and known * 2 >= len(names)


def _words(text: str) -> list[str]:
    """The block's shell words: an option written inside another option's quoted value
    (``--server_args="--enable-auto-tool-choice ..."``, ns eval's) is part of that value,
    not an option of its own.  A block the shell cannot split (an open quote) falls back
    to its blank-separated words."""
    import shlex

    joined = re.sub(r"\\\r?\n", " ", text)
    try:
        return shlex.split(joined, comments=False)
    except ValueError:
        return joined.split()


def _flags_block(path: str, data: bytes, lines: list[str], a: int, b: int, off: int) -> list[Any]:
    """``vllm serve "$MODEL" <the block's lines joined>``: each line of options is one
    more part of the same argument list."""
    from vcfg.launch import shell
    from vcfg.launch.model import LineIndex, Run, Word
    from vcfg.launch.readers._containers import _join

    li = LineIndex(data, path)
    at = li.span(off, off)
    parts = [Word('vllm serve "$__vcfg_model" ', at, "", (Run(0, 27, at, False),))]
    pos = off
    for line in lines[a - 1 : b]:
        raw = line.encode("utf-8", "surrogateescape")
        body = line.rstrip("\r\n")
        stripped = body.lstrip(" \t>")
        lead = len(body) - len(stripped)
        if stripped.startswith("$ "):
            stripped, lead = stripped[2:], lead + 2
        if (len(stripped) - len(stripped.rstrip("\\"))) % 2:
            # a continuation: bash joins the next line here (the joining blank replaces the
            # newline), so the backslash must not escape that blank
            stripped = stripped[:-1]
        start = pos + len(body[:lead].encode("utf-8", "surrogateescape"))
        end = start + len(stripped.encode("utf-8", "surrogateescape"))
        if stripped.strip():
            sp = li.span(start, end)
            parts.append(Word(stripped, sp, stripped, (Run(0, len(stripped), sp, stripped.isascii()),)))
            parts.append(Word(" ", li.span(end, end), " ", (Run(0, 1, li.span(end, end), False),)))
        pos += len(raw)
    script = _join(parts, parts[0])
    found = shell.classify_argv([], [], at, path, script=script)
    return [i._replace(span=li.span(off, off)) for i in found]
