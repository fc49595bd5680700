"""A big script's syntax tree, one piece at a time, cut at top-level statements.

tree-sitter builds a script's whole tree before the interpreter reads its first
command: about 80 bytes of tree per byte of script, so 20 MiB of launches took 1.7 GB
and 4 s of parsing, though reading stops at the 500th launch (`MAX_LAUNCHES`), a few
kilobytes in.  A script longer than `CHUNK` is parsed a piece at a time instead, each
piece limited with tree-sitter's ``included_ranges`` (node positions stay the file's
own): every top-level statement of a piece but its last is kept; the last, which
may run past the piece's end (a ``\\`` continuation, an ``if`` or a heredoc cut in
two), starts the next piece.  The interpreter asks for the next piece only when it
has run the last one, so a script it stops reading (launch cap, `exit`, the step cap
of `vcfg.launch.shell`) is parsed no further.

A piece keeps at least half of its bytes, else it is parsed again twice as large, so
the bytes parsed stay within twice the bytes read; one statement larger than
`MAX_STATEMENT` (a function or ``{ }`` holding megabytes) is where reading stops,
with a note.  A script of at most `CHUNK` bytes (every real one seen: the largest in
the corpus is 9 KB) is parsed whole, as before.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Optional, Sequence

from vcfg.launch.model import LineIndex, ParseProblem

#: scripts up to this size are parsed whole; bigger ones a piece of this size at a time
CHUNK = 256 * 1024
#: a top-level statement may be this large; reading stops at one larger
MAX_STATEMENT = 2 * 1024 * 1024


class Program:
    """The top-level statements read from the pieces of one script, standing in for
    a tree's root node where the whole tree is walked (`vcfg.launch.shape`)."""

    type = "program"
    is_named = True

    def __init__(self, children: list[Any]) -> None:
        self.children = children


def top_level(
    data: bytes, li: LineIndex, problems: Optional[list[ParseProblem]] = None, last_parse: Optional[list[Any]] = None
) -> Iterator[Sequence[Any]]:
    """The children of the script's tree (statements, comments and the separators
    between them), piece by piece.  ``problems``: where the parse problems of the
    pieces read go (syntax errors, stray keywords, a parse stopped by its budget,
    the statement size cap), else they are not looked for.  ``last_parse``: the last parse
    of the document, for a script read whole (`shell_tree.parse_stopped`)."""
    from vcfg.launch import shell_tree

    if len(data) <= CHUNK:
        tree, stop = shell_tree.parse_stopped(data, last_parse)
        root = tree.root_node
        if problems is not None:
            shell_tree.stop_problem(li, problems, stop)
            shell_tree._scan_problems(root, li, problems)
            shell_tree.stray_keywords(root, li, problems)
        yield root.children
        return
    text = shell_tree._parse_text(data)
    n = len(data)
    a, row = 0, 0
    found = [0, 0]  # syntax problems, stray keywords reported so far (their limits are per script)
    while a < n:
        size = CHUNK
        while True:
            b = _cut(data, a, size)
            tree, stop = _parse_range(text, a, b, row, li)
            kids = tree.root_node.children
            if stop is not None or b >= n:
                keep, cut = list(kids), n  # the rest of the script: all of it
                break
            end = next((k for k in reversed(kids) if k.is_named and k.end_byte > k.start_byte), None)
            if (
                end is not None
                and end.type == "comment"
                and end.end_byte >= b
                and tree.root_node.type == "program"
                and not any(k.has_error for k in kids)
            ):
                # cut inside a comment (10 MB of `#` on one line): it runs to its line's end,
                # where the next piece starts; nothing in it is a statement
                keep = list(kids)
                nl = data.find(b"\n", b)
                cut = n if nl < 0 else nl
                break
            last = _kept(kids, data)
            # the statements before the first with a syntax error: one cut in two parses
            # as fragments, or the whole piece as an ERROR (a `for` header cut from its
            # `done`); parsed again twice as large, the error goes if the cut made it
            clean = last if tree.root_node.type == "program" else 0
            clean = next((i for i in range(clean) if kids[i].has_error), clean)
            cut = kids[clean].start_byte if clean < len(kids) else a
            if cut - a >= size // 2:
                keep = list(kids[:clean])
                break
            cut = kids[last].start_byte if last < len(kids) else a
            if size >= MAX_STATEMENT and cut > a:  # errors that stay: read as a whole parse would
                keep = list(kids[:last])
                break
            if size >= MAX_STATEMENT:  # one statement larger than the cap starts here
                keep = []
                if problems is not None:
                    problems.append(
                        ParseProblem(
                            "limit",
                            f"a command of more than {_size(MAX_STATEMENT)} starts here (a function or block "
                            "holding the rest of the script): vcfg reads scripts a piece at a time and stops here",
                            li.span(a, a),
                        )
                    )
                cut = n
                break
            size *= 2
        if problems is not None:
            _problems(tree.root_node, keep, li, problems, found, stop)
        if keep:
            yield keep
        if stop is not None:
            return
        row += data.count(b"\n", a, cut)
        a = cut


def _kept(kids: Sequence[Any], data: bytes) -> int:
    """How many of a piece's top-level children are complete: all before its last
    statement (which may run past the piece: ``vllm serve m \\`` at its end) and before
    any statement not separated from that one by a newline, ``;`` or ``&`` (an
    unterminated ``"`` makes an ERROR after the command it belongs to; an empty ERROR
    can follow at the very end)."""
    named = [i for i, k in enumerate(kids) if k.is_named and k.end_byte > k.start_byte]
    if not named:
        return len(kids)
    j = named.pop()
    while named and not _SEPARATOR.search(data, kids[named[-1]].end_byte, kids[j].start_byte):
        j = named.pop()
    return j


_SEPARATOR = re.compile(rb"[\n;&]")


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def _cut(data: bytes, a: int, size: int) -> int:
    """Where a piece from ``a`` ends: after the first newline past ``a + size`` (near it:
    a script of one 20 MiB line is cut inside the line)."""
    b = a + size
    if b >= len(data):
        return len(data)
    nl = data.find(b"\n", b, b + 4096)
    return nl + 1 if nl >= 0 else b


def _parse_range(text: bytes, a: int, b: int, row: int, li: LineIndex) -> tuple[Any, Optional[int]]:
    """The tree of ``text[a:b]`` with the file's positions (row: the line of ``a``, 0-based),
    and where the read budget stopped it (`shell_tree.READ_BUDGET_PER_BYTE`), else None."""
    import tree_sitter

    from vcfg.launch import shell_tree

    parser = shell_tree._parser()
    col = a - (text.rfind(b"\n", 0, a) + 1)
    brow = row + text.count(b"\n", a, b)
    bcol = b - (text.rfind(b"\n", 0, b) + 1)
    budget = shell_tree.READ_BUDGET_FLOOR + shell_tree.READ_BUDGET_PER_BYTE * (b - a)
    offsets: list[int] = []
    fed = 0

    def read(offset: int, _point: Any) -> bytes:
        nonlocal fed
        if fed > budget:
            return b""
        offsets.append(offset)
        chunk = text[offset : min(offset + shell_tree._CHUNK, b)]
        fed += len(chunk)
        return chunk

    parser.included_ranges = [tree_sitter.Range((row, col), (brow, bcol), a, b)]
    try:
        tree = parser.parse(read)
    finally:
        parser.included_ranges = []
    stop = min(offsets[len(offsets) // 2 :]) if fed > budget and offsets else None
    return tree, stop


def _problems(
    root: Any, keep: list[Any], li: LineIndex, out: list[ParseProblem], found: list[int], stop: Optional[int]
) -> None:
    """The parse problems of the statements kept from one piece (the rest of the piece
    is parsed again with the next one)."""
    from vcfg.launch import shell_tree

    if stop is not None:
        shell_tree.stop_problem(li, out, stop)
    if not keep:
        return
    start, end = keep[0].start_byte, keep[-1].end_byte
    for kid in keep:
        if kid.has_error and found[0] < 50:
            before = len(out)
            shell_tree._scan_problems(kid, li, out, 50 - found[0])
            found[0] += len(out) - before
    if found[1] < 20:
        before = len(out)
        shell_tree.stray_keywords(root, li, out, 20 - found[1], start, end)
        found[1] += len(out) - before
