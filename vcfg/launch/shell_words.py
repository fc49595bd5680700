"""Word building for the bash front end: the words one argument expands to (word
splitting, holes where a value is unknown), brace expansion, ``read``'s field
splitting, and the output of the few pure commands vcfg computes (``seq``,
``printf``, ``dirname``, ``basename``)."""

from __future__ import annotations

import os
import re
from typing import Any, Iterable, Optional, Sequence

from vcfg.launch.model import Hole, Run, Span, Word
from vcfg.regex import lazy


def _hole_word(reason: str, span: Span, may_split: bool = False, raw: str = "") -> Word:
    return Word("", span, raw, (), (Hole(0, reason, span, may_split),))


def _synth(text: str, span: Span) -> Word:
    return Word(text, span, text, (Run(0, len(text), span, False),) if text else ())


def _array_join(arrs: Iterable[Optional[tuple[Word, ...]]], reason: str, span: Span) -> Optional[tuple[Word, ...]]:
    """An array's value where paths with the values ``arrs`` meet (the branches of an
    ``if``, the runs of a loop read once): the elements they all start with, then
    unknown words (a may-split hole: any number of words, none included) where they
    differ.  None (unknown) when one is unknown or they share no first element."""
    it = iter(arrs)
    first = next(it, None)
    if first is None:
        return None
    n = len(first)
    same = True
    for a in it:
        if a is None:
            return None
        if a is first:
            continue
        k = 0
        m = min(len(first), len(a))
        while k < m and (a[k] is first[k] or a[k] == first[k]):
            k += 1
        if k != len(first) or len(a) != len(first):
            same = False
        n = min(n, k)
    if same:
        return first
    if n == 0:
        return None
    head = first[:n]
    if _is_words_hole(head[-1]):
        return head
    return head + (_hole_word(reason, span, True),)


def _is_words_hole(w: Word) -> bool:
    """Whether array element ``w`` is unknown words (as many as they may be)."""
    return not w.value and bool(w.holes) and w.may_split


def _first_open(arr: tuple[Word, ...]) -> Optional[int]:
    """The index of an array's first element that may be several words (or none):
    from there on, elements' indexes and the array's length are unknown."""
    for i, w in enumerate(arr):
        if w.may_split:
            return i
    return None


class _Acc:
    """Builds the words one argument expands to (bash's word splitting)."""

    __slots__ = ("words", "parts", "runs", "holes", "n", "started", "quoted", "assumptions")

    def __init__(self) -> None:
        self.words: list[tuple[str, tuple, tuple, bool, tuple]] = []
        self._reset()

    def _reset(self) -> None:
        self.parts: list[str] = []
        self.runs: list[Run] = []
        self.holes: list[Hole] = []
        self.n = 0
        self.started = False
        self.quoted = False
        self.assumptions: list[str] = []

    def text(self, text: str, runs: Iterable[Run], quoted: bool = False) -> None:
        """Append text whose runs already start at index ``self.n``."""
        self.started = True
        if quoted:
            self.quoted = True
        if text:
            self.parts.append(text)
            self.runs.extend(runs)
            self.n += len(text)

    def word(self, w: Word, split: bool, ifs: Optional[str] = " \t\n") -> None:
        """Append a value; unquoted (``split``) values undergo word splitting."""
        if w.assumptions:
            self.assumptions.extend(w.assumptions)
        if not split:
            self.started = True
            self._append(w)
            return
        if ifs is None:
            self.hole("word splitting with an unknown IFS", w.span, True)
            return
        if not w.value:
            for h in w.holes:
                self.holes.append(Hole(self.n, h.reason, h.span, True))
            return
        ws = ifs if ifs else ""
        seps = set(ws) if ws else set()
        i = 0
        v = w.value
        n = len(v)
        hole_at = {h.at: h for h in w.holes}
        while i < n:
            if v[i] in seps:
                # holes sitting exactly here belong to the current field
                if i in hole_at:
                    h = hole_at.pop(i)
                    self.holes.append(Hole(self.n, h.reason, h.span, True))
                    self.started = True
                j = i
                while j < n and v[j] in seps:
                    j += 1
                if self.started:
                    self.brk()
                # a hole between two separators is a field of its own (any number of
                # words, none included): `2 <unknown> --x` keeps its middle
                for k in sorted(k for k in hole_at if i < k < j):
                    h = hole_at.pop(k)
                    self.holes.append(Hole(self.n, h.reason, h.span, True))
                    self.brk()
                i = j
                continue
            j = i
            while j < n and v[j] not in seps:
                j += 1
            piece = w.slice(i, j)
            hole_at = {k: h for k, h in hole_at.items() if not (i < k <= j)} if hole_at else hole_at
            self.started = True
            self._append(piece, may_split=True)
            i = j
        for k, h in hole_at.items():
            if k >= n:
                self.holes.append(Hole(self.n, h.reason, h.span, True))

    def _append(self, w: Word, may_split: bool = False) -> None:
        base = self.n
        if w.value:
            self.parts.append(w.value)
            if base:
                self.runs.extend(Run(r.at + base, r.length, r.span, r.exact) for r in w.runs)
            else:
                self.runs.extend(w.runs)
            self.n += len(w.value)
        for h in w.holes:
            self.holes.append(Hole(h.at + base, h.reason, h.span, h.may_split or may_split))
        if w.quoted:
            self.quoted = True

    def hole(self, reason: str, span: Span, may_split: bool) -> None:
        if not may_split:
            self.started = True
        self.holes.append(Hole(self.n, reason, span, may_split))

    def brk(self) -> None:
        if self.started or self.holes:
            self.words.append(
                ("".join(self.parts), tuple(self.runs), tuple(self.holes), self.quoted, tuple(self.assumptions))
            )
        self._reset()

    def finish(self, span: Span, raw: str) -> list[Word]:
        self.brk()
        return [Word(v, span, raw, r, h, q, a) for v, r, h, q, a in self.words]


#: a string bash re-parses (``eval``, ``bash -c``) is read with each unknown part replaced
#: by this variable, whose value is that unknown part (`mask_holes`, `unmask_holes`)
HOLE_MARK = "${__vcfg_hole_"
_HOLE_MARK_RE = lazy(r"\$\{__vcfg_hole_(\d+)\}")


def _cut(w: Word, a: int, b: int, with_end: bool) -> Word:
    """``w.value[a:b]`` with its runs, and its holes at a..b-1 (and at b: ``with_end``)."""
    s = w.slice(a, b)
    holes = tuple(h for h in s.holes if h.at < b - a or (with_end and h.at == b - a))
    return Word(s.value, s.span, s.raw, s.runs, holes, s.quoted, s.assumptions)


def mask_holes(w: Word, table: list[Word]) -> Word:
    """``w`` known: each hole replaced by ``${__vcfg_hole_K}``, K its index in ``table``
    (the hole, as a word): the shell that re-parses the string then expands each
    unknown part where it lands (a word, part of one, split or not)."""
    acc = _Acc()
    last = 0
    for h in sorted(w.holes, key=lambda h: h.at):
        if h.at > last:
            acc.word(_cut(w, last, h.at, False)._replace(holes=()), False)  # type: ignore[attr-defined]
            last = h.at
        mark = f"{HOLE_MARK}{len(table)}}}"
        table.append(_hole_word(h.reason, h.span))
        acc.text(mark, [Run(acc.n, len(mark), h.span, False)])
    if last < len(w.value):
        acc.word(_cut(w, last, len(w.value), True)._replace(holes=()), False)  # type: ignore[attr-defined]
    acc.started = True
    return acc.finish(w.span, w.raw)[0]


def unmask_holes(w: Word, table: list[Word]) -> Word:
    """A word holding ``${__vcfg_hole_K}`` as text (it was inside single quotes, or
    a here-document bash does not expand): that part is the unknown part again."""
    if HOLE_MARK not in w.value:
        return w
    acc = _Acc()
    last = 0
    for m in _HOLE_MARK_RE.finditer(w.value):
        k = int(m.group(1))
        if k >= len(table):
            continue
        if m.start() > last:
            acc.word(_cut(w, last, m.start(), False), False)
        h = table[k].holes[0]
        acc.hole(h.reason, h.span, False)
        last = m.end()
    if last < len(w.value) or any(h.at == len(w.value) for h in w.holes):
        acc.word(_cut(w, last, len(w.value), True), False)
    acc.started = True
    acc.quoted = w.quoted
    out = acc.finish(w.span, w.raw)
    return out[0] if len(out) == 1 else w


_ANSI = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}

_BRACE_RANGE = lazy(rb"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?\Z|([A-Za-z])\.\.([A-Za-z])\Z")


def _brace_expand(raw: bytes, base: int, depth: int = 0) -> Optional[list[list[Any]]]:
    """The words bash's brace expansion makes of ``raw`` (at byte ``base``), each a
    list of pieces: (start, end) byte ranges of the source or synthesized text;
    None when ``raw`` has no brace expansion."""
    if depth > 8:
        return None
    n = len(raw)
    i = 0
    while i < n:
        if raw[i : i + 1] != b"{":
            i += 1
            continue
        # the matching close brace, and the top-level commas
        level = 0
        commas: list[int] = []
        j = i
        while j < n:
            ch = raw[j : j + 1]
            if ch == b"{":
                level += 1
            elif ch == b"}":
                level -= 1
                if level == 0:
                    break
            elif ch == b"," and level == 1:
                commas.append(j)
            j += 1
        if j >= n:
            return None
        inner = raw[i + 1 : j]
        items: list[list[Any]] = []
        if commas:
            edges = [i] + commas + [j]
            items = [[(base + edges[k] + 1, base + edges[k + 1])] for k in range(len(edges) - 1)]
        else:
            m = _BRACE_RANGE.match(inner)
            if m is None:
                i += 1
                continue
            if m.group(1) is not None:
                lo, hi = int(m.group(1)), int(m.group(2))
                step = abs(int(m.group(3))) if m.group(3) else 1
                step = step or 1
                if abs(hi - lo) // step > 4096:
                    return None
                rng = range(lo, hi + 1, step) if hi >= lo else range(lo, hi - 1, -step)
                items = [[str(x)] for x in rng]
            else:
                lo_c, hi_c = ord(m.group(4)), ord(m.group(5))
                rng = range(lo_c, hi_c + 1) if hi_c >= lo_c else range(lo_c, hi_c - 1, -1)
                items = [[chr(x)] for x in rng]
        prefix: list[Any] = [(base, base + i)] if i else []
        suffix_raw = raw[j + 1 :]
        tails = _brace_expand(suffix_raw, base + j + 1, depth + 1) if suffix_raw else None
        if tails is None:
            tails = [[(base + j + 1, base + n)]] if suffix_raw else [[]]
        out: list[list[Any]] = []
        for item in items:
            subs = None
            if len(item) == 1 and isinstance(item[0], tuple):
                s, e = item[0]
                subs = _brace_expand(raw[s - base : e - base], s, depth + 1)
            for sub in subs if subs is not None else [item]:
                for tail in tails:
                    out.append(prefix + sub + tail)
                    if len(out) > 4096:
                        return None
        return out
    return None


def _assume(w: Word, note: str) -> Word:
    return Word(w.value, w.span, w.raw, w.runs, w.holes, w.quoted, w.assumptions + (note,))


_PRINTF_SPEC = lazy(r"%([-+ 0#]*)(\d*)(?:\.(\d+))?([diouxXsc%])")
_PRINTF_ESC = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "r": "\r", "v": "\v", "f": "\f", "e": "\x1b"}


def _printf(fmt: str, args: list[str]) -> Optional[str]:
    """bash's ``printf FORMAT ARGS...`` for the common conversions (the format is
    reused while arguments remain), or None for anything else."""
    if "\\" in fmt:
        out = []
        i = 0
        while i < len(fmt):
            if fmt[i] == "\\" and i + 1 < len(fmt):
                if fmt[i + 1] not in _PRINTF_ESC:
                    return None
                out.append(_PRINTF_ESC[fmt[i + 1]])
                i += 2
                continue
            out.append(fmt[i])
            i += 1
        fmt = "".join(out)
    specs = [m for m in _PRINTF_SPEC.finditer(fmt) if m.group(4) != "%"]
    if "%" in _PRINTF_SPEC.sub("", fmt):
        return None  # a conversion not modelled
    pieces: list[str] = []
    k = 0
    while True:

        def conv(m: "re.Match[str]") -> str:
            nonlocal k
            flags, width, prec, c = m.groups()
            if c == "%":
                return "%"
            a = args[k] if k < len(args) else ""
            k += 1
            if c in "diouxX":
                try:
                    v = int(a, 0) if a.strip() else 0
                except ValueError:
                    raise ValueError(a) from None
                c = "d" if c == "i" or c == "u" else c
                return ("%" + flags + width + ("." + prec if prec else "") + c) % v
            if c == "c":
                return a[:1]
            return ("%" + flags + width + ("." + prec if prec else "") + "s") % a

        try:
            pieces.append(_PRINTF_SPEC.sub(conv, fmt))
        except (ValueError, TypeError):
            return None
        if not specs or k >= len(args) or len(pieces) > 4096:
            break
    return "".join(pieces)


