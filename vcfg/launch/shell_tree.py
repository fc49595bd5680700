"""The bash front end's syntax tree and positions: tree-sitter-bash loaded cheaply,
a tree for any bytes, where each byte of a script or of a string bash re-reads
(``eval``, ``bash -c``) sits in the file, and the parse errors of a tree."""

from __future__ import annotations

import os
import re
from typing import Any, Iterator, Optional, Sequence

from vcfg.launch.model import LineIndex, ParseProblem, Run, Span, Word

_PARSER: Any = None


#: Every byte >= 0x80 becomes "x" before tree-sitter sees the text.  bash's
#: syntax is ASCII, so the tree is the same (a non-ASCII character is a word
#: character), offsets do not move (values are read from the original bytes),
#: and tree-sitter-bash 0.25's scanner, which passes code points to isalpha(),
#: cannot crash on large ones (seen with random input: SIGSEGV in scanner.c).
#: A NUL byte becomes "x" too: bash drops NULs from a script (so the word goes on),
#: and tree-sitter's error recovery over a run of NULs takes quadratic time
#: (30 KB: 11 s); the NUL is still reported (VC000) from the original bytes.
_ASCII_ONLY = b"x" + bytes(range(1, 128)) + b"x" * 128

#: A bare ``==`` or ``=~`` that ends a command (``vllm serve m --x ==``): bash passes
#: it as a word, but tree-sitter-bash 0.25 reads it as the start of a test and makes
#: an ERROR node (or, before a newline, takes the next line's words as its
#: arguments).  The text tree-sitter sees has ``xx`` there (same length, a plain
#: word), so the tree is bash's and every word's text and position, read from the
#: original bytes, are exact.  Not inside ``[[ ]]``/``(( ))`` opened earlier on its
#: line (bash reads an operator there); elsewhere (quotes, comments, heredocs) the
#: change cannot move anything.
_END_OP = re.compile(rb"(?:(?<=[ \t;&|(])|^)(?:==|=~)(?=[ \t]*(?:\\?\r?\n|[;&|)]|\Z)|[ \t]+#)", re.M)


#: ``${A[@]:$off:$len}``, ``${S:$off}``: tree-sitter-bash 0.25 makes an ERROR of an
#: offset or length written as ``$name`` (bash reads both as arithmetic, where ``name``
#: alone is the same variable).  The text tree-sitter sees has a blank for that ``$``
#: (same length): the tree is bash's, and the name is read from the original bytes.
_SUBSTRING = re.compile(rb"\$\{[#!]?[A-Za-z_][A-Za-z0-9_]*(?:\[[@*]\])?(:\$)[A-Za-z_][A-Za-z0-9_]*(?:(:\$)[A-Za-z_])?")


def _substrings(text: bytes) -> bytes:
    if b":$" not in text:
        return text
    out: Optional[bytearray] = None
    for m in _SUBSTRING.finditer(text):
        for g in (1, 2):
            if m.start(g) >= 0:
                out = out if out is not None else bytearray(text)
                out[m.start(g) + 1] = 0x20
    return text if out is None else bytes(out)


def _parse_text(data: bytes) -> bytes:
    """The bytes tree-sitter reads for ``data``: `_ASCII_ONLY`, then `_SUBSTRING`, then
    `_END_OP`, then `_CR`."""
    text = _substrings(data.translate(_ASCII_ONLY))
    if b"==" not in text and b"=~" not in text:
        return _cr(text)
    out: Optional[bytearray] = None
    for m in _END_OP.finditer(text):
        a = m.start()
        line = text[text.rfind(b"\n", 0, a) + 1 : a]
        if line.count(b"[[") > line.count(b"]]") or line.count(b"((") > line.count(b"))"):
            continue
        if out is None:
            out = bytearray(text)
        out[a : a + 2] = b"xx"
    return _cr(text if out is None else bytes(out))


#: A carriage return is an ordinary character to bash, never a blank: a CRLF script's
#: line-end words keep it (``--port 8000\r\n`` passes ``8000\r``), ``\`` before it
#: escapes it instead of continuing the line, and ``then\r`` is no keyword.
#: tree-sitter-bash takes it for white space (and ``\\\r\n`` for a continuation),
#: so the text it reads has a plain word character there (same length); words are
#: read from the original bytes, with their ``\r``.
def _cr(text: bytes) -> bytes:
    return text.replace(b"\r", b"x") if b"\r" in text else text


