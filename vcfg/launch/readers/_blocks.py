"""What happens to a document's code blocks once its reader has found them (Markdown's
fences, reStructuredText's directives and literal blocks): shell blocks are read by the
shell front end with the file's own positions (`vcfg.launch.shell.parse_markdown`,
`parse_blocks`), a block that holds only ``vllm serve`` options is the argument list of a
launch whose model is unknown, a ``yaml`` block is read by the YAML reader whose format
it is (a dstack task, chart values), and parse problems are kept only in blocks that
start a launch.

A block is (language, first line, last line, byte offset of the first line), lines
1-based, its language lower case ("" for none).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import ReadContext

Block = tuple[str, int, int, int]

_FLAG_LANGS = {"bash", "sh", "shell", "console", "text", ""}


def read_blocks(path: str, data: bytes, plan: LaunchPlan, found: Sequence[Block], ctx: ReadContext) -> LaunchPlan:
    """``plan`` (the shell blocks read as one script) with the blocks of options and the
    YAML blocks' launches added, problems outside the blocks with a launch dropped."""
    text = data.decode("utf-8", "surrogateescape")
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
    """The block's ``--options`` (words starting with ``--``) are ``vllm serve``'s of
    the release, but for fewer than half that are neither its options nor near misses
    of them (a typo among them still leaves the block a launch, for VC001 to name;
    SGLang's ``--reasoning-parser=qwen3 --context-length=32768`` under its own heading
    is not one: one of two is an option of another server)."""
    from vcfg.launch.readers.serve_config import _catalog, _is_option
    from vcfg.suggest import did_you_mean

    names = [m.group(1) for m in map(_OPTION_WORD.match, _words("".join(body))) if m]
    if not names:
        return False
    cat = _catalog(ctx)
    others = [n for n in names if not _is_option(cat, n)]
    if len(others) == len(names):
        return False
    if not others:
        return True
    longs = [o[2:] for o in cat.long_options()]
    strangers = sum(1 for n in others if not did_you_mean(n, longs))
    return strangers * 2 < len(names)


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


#: a line that is one option and its JSON value (``--x={"a":"b"}``, ``--x [1, 2]``)
_JSON_LINE = re.compile(r"(--[A-Za-z0-9][\w.-]*[= ])(\{.*\}|\[.*\])[ \t]*$")


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
            word = Word(stripped, sp, stripped, (Run(0, len(stripped), sp, stripped.isascii()),))
            m = _JSON_LINE.match(stripped)
            if m and '"' in m.group(2) and "'" not in m.group(2):
                # `--speculative-config={"method":"mtp"}` on a line of its own: an option
                # with its JSON, as a settings field takes it (gpustack's Backend
                # Parameters), not the words bash would make of it; quoted as a shell
                # line that means that would be
                k, e = m.start(2), m.end(2)
                q = Word("'", sp, "'", (Run(0, 1, sp, False),))
                parts.extend([word.slice(0, k), q, word.slice(k, e), q, word.slice(e, len(stripped))])
            else:
                parts.append(word)
            parts.append(Word(" ", li.span(end, end), " ", (Run(0, 1, li.span(end, end), False),)))
        pos += len(raw)
    script = _join(parts, parts[0])
    found = shell.classify_argv([], [], at, path, script=script)
    return [i._replace(span=li.span(off, off)) for i in found]