def _simple_output(argv: list[Word]) -> Optional[str]:
    """The output of a few pure commands: ``seq``, ``printf`` (no ``-v``)."""
    name = argv[0].value
    if name in ("dirname", "basename") and len(argv) >= 2:
        args = [w.value for w in argv[1:]]
        if args[0] == "--":
            args = args[1:]
        if len(args) != 1 or args[0].startswith("-"):
            return None
        a = args[0]
        if name == "basename":
            return a.rstrip("/").rsplit("/", 1)[-1] if a.strip("/") else "/"
        a = a.rstrip("/") or "/"
        if "/" not in a:
            return "."
        d = a.rsplit("/", 1)[0].rstrip("/")
        return d or "/"
    if name == "printf" and len(argv) > 1 and not argv[1].value.startswith("-"):
        out = _printf(argv[1].value, [w.value for w in argv[2:]])
        return out.rstrip("\n") if out is not None else None
    if name == "seq":
        try:
            nums = [int(w.value) for w in argv[1:]]
        except ValueError:
            return None
        if len(nums) == 1:
            lo, step, hi = 1, 1, nums[0]
        elif len(nums) == 2:
            lo, step, hi = nums[0], 1, nums[1]
        elif len(nums) == 3:
            lo, step, hi = nums
        else:
            return None
        if step == 0 or abs(hi - lo) // abs(step) > 4096:
            return None
        vals = range(lo, hi + (1 if step > 0 else -1), step)
        return "\n".join(str(v) for v in vals)
    return None


def _split_fields(w: Word, ifs: str) -> list[Word]:
    """``read``'s field splitting of a known word."""
    if ifs == "":
        return [w]
    ws = {c for c in ifs if c in " \t\n"}
    other = {c for c in ifs if c not in " \t\n"}
    out: list[Word] = []
    v = w.value
    i = 0
    n = len(v)
    while i < n and v[i] in ws:
        i += 1
    start = i
    while i < n:
        ch = v[i]
        if ch in other:
            out.append(w.slice(start, i))
            i += 1
            while i < n and v[i] in ws:
                i += 1
            start = i
            continue
        if ch in ws:
            j = i
            while j < n and v[j] in ws:
                j += 1
            out.append(w.slice(start, i))
            if j < n and v[j] in other:
                j += 1
                while j < n and v[j] in ws:
                    j += 1
            i = start = j
            continue
        i += 1
    if start < n:
        out.append(w.slice(start, n))
    return out


def _common_head(values: list[Word], n: int, reason: str, span: Span) -> Optional[Word]:
    """The words all ``n`` paths' values start with (up to a blank, the blank included;
    an unknown part they all hold at the same place, from the same source, is common
    too), then one unknown part: None when a path has no value or they share fewer than
    two whole words (a path or a port is unknown whole)."""
    if len(values) != n or not values:
        return None
    texts = [w.value for w in values]
    k = len(os.path.commonprefix(texts))
    # the unknown parts before k must be the same ones in every value
    first = {(h.at, h.reason, h.span) for h in values[0].holes if h.at <= k}
    for w in values[1:]:
        mine = {(h.at, h.reason, h.span) for h in w.holes if h.at <= k}
        if mine != first:
            k = min([k, *(at for at, _, _ in mine ^ first)])
            first = {x for x in first if x[0] < k}
    longer = [j for j, t in enumerate(texts) if len(t) > k]
    if (
        longer
        and all(len(t) == k or t[k] in " \t\n" for t in texts)
        and not any(h.at == k for w in values for h in w.holes)
    ):
        j = longer[0]  # the blank after the common words, from a value that has it
    else:
        k = max(texts[0].rfind(" ", 0, k), texts[0].rfind("\t", 0, k))
        j = 0
    if k <= 0 or len(texts[0][:k].split()) < 2:
        return None
    head = _cut(values[j], 0, k + 1, False)
    return head._replace(holes=(*head.holes, Hole(k + 1, reason, span)))


def _option_with_value(w: Word) -> bool:
    """``--name=VALUE`` whose value only vcfg cannot compute (the name is known)."""
    known = w.value[: min(h.at for h in w.holes)] if w.holes else w.value
    return known.startswith("-") and "=" in known


def _spaced(words: Sequence[Word], span: Span) -> Word:
    """``words`` joined with a blank between each two: the string bash re-reads
    (``eval a b``, ``ssh HOST a b``, ``tmux new-session a b``)."""
    acc = _Acc()
    for k, w in enumerate(words):
        if k:
            acc.text(" ", [Run(acc.n, 1, w.span, False)])
        acc.word(w, False)
    return acc.finish(span, "")[0]


def _positional(words: Sequence[Word]) -> Optional[list[Word]]:
    """The positional parameters ``set -- WORDS`` gives; None (unknown) when a word may
    be any number of words (``eval set -- "$(getopt ...)"``: then neither ``$#`` nor what
    ``shift`` leaves is known)."""
    if any(w.may_split and not w.known for w in words):
        return None
    return list(words)
