"""reStructuredText: the launches in code blocks (``.. code-block:: bash``, ``.. code::``,
``.. sourcecode::``, sphinx-prompt's ``.. prompt:: bash $``) and in literal blocks (a
paragraph ending in ``::``), read as the Markdown reader reads its fences
(`vcfg.launch.readers._blocks`), with every position in the ``.rst`` file.

Blocks follow docutils: a directive's ``:option:`` lines come right after it, its body
after a blank line; a body (a directive's or a literal block's) is the indented text
that follows and ends at the first non-blank line indented no more than the directive
or the paragraph (the body keeps its columns: its indentation is blanked, not removed).
A literal block has no language (unless a ``.. highlight:: LANG`` before it names one): it
is read like a Markdown fence without one.
A prompt directive's lines are commands written without their prompt.
"""

from __future__ import annotations

import re
from typing import Optional

from vcfg.launch.model import LaunchPlan
from vcfg.launch.readers import Evidence, ReadContext, Reader
from vcfg.launch.readers._blocks import Block

READER = Reader(
    name="rst",
    patterns=("*.rst", "*.rest"),
    summary="reStructuredText: code-block/code/sourcecode/prompt directives and :: literal blocks, positions in the .rst file",
)

_DIRECTIVE = re.compile(rb"^([ \t]*)\.\.[ \t]+(code-block|code|sourcecode|prompt)::(?:[ \t]+(\S+))?[^\r\n]*$")
_OPTION = re.compile(rb"^[ \t]*:[^:\s][^:]*:")
_LITERAL = re.compile(rb"^([ \t]*)(?!\.\.[ \t])(?:\S[^\r\n]*)?::[ \t]*$")
_HIGHLIGHT = re.compile(rb"^[ \t]*\.\.[ \t]+highlight::[ \t]+(\S+)")


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    n = len(blocks(text.encode("utf-8", "surrogateescape")))
    if not n:
        return Evidence("rst", 0.0, ("reStructuredText without code or literal blocks",))
    return Evidence("rst", 0.9, (f"reStructuredText with {n} code or literal block(s)",))


def _indent(line: bytes) -> int:
    """Columns of indentation (a tab to the next multiple of 8, as docutils expands it)."""
    col = 0
    for ch in line:
        if ch == 0x20:
            col += 1
        elif ch == 0x09:
            col += 8 - col % 8
        else:
            break
    return col


def blocks(data: bytes) -> list[Block]:
    """(language, first line, last line, byte offset of the first line) of each code or
    literal block's body, lines 1-based (the blank lines around it left out)."""
    lines = data.splitlines(keepends=True)
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln))
    out: list[Block] = []
    #: the language of literal blocks, as ``.. highlight:: LANG`` sets it
    literal = ""
    n = 0
    while n < len(lines):
        body = lines[n].rstrip(b"\r\n")
        h = _HIGHLIGHT.match(body)
        if h:
            literal = h.group(1).decode("utf-8", "replace").lower()
            n += 1
            continue
        d = _DIRECTIVE.match(body)
        lit = None if d else _LITERAL.match(body)
        if not d and not lit:
            n += 1
            continue
        m = d or lit
        assert m is not None
        outer = _indent(m.group(1))
        if d:
            lang = (d.group(3) or b"").decode("utf-8", "replace").lower()
            if d.group(2) == b"prompt":
                # sphinx-prompt: ``.. prompt:: bash $``; the prompt is drawn, not written
                lang = lang or "bash"
        else:
            lang = literal
        k = n + 1
        if d:
            while k < len(lines) and lines[k].strip() and _OPTION.match(lines[k]) and _indent(lines[k]) > outer:
                k += 1
        # the body: the lines indented more than the directive or paragraph
        first = last = None
        j = k
        while j < len(lines):
            if lines[j].strip():
                if _indent(lines[j]) <= outer:
                    break
                if first is None:
                    first = j
                last = j
            j += 1
        if first is not None and last is not None and (d or first > n + 1):
            out.append((lang, first + 1, last + 1, offsets[first]))
            n = last + 1
        else:
            n += 1
    return out


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch.readers._blocks import read_blocks
    from vcfg.launch.shell import parse_blocks

    found = blocks(data)
    return read_blocks(path, data, parse_blocks(data, path, found, source_kind="rst"), found, ctx)