#: Bytes tree-sitter may read per byte of a script (plus a floor) before vcfg stops
#: feeding it.  A valid script is read about 1.5 times over (2.7 at most in the
#: corpus scripts; 42 times for the 7 KB of benchmark output in the shell blocks of
#: the corpus' Kimi-K2.md, 0.3 MB), but error recovery over a long run that never
#: parses (30 KB of ``)``, ``a)a)a)...``, ``>|>|...``) re-reads the run from its start
#: for each byte of it: 30 KB took 8-30 s (75 MB read).  The budget counts bytes handed
#: to the parser, so where it stops depends on the text only, never on the machine.
READ_BUDGET_PER_BYTE = 16
READ_BUDGET_FLOOR = 4 * 1024 * 1024
_CHUNK = 1024


def _ts_parse(data: bytes) -> Any:
    """The tree of ``data`` (`parse_stopped` without where the budget stopped it)."""
    return parse_stopped(data)[0]


def parse_stopped(data: bytes, last: Optional[list[Any]] = None) -> tuple[Any, Optional[int]]:
    """The tree of ``data``, and the offset where the read budget stopped it (see
    `READ_BUDGET_PER_BYTE`; None if it was read to the end), for `stop_problem`.

    ``last``: ``[text, tree]`` of the last parse of the same document (the language
    server), or ``[]``; the new ones are put in it.  When the last tree has no error,
    tree-sitter parses the new text reusing it (the edit between the two texts applied
    to a copy: the old tree and its nodes stay as they were); a new tree with an error
    is parsed again from scratch, so that the read budget applies as it does without
    ``last`` (an error-free text never reaches it)."""
    text = _parse_text(data)
    if last is not None:
        tree = _reparse(text, last)
        if tree is not None:
            last[:] = [text, tree]
            return tree, None
    budget = READ_BUDGET_FLOOR + READ_BUDGET_PER_BYTE * len(text)
    offsets: list[int] = []
    fed = 0

    def read(offset: int, _point: Any) -> bytes:
        nonlocal fed
        if fed > budget:
            return b""
        offsets.append(offset)
        chunk = text[offset : offset + _CHUNK]
        fed += len(chunk)
        return chunk

    tree = _parser().parse(read)
    stop = min(offsets[len(offsets) // 2 :]) if fed > budget and offsets else None
    if last is not None:
        last[:] = [text, tree] if stop is None and not tree.root_node.has_error else []
    # the run being re-read: where the last half of the reads started from
    return tree, stop


def _reparse(text: bytes, last: list[Any]) -> Any:
    """``text``'s tree from the last error-free one (`parse_stopped`), or None."""
    if len(last) != 2:
        return None
    before, old = last
    n = min(len(before), len(text))
    a = _common_prefix(before, text, n)
    s = _common_suffix(before, text, n - a)
    end_old, end_new = len(before) - s, len(text) - s

    def point(t: bytes, k: int) -> tuple[int, int]:
        return t.count(b"\n", 0, k), k - (t.rfind(b"\n", 0, k) + 1)

    tree = old.copy()
    tree.edit(a, end_old, end_new, point(before, a), point(before, end_old), point(text, end_new))
    new = _parser().parse(text, tree)
    return None if new.root_node.has_error else new


def stop_problem(li: LineIndex, out: list[ParseProblem], at: Optional[int]) -> None:
    """The note for a script (or a piece of one, `vcfg.launch.chunks`) whose parse the
    read budget stopped at ``at`` (`parse_stopped`); nothing when ``at`` is None."""
    if at is not None:
        k = li.data.rfind(b"\n", 0, at) + 1  # from the start of its line
        out.append(
            ParseProblem(
                "syntax",
                "bash cannot parse the text from here on, and reading it would take minutes "
                "(tree-sitter's error recovery over it): vcfg stops reading this script here",
                li.span(k, k + 1),
            )
        )


def parse_tree(data: bytes) -> Any:
    """The tree-sitter tree of a script, safe for any bytes (see `_ASCII_ONLY`):
    byte offsets are the script's own; read text from ``data``, not the nodes."""
    return _ts_parse(data)


def _bash_language() -> Any:
    """tree-sitter-bash's language pointer.  Its package ``__init__`` imports
    ``importlib.resources`` (about 8 ms, 40% of a bare interpreter start) only
    to read highlight queries vcfg does not use, so the compiled binding is
    loaded directly; any surprise falls back to the normal import."""
    try:
        # importlib.machinery, not importlib.util (which imports importlib._abc and
        # friends: 2.4M instructions of a 285M cold lint)
        import importlib.machinery as machinery

        spec = machinery.PathFinder.find_spec("tree_sitter_bash")
        folder = list(spec.submodule_search_locations or [])[0] if spec else None
        if folder:
            for suffix in machinery.EXTENSION_SUFFIXES:
                path = os.path.join(folder, "_binding" + suffix)
                if os.path.exists(path):
                    loader = machinery.ExtensionFileLoader("tree_sitter_bash._binding", path)
                    mod = loader.create_module(machinery.ModuleSpec(loader.name, loader, origin=path))
                    loader.exec_module(mod)
                    return mod.language()
    except Exception:  # pragma: no cover - unusual installs
        pass
    import tree_sitter_bash

    return tree_sitter_bash.language()


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        import tree_sitter

        _PARSER = tree_sitter.Parser(tree_sitter.Language(_bash_language()))
    return _PARSER


# --------------------------------------------------------------------------- locators


class _FileLoc:
    """Positions in the script file itself."""

    __slots__ = ("li",)

    def __init__(self, li: LineIndex) -> None:
        self.li = li

    def span(self, a: int, b: int) -> Span:
        return self.li.span(a, b)

    def runs(self, a: int, b: int, at: int, text: str) -> list[Run]:
        if "\n" not in text or text.index("\n") == len(text) - 1:
            return [Run(at, len(text), self.li.span(a, b), True)]
        out = []
        pos = 0
        off = a
        for line in text.splitlines(keepends=True):
            nb = len(line.encode("utf-8", "surrogateescape")) if not line.isascii() else len(line)
            out.append(Run(at + pos, len(line), self.li.span(off, off + nb), True))
            pos += len(line)
            off += nb
        return out


class _WordLoc:
    """Positions inside a string that bash re-parses (``eval``, ``bash -c``):
    byte offsets of the string map back to the script through the word's runs."""

    __slots__ = ("word", "text", "b2c")

    def __init__(self, word: Word, data: bytes) -> None:
        self.word = word
        self.text = word.value
        if data.isascii():
            self.b2c: Optional[list[int]] = None
        else:
            b2c = []
            for i, ch in enumerate(self.text):
                b2c.extend([i] * len(ch.encode("utf-8", "surrogateescape")))
            b2c.append(len(self.text))
            self.b2c = b2c

    def _c(self, b: int) -> int:
        if self.b2c is None:
            return min(b, len(self.text))
        return self.b2c[min(b, len(self.b2c) - 1)]

    def span(self, a: int, b: int) -> Span:
        ca, cb = self._c(a), self._c(b)
        if not self.text:
            return self.word.span
        if cb <= ca:
            s = self.word.char_span(min(ca, len(self.text) - 1))
            return Span(s.start, s.start, s.line, s.col, s.line, s.col, s.file)
        return self.word.span_of(ca, cb)

    def runs(self, a: int, b: int, at: int, text: str) -> list[Run]:
        ca = self._c(a)
        out: list[Run] = []
        w = self.word
        for k in range(len(text)):
            ci = ca + k
            if ci >= len(self.text):
                break
            r = w._run_at(ci)
            cs = w.char_span(ci)
            exact = r is not None and r.exact
            if out and exact and out[-1].exact:
                p = out[-1]
                ps = p.span
                # one run per line: `Word.char_span` counts columns from the run's start
                if (
                    ps.end == cs.start
                    and ps.line == cs.line == ps.end_line
                    and ps.end_col == cs.col
                    and ps.file == cs.file
                ):
                    out[-1] = Run(
                        p.at,
                        p.length + 1,
                        Span(ps.start, cs.end, ps.line, ps.col, cs.end_line, cs.end_col, ps.file),
                        True,
                    )
                    continue
            out.append(Run(at + k, 1, cs, exact))
        return out


def _scan_problems(root: Any, li: LineIndex, out: list[ParseProblem], limit: int = 50) -> None:
    """ERROR and MISSING nodes, each with its position (at most ``limit``)."""
    if not root.has_error:
        return
    cur = root.walk()
    count = 0
    depth = 0
    while True:
        n = cur.node
        descend = True
        if n.is_missing:
            sp = li.span(n.start_byte, n.end_byte)
            what = n.type
            out.append(ParseProblem("missing", f"missing {what!r}: unterminated construct", sp))
            count += 1
            descend = False
        elif n.type == "ERROR":
            raw = li.data[n.start_byte : min(n.end_byte, n.start_byte + 200)]
            lead = raw.lstrip(b" \t")
            q = n.start_byte + len(raw) - len(lead)
            if lead[:1] in (b"'", b'"') or lead[:2] == b"$'":
                sp = li.span(q, q + (2 if lead[:1] == b"$" else 1))
                out.append(ParseProblem("missing", "unterminated quoted string starting here", sp))
            else:
                sp = li.span(n.start_byte, n.end_byte)
                snippet = li.text(n.start_byte, min(n.end_byte, n.start_byte + 40)).split("\n")[0]
                out.append(ParseProblem("syntax", f"bash cannot parse this: {snippet!r}", sp))
            count += 1
        elif not n.has_error:
            descend = False
        if count >= limit:
            return
        if descend and cur.goto_first_child():
            depth += 1
            continue
        while not cur.goto_next_sibling():
            if not cur.goto_parent():
                return
            depth -= 1


def runs_exit(body: Sequence[Any], data: bytes) -> bool:
    """Whether a branch body runs ``exit`` itself (not in a subshell or a nested
    branch): the path through it ends there."""
    for c in body:
        if c.type == "redirected_statement":
            c = c.child_by_field_name("body") or c
        if c.type == "command":
            name = c.child_by_field_name("name")
            if name is not None and data[name.start_byte : name.end_byte] == b"exit":
                return True
    return False


#: reserved words bash refuses where a command starts when nothing opened them
#: (``bash -n``: "syntax error near unexpected token `fi'"); tree-sitter-bash reads
#: each as a command's name, with no ERROR node
_STRAY_WHY = {
    b"fi": "a `fi` with no `if` to end",
    b"done": "a `done` with no loop to end",
    b"esac": "an `esac` with no `case` to end",
    b"}": "a `}` with no `{` to close",
    b"then": "a `then` outside an `if`",
    b"else": "an `else` outside an `if`",
    b"elif": "an `elif` outside an `if`",
    b"do": "a `do` outside a loop",
    b"in": "an `in` outside a `for` or `case`",
    b"]]": "a `]]` with no `[[` to close",
}
#: where such a word may start a command, as text (the tree decides)
_STRAY = re.compile(
    rb"(?:^|[;&|(){}`]|\bthen|\bdo|\belse)[ \t]*(fi|done|esac|then|else|elif|do|in|\}|\]\])"
    rb"(?=[ \t\r\n;&|)]|$)",
    re.M,
)


#: the reserved words `_STRAY` looks for, wherever they stand: a line holding none has
#: no `_STRAY` match (its alternation at every position costs 0.8 ms on a 200-line
#: script, this one 0.2: it starts with one of a few characters)
_KEYWORD = re.compile(rb"(?:fi|done|esac|then|else|elif|do|in|\}|\]\])(?=[ \t\r\n;&|)]|$)", re.M)


def _stray_matches(data: bytes, lo: int, hi: int) -> Iterator[re.Match[bytes]]:
    """``_STRAY.finditer(data, lo, hi)``, run only on the lines `_KEYWORD` finds (a
    match never spans lines, and each line is searched as the whole text is)."""
    done = lo
    for k in _KEYWORD.finditer(data, lo, hi):
        if k.start() < done:
            continue  # its line was searched
        a = max(lo, data.rfind(b"\n", 0, k.start()) + 1)
        b = data.find(b"\n", k.end(), hi)
        b = hi if b < 0 else b
        yield from _STRAY.finditer(data, a, b)
        done = b


def stray_keywords(
    root: Any, li: LineIndex, out: list[ParseProblem], limit: int = 20, start: int = 0, end: Optional[int] = None
) -> None:
    """A reserved word that starts a command with nothing to end (a stray ``fi``,
    ``done`` or ``}``): bash stops there with a syntax error; the commands before it
    have run.  Each candidate the text shows is checked in the tree: it must be the
    plain word naming a command, with no assignment or redirection before it.
    ``start``/``end``: the bytes ``root`` holds (a piece of a big script, `vcfg.launch.chunks`)."""
    found = 0
    end = len(li.data) if end is None else end
    for n, m in enumerate(_stray_matches(li.data, max(0, start - 64), end)):
        if n >= 5000:  # a real script has a few hundred such places; random bytes have many
            return
        a, b = m.span(1)
        if a < start:
            continue
        node = root.descendant_for_byte_range(a, b)
        if node is None or node.type != "word" or node.start_byte != a or node.end_byte != b:
            continue
        name = node.parent
        cmd = name.parent if name is not None else None
        if (
            name is None
            or name.type != "command_name"
            or cmd is None
            or cmd.type != "command"
            or cmd.children[0].start_byte != name.start_byte
        ):
            continue
        w = m.group(1)
        out.append(
            ParseProblem(
                "syntax",
                f"bash stops here with a syntax error (unexpected token `{w.decode()}`): {_STRAY_WHY[w]}",
                li.span(a, b),
            )
        )
        found += 1
        if found >= limit:
            return


def _common_prefix(x: bytes, y: bytes, n: int) -> int:
    """The length of the common prefix of ``x`` and ``y`` (at most ``n``): halving
    slices, each compared in C."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if x[lo:mid] == y[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(x: bytes, y: bytes, n: int) -> int:
    lo, hi = 0, n
    lx, ly = len(x), len(y)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if x[lx - mid : lx - lo] == y[ly - mid : ly - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo
