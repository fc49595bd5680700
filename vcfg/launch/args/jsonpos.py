"""JSON with positions: vLLM reads a JSON option value with ``json.loads``; this reads it
the same way and keeps where every key and value is written, mapped back to the
script's characters (`JsonDoc`)."""

from __future__ import annotations

import math
from typing import Any, Optional

from vcfg.bounded import MAX_DIGITS as _MAX_DIGITS
from vcfg.launch.model import Span, Word
from vcfg.records import field, record, tuple_record
from vcfg.regex import lazy


@tuple_record
class JsonLoc:
    """Where one key/value of a JSON argument is written."""

    key: Optional[Span]
    value: Span
    #: the key's name without its quotes, mapped character by character (a quote
    #: written ``\"`` in a double-quoted shell word is two bytes): None when unquoted
    name: Optional[Span] = None


@record(frozen=True)
class JsonDoc:
    """A JSON value with the position of every key and value, by path."""

    value: Any
    locs: dict[tuple[Any, ...], JsonLoc] = field(default_factory=dict)
    duplicates: tuple[tuple[Any, ...], ...] = ()

    def key_span(self, *path: Any) -> Optional[Span]:
        loc = self.locs.get(tuple(path))
        return loc.key if loc else None

    def name_span(self, *path: Any) -> Optional[Span]:
        """The key's name without quotes (see `JsonLoc.name`), else its span."""
        loc = self.locs.get(tuple(path))
        return (loc.name or loc.key) if loc else None

    def value_span(self, *path: Any) -> Optional[Span]:
        loc = self.locs.get(tuple(path))
        return loc.value if loc else None

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "locs": [
                {"path": list(p), "key": l.key.to_json() if l.key else None, "value": l.value.to_json()}
                for p, l in self.locs.items()
            ],
        }


class JsonSyntaxError(ValueError):
    def __init__(self, msg: str, pos: int) -> None:
        super().__init__(f"{msg} (char {pos})")
        self.msg = msg
        self.pos = pos


_NUM_RE = lazy(r"(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?")
_WS = " \t\n\r"
_ESC = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def parse_json_positions(
    s: str, max_depth: int = 200
) -> tuple[Any, dict[tuple[Any, ...], tuple[Optional[tuple[int, int]], tuple[int, int]]], list[tuple[Any, ...]]]:
    """``json.loads(s)`` that also returns, for every path, the (start, end)
    of its key (None for list items and the root) and of its value.
    Raises `JsonSyntaxError` (message and index like Python's json)."""
    locs: dict[tuple[Any, ...], tuple[Optional[tuple[int, int]], tuple[int, int]]] = {}
    dups: list[tuple[Any, ...]] = []
    n = len(s)

    def ws(i: int) -> int:
        while i < n and s[i] in _WS:
            i += 1
        return i

    def string(i: int) -> tuple[str, int]:
        # s[i] == '"'
        start = i
        i += 1
        buf: list[str] = []
        while True:
            j = i
            while j < n and s[j] != '"' and s[j] != "\\" and s[j] >= " ":
                j += 1
            buf.append(s[i:j])
            if j >= n:
                raise JsonSyntaxError("Unterminated string starting at", start)
            c = s[j]
            if c == '"':
                return "".join(buf), j + 1
            if c < " ":
                raise JsonSyntaxError("Invalid control character at", j)
            # backslash
            if j + 1 >= n:
                raise JsonSyntaxError("Unterminated string starting at", start)
            e = s[j + 1]
            if e in _ESC:
                buf.append(_ESC[e])
                i = j + 2
            elif e == "u":
                h = s[j + 2 : j + 6]
                if len(h) < 4 or not all(ch in "0123456789abcdefABCDEF" for ch in h):
                    raise JsonSyntaxError("Invalid \\uXXXX escape", j + 1)
                cp = int(h, 16)
                i = j + 6
                if 0xD800 <= cp <= 0xDBFF and s[i : i + 2] == "\\u":
                    h2 = s[i + 2 : i + 6]
                    if len(h2) == 4 and all(ch in "0123456789abcdefABCDEF" for ch in h2):
                        cp2 = int(h2, 16)
                        if 0xDC00 <= cp2 <= 0xDFFF:
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (cp2 - 0xDC00)
                            i += 6
                buf.append(chr(cp))
            else:
                raise JsonSyntaxError("Invalid \\escape", j)

    def value(i: int, path: tuple[Any, ...], key: Optional[tuple[int, int]], depth: int) -> tuple[Any, int]:
        if depth > max_depth:
            raise JsonSyntaxError("JSON nested too deeply", i)
        i = ws(i)
        if i >= n:
            raise JsonSyntaxError("Expecting value", i)
        c = s[i]
        start = i
        if c == "{":
            obj: dict[str, Any] = {}
            i = ws(i + 1)
            if i < n and s[i] == "}":
                locs[path] = (key, (start, i + 1))
                return obj, i + 1
            while True:
                i = ws(i)
                if i >= n or s[i] != '"':
                    raise JsonSyntaxError("Expecting property name enclosed in double quotes", i)
                ks = i
                k, i = string(i)
                kspan = (ks, i)
                i = ws(i)
                if i >= n or s[i] != ":":
                    raise JsonSyntaxError("Expecting ':' delimiter", i)
                sub = path + (k,)
                if k in obj:
                    dups.append(sub)
                    for p in [p for p in locs if p[: len(sub)] == sub]:
                        del locs[p]
                v, i = value(i + 1, sub, kspan, depth + 1)
                obj[k] = v
                i = ws(i)
                if i < n and s[i] == ",":
                    i += 1
                    continue
                if i < n and s[i] == "}":
                    locs[path] = (key, (start, i + 1))
                    return obj, i + 1
                raise JsonSyntaxError("Expecting ',' delimiter", i)
        if c == "[":
            arr: list[Any] = []
            i = ws(i + 1)
            if i < n and s[i] == "]":
                locs[path] = (key, (start, i + 1))
                return arr, i + 1
            while True:
                v, i = value(i, path + (len(arr),), None, depth + 1)
                arr.append(v)
                i = ws(i)
                if i < n and s[i] == ",":
                    i += 1
                    continue
                if i < n and s[i] == "]":
                    locs[path] = (key, (start, i + 1))
                    return arr, i + 1
                raise JsonSyntaxError("Expecting ',' delimiter", i)
        if c == '"':
            v, i = string(i)
            locs[path] = (key, (start, i))
            return v, i
        for lit, val in (
            ("true", True),
            ("false", False),
            ("null", None),
            ("NaN", math.nan),
            ("Infinity", math.inf),
            ("-Infinity", -math.inf),
        ):
            if s.startswith(lit, i):
                locs[path] = (key, (start, i + len(lit)))
                return val, i + len(lit)
        m = _NUM_RE.match(s, i)
        if m:
            integer, frac, exp = m.groups()
            if m.end() - m.start() > _MAX_DIGITS:
                raise JsonSyntaxError(f"a number of more than {_MAX_DIGITS} digits (vcfg does not read it)", i)
            v2: Any = float(integer + (frac or "") + (exp or "")) if (frac or exp) else int(integer)
            locs[path] = (key, (start, m.end()))
            return v2, m.end()
        raise JsonSyntaxError("Expecting value", i)

    v, i = value(0, (), None, 0)
    i = ws(i)
    if i != n:
        raise JsonSyntaxError("Extra data", i)
    return v, locs, dups


def _doc_from(text: str, word: Optional[Word], index_map: Optional[list[int]] = None, offset: int = 0) -> JsonDoc:
    """Parse ``text`` (JSON) and map positions through ``word`` (text sits at
    ``word.value[offset:]``; ``index_map`` undoes a rewrite)."""
    v, raw_locs, dups = parse_json_positions(text)
    locs: dict[tuple[Any, ...], JsonLoc] = {}
    if word is not None:

        def sp(a: int, b: int) -> Span:
            if index_map is not None:
                a, b = index_map[a], index_map[max(a, b - 1)] + 1
            return word.span_of(offset + a, offset + b)

        for path, (k, val) in raw_locs.items():
            name = sp(k[0] + 1, k[1] - 1) if k and k[1] - k[0] > 2 else None
            locs[path] = JsonLoc(sp(*k) if k else None, sp(*val), name)
    return JsonDoc(v, locs, tuple(dups))
