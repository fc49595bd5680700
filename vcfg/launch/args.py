"""vLLM's argv semantics: the words of a launch -> a typed value per option.

This mirrors, step by step, what ``FlexibleArgumentParser.parse_args`` does to
argv before argparse sees it, and then argparse itself, for the vLLM version a
`Catalog` describes (0.33.0 ``vllm/utils/argparse_utils.py:313-502``; older
layouts noted where they differ):

1. ``vllm serve ... --model M``: moved to the positional slot (>= 0.11.2), an
   error before (0.10.0 ``utils/__init__.py:1703``); ``--served-model-name``
   without a model is an error (>= 0.17.1).
2. ``--config FILE`` (the exact token; ``--config=FILE`` is not expanded):
   the YAML's keys become ``--key value`` before the remaining CLI arguments
   (argparse_utils.py:516-673).  ``false`` values are dropped (for ``vllm
   serve``; from 0.28 ``--no-key`` is tried on the top-level parser, where it
   never exists), dicts become JSON (>= 0.16; ``str(dict)`` before), lists
   ``--key a b``.
3. ``--long_option`` underscores become dashes before the first ``.``
   (argparse_utils.py:379-394).
4. ``-O``: ``-O3``/``-O=3``/``-O 3`` -> ``--optimization-level`` (>= 0.12),
   ``-O.level=`` (<= 0.11.0), ``-O.mode=`` (0.11.2) (argparse_utils.py:395-407).
5. dotted keys ``--x.a.b v`` / ``--x.a+ v1,v2``: merged into one JSON value
   appended at the end (argparse_utils.py:441-500): it replaces a whole JSON
   value given earlier for the same option.
6. argparse: exact option strings, ``--opt=value``, unique-prefix
   abbreviations, nargs, types (int, float, human-readable ints, JSON with
   bare ``80g`` numbers >= 0.20, ...), choices, boolean ``--x``/``--no-x`` and
   0.33's ``--enable-x``/``--disable-x`` inverses; last occurrence wins.

Every value keeps the `Word`s it came from, so a problem or a JSON key can be
pointed at in the script (or in the ``--config`` YAML file).
"""

from __future__ import annotations

import json
import math
import os
import re
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from vcfg.launch.model import SERVE, Hole, Invocation, LaunchPlan, Run, Span, Word, join_spans
from vcfg.records import field, record, tuple_record

if TYPE_CHECKING:  # pragma: no cover - for annotations only
    from vcfg.catalog.model import Catalog, Flag


# --------------------------------------------------------------------------- versions

def version_tuple(v: str) -> tuple[int, int, int]:
    """``"0.11.2rc1"`` -> (0, 11, 2); unknown text -> a very new version."""
    from vcfg.catalog.versions import parse_version
    from vcfg.errors import VcfgError

    try:
        release = parse_version(v or "").release
    except VcfgError:
        return (999, 0, 0)
    a, b, c = (release + (0, 0, 0))[:3]
    return (a, b, c)


#: serve --model moved to the positional slot (0.11.2 argparse_utils.py:186-216);
#: before, a hard error (0.10.0 utils/__init__.py:1703-1710).
V_MODEL_MOVE = (0, 11, 2)
#: --served-model-name without a positional model is an error (0.17.1).
V_SERVED_NAME_CHECK = (0, 17, 1)
#: -O<n> -> --optimization-level (0.12.0 argparse_utils.py:247-259).
V_OPT_LEVEL = (0, 12, 0)
#: -O<n> -> -O.mode=<n> (0.11.2 argparse_utils.py:255-267); before: -O.level=<n>.
V_O_MODE = (0, 11, 2)
#: duplicate plain flags warned about (0.12.0, regular_args_seen).
V_DUP_WARN = (0, 12, 0)
#: dotted values fall back to human_readable_int (0.20.0 argparse_utils.py:404-412).
V_DOTTED_HRI = (0, 20, 0)
#: bare 80g-style numbers inside JSON config values (0.20.0 arg_utils.py:330).
V_JSON_HRI = (0, 20, 0)
#: YAML dict values passed as JSON (0.16.0); before as str(dict), not JSON.
V_YAML_DICT_JSON = (0, 16, 0)
#: YAML list values passed as separate words (0.10.2); before as str(list).
V_YAML_LIST = (0, 10, 2)
#: YAML false -> --no-<key> when this parser has it (0.28.0 argparse_utils.py:573-577).
V_YAML_NO_KEY = (0, 28, 0)


#: absolute path -> bytes to read instead of the file's: set by the lint engine while
#: it lints contents that are not on disk (the fix loop of ``--diff``, ``vcfg upgrade``)
OVERLAY: dict[str, bytes] = {}


# --------------------------------------------------------------------------- results


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


@record(frozen=True)
class ArgProblem:
    """A precise problem with the arguments.

    codes: ``unknown-option``, ``ambiguous-option``, ``missing-value``,
    ``unexpected-value`` (``--bool-flag=x``), ``invalid-value`` (type
    conversion failed), ``invalid-choice``, ``invalid-json``, ``extra-argument``
    (an unexpected positional), ``model-option``, ``model-missing``,
    ``config-file``, ``config-equals`` (``--config=f.yaml``: not expanded),
    ``duplicate``, ``dotted-overrides`` (dotted keys replace a whole JSON
    given earlier), ``yaml-false-dropped``, ``unknown-value`` (vcfg cannot
    compute the value).  ``severity`` is ``error`` when vLLM would refuse to
    start at parse time, ``warning`` for silent surprises, ``info`` for what
    vcfg cannot see.
    """

    code: str
    message: str
    span: Span
    option: Optional[str] = None
    severity: str = "error"

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "span": self.span.to_json(),
                "option": self.option, "severity": self.severity}


@record(frozen=True)
class OptionValue:
    """One occurrence of an option, typed."""

    #: The catalog flag (None: an option this vLLM version does not have).
    flag: Optional["Flag"]
    #: The option string vLLM's parser matched (``--tensor-parallel-size``),
    #: or, for an unknown option, the normalised text.
    option: str
    #: As written in the script (``-tp``, ``--tensor_parallel_size=4``).
    written: str
    dest: str
    value: Any
    known: bool
    words: tuple[Word, ...]
    span: Span
    name_span: Span
    value_span: Optional[Span]
    #: ``cli``, ``config`` (from the --config YAML), ``dotted`` (merged keys).
    origin: str = "cli"
    json: Optional[JsonDoc] = None
    negated: bool = False
    #: How the option string was reached: ``exact``, ``abbrev``, ``alias``.
    match: str = "exact"

    def to_json(self) -> dict[str, Any]:
        v = self.value
        try:
            json.dumps(v)
        except (TypeError, ValueError):
            v = repr(v)
        return {
            "option": self.option,
            "written": self.written,
            "dest": self.dest,
            "value": v,
            "known": self.known,
            "span": self.span.to_json(),
            "name_span": self.name_span.to_json(),
            "value_span": self.value_span.to_json() if self.value_span else None,
            "origin": self.origin,
            "json": self.json.to_json() if self.json else None,
            "negated": self.negated,
            "match": self.match,
            "unknown_option": self.flag is None,
        }


@record(frozen=True)
class ParsedArgs:
    version: str
    kind: str
    #: dest -> the occurrence that wins (the last one).
    options: dict[str, OptionValue]
    #: Every occurrence in the order vLLM's argparse sees them (duplicates kept).
    occurrences: tuple[OptionValue, ...]
    unknown_options: tuple[OptionValue, ...]
    model: Optional[OptionValue]
    extra_positionals: tuple[Word, ...]
    problems: tuple[ArgProblem, ...]
    #: False when unknown words may add options vcfg cannot see.
    complete: bool
    config_path: Optional[str] = None

    def get(self, dest: str) -> Optional[OptionValue]:
        return self.options.get(dest)

    def value(self, dest: str, default: Any = None) -> Any:
        ov = self.options.get(dest)
        return ov.value if ov is not None and ov.known else default

    def all(self, dest: str) -> list[OptionValue]:
        return [o for o in self.occurrences if o.dest == dest]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "kind": self.kind,
            "model": self.model.to_json() if self.model else None,
            "options": {k: v.to_json() for k, v in self.options.items()},
            "occurrences": [o.to_json() for o in self.occurrences],
            "unknown_options": [o.to_json() for o in self.unknown_options],
            "extra_positionals": [w.to_json() for w in self.extra_positionals],
            "problems": [p.to_json() for p in self.problems],
            "complete": self.complete,
            "config_path": self.config_path,
        }


# --------------------------------------------------------------------------- value parsers


class ArgTypeError(ValueError):
    pass


_HRI_RE = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT])")
_DEC = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BIN = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def human_readable_int(value: str) -> int:
    """vLLM's ``human_readable_int`` (utils/argparse_utils.py:30-74 @0.33):
    ``k/m/g/t`` decimal (decimals allowed), ``K/M/G/T`` binary (integers only),
    else ``int()``.  Raises ValueError."""
    v = value.strip()
    m = _HRI_RE.fullmatch(v)
    if m:
        number, suffix = m.groups()
        if suffix in _DEC:
            return int(float(number) * _DEC[suffix])
        try:
            return int(number) * _BIN[suffix]
        except ValueError:
            raise ArgTypeError(
                f"decimals are not allowed with binary suffixes like {suffix}; "
                f"did you mean {number}{suffix.lower()}?"
            ) from None
    return int(v)


def human_readable_int_or_auto(value: str) -> int:
    v = value.strip()
    if v == "-1" or v.lower() == "auto":
        return -1
    return human_readable_int(v)


_JSON_STR_SPLIT = re.compile(r'("(?:[^"\\]|\\.)*")', re.S)
_JSON_HRI = re.compile(r"\b\d+(?:\.\d+)?[kKmMgGtT]\b")


def expand_json_numbers(text: str) -> tuple[str, list[int]]:
    """Rewrite bare ``80g``-style tokens outside JSON strings, as vLLM does
    before validating a config's JSON (arg_utils.py:302-321 @0.33).  Returns the
    new text and, for each index of it (plus one past the end), the index in
    ``text`` it came from."""
    parts = _JSON_STR_SPLIT.split(text)
    out: list[str] = []
    idx: list[int] = []
    pos = 0
    for i, part in enumerate(parts):
        if i % 2 == 0:
            last = 0
            for m in _JSON_HRI.finditer(part):
                out.append(part[last : m.start()])
                idx.extend(range(pos + last, pos + m.start()))
                try:
                    rep = str(human_readable_int(m.group()))
                except ValueError:
                    rep = m.group()
                out.append(rep)
                # the first character maps to the token's start, the rest to its
                # last character, so a span over the number covers "80g"
                idx.append(pos + m.start())
                idx.extend([pos + m.end() - 1] * (len(rep) - 1))
                last = m.end()
            out.append(part[last:])
            idx.extend(range(pos + last, pos + len(part)))
        else:
            out.append(part)
            idx.extend(range(pos, pos + len(part)))
        pos += len(part)
    idx.append(len(text))
    return "".join(out), idx


class JsonSyntaxError(ValueError):
    def __init__(self, msg: str, pos: int) -> None:
        super().__init__(f"{msg} (char {pos})")
        self.msg = msg
        self.pos = pos


_NUM_RE = re.compile(r"(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?")
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
        for lit, val in (("true", True), ("false", False), ("null", None), ("NaN", math.nan),
                         ("Infinity", math.inf), ("-Infinity", -math.inf)):
            if s.startswith(lit, i):
                locs[path] = (key, (start, i + len(lit)))
                return val, i + len(lit)
        m = _NUM_RE.match(s, i)
        if m:
            integer, frac, exp = m.groups()
            v2: Any = float(integer + (frac or "") + (exp or "")) if (frac or exp) else int(integer)
            locs[path] = (key, (start, m.end()))
            return v2, m.end()
        raise JsonSyntaxError("Expecting value", i)

    v, i = value(0, (), None, 0)
    i = ws(i)
    if i != n:
        raise JsonSyntaxError("Extra data", i)
    return v, locs, dups


def _doc_from(text: str, word: Optional[Word], index_map: Optional[list[int]] = None,
              offset: int = 0) -> JsonDoc:
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


# --------------------------------------------------------------------------- tokens


@tuple_record
class _Tok:
    """One argv element as vLLM's pre-processing sees it."""

    text: Optional[str]  # None: unknown
    word: Word
    start: int = 0  # where ``text`` begins inside ``word.value`` (for spans)
    origin: str = "cli"
    #: the option name vcfg can read even though the value is unknown
    #: (``--port=$PORT``): ``(name, index of '=' in word.value)``
    partial: Optional[tuple[str, int]] = None
    #: a token made from several (the dotted merge): its JSON locations
    doc_locs: Optional[dict[tuple[Any, ...], JsonLoc]] = None

    def span(self) -> Span:
        w = self.word
        if self.start and w.value:
            return w.span_of(self.start, len(w.value))
        return _word_span(w)

    def sub(self, i: int, j: int) -> Span:
        return self.word.span_of(self.start + i, self.start + j) if self.word.value else self.word.span


def _word_span(w: Word) -> Span:
    if w.runs and w.known:
        return w.span_of(0, len(w.value))
    return w.span


def _tok_from_word(w: Word, origin: str = "cli") -> _Tok:
    if w.known:
        return _Tok(w.value, w, 0, origin)
    # --port=$PORT: the option is known, its value is not
    pre = w.value[: w.holes[0].at]
    if pre.startswith("-") and "=" in pre:
        return _Tok(None, w, 0, origin, (pre[: pre.index("=")], pre.index("=")))
    return _Tok(None, w, 0, origin)


#: stands for an unknown part of a heredoc-written config file (``max-model-len: $L``)
_UNKNOWN_MARK = "__vcfg_unknown_"


def _marked(w: Word) -> Word:
    """A heredoc's text with each unknown part replaced by a marker YAML reads as a plain
    scalar; `config_tokens` turns a value holding one back into an unknown word."""
    parts: list[str] = []
    runs: list[Run] = []
    n = 0
    pos = 0
    for k, h in enumerate(sorted(w.holes, key=lambda h: h.at)):
        piece = w.slice(pos, h.at)
        parts.append(piece.value)
        runs.extend(Run(r.at + n, r.length, r.span, r.exact) for r in piece.runs)
        n += len(piece.value)
        mark = f"{_UNKNOWN_MARK}{k}__"
        parts.append(mark)
        runs.append(Run(n, len(mark), h.span, False))
        n += len(mark)
        pos = h.at
    piece = w.slice(pos, len(w.value))
    parts.append(piece.value)
    runs.extend(Run(r.at + n, r.length, r.span, r.exact) for r in piece.runs)
    return Word("".join(parts), w.span, w.raw, tuple(runs), (), w.quoted, w.assumptions)


def _unknown_value(w: Word, span: Span) -> Word:
    return Word("", span, w.value, (), (Hole(0, "a value the script computes when it writes the file", span),))


def _synthetic_word(text: str, span: Span) -> Word:
    return Word(text, span, text, (Run(0, len(text), span, False),) if text else ())


# --------------------------------------------------------------------------- the parser


class _Parser:
    def __init__(self, catalog: "Catalog", kind: str, serve: bool, base_dir: Optional[str],
                 files: Mapping[str, Any], read_files: bool) -> None:
        self.cat = catalog
        #: argv starts with the ``serve`` subcommand (vllm serve), not an
        #: api_server module: decides the --model and --config handling
        self.serve = serve
        self.version = catalog.vllm_version
        self.v = version_tuple(catalog.vllm_version)
        self.kind = kind
        self.base_dir = base_dir
        self.files = files
        self.read_files = read_files
        self.problems: list[ArgProblem] = []
        self.complete = True
        self.config_path: Optional[str] = None
        self._long: Optional[list[str]] = None
        self._short: Optional[list[str]] = None
        self._neg_like = False

    def problem(self, code: str, message: str, span: Span, option: Optional[str] = None,
                severity: str = "error") -> None:
        self.problems.append(ArgProblem(code, message, span, option, severity))

    # ---------------------------------------------------------------- catalog
    def option_strings(self) -> list[str]:
        if self._long is None:
            out = []
            for f in self.cat.flags:
                out.extend(f.option_strings)
            self._long = out
            self._neg_like = any(re.fullmatch(r"-\d+|-\d*\.\d+", s) for s in out)
        return self._long

    def lookup(self, opt: str) -> tuple[Optional["Flag"], str, str]:
        """(flag, option string matched, how) or (None, opt, "unknown"/"ambiguous")."""
        f = self.cat.flag(opt)
        if f is not None:
            return f, opt, "exact"
        opts = self.option_strings()
        if opt.startswith("--"):
            cands = [s for s in opts if s.startswith(opt)]
        elif opt.startswith("-") and len(opt) > 1:
            cands = [s for s in opts if s.startswith(opt) and not s.startswith("--")]
        else:
            cands = []
        if len(cands) == 1:
            return self.cat.flag(cands[0]), cands[0], "abbrev"
        if len(cands) > 1:
            return None, opt, "ambiguous:" + ", ".join(sorted(cands)[:6])
        return None, opt, "unknown"

    def positional_flag(self) -> Optional["Flag"]:
        for f in self.cat.flags:
            if f.positional:
                return f
        return None

    # ---------------------------------------------------------------- steps
    def run(self, words: Sequence[Word]) -> ParsedArgs:
        toks = [_tok_from_word(w) for w in words]
        for t in toks:
            if t.text is None and t.word.may_split:
                self.complete = False
        toks = self.step_model(toks) if self.serve else toks
        toks = self.step_config(toks)
        toks = self.step_normalise(toks)
        toks = self.step_dotted(toks)
        return self.step_argparse(toks)

    def step_model(self, toks: list[_Tok]) -> list[_Tok]:
        """``vllm serve ... --model M``."""
        idx = next((i for i, t in enumerate(toks) if t.text is not None
                    and (t.text == "--model" or t.text.startswith("--model="))), None)
        if self.v < V_MODEL_MOVE:
            exact = next((i for i, t in enumerate(toks) if t.text == "--model"), None)
            if exact is not None:
                self.problem("model-option",
                             "vllm serve refuses --model in this version; give the model as the first argument",
                             toks[exact].span(), "--model")
            return toks
        if idx is not None:
            t = toks[idx]
            if t.text == "--model":
                if idx + 1 >= len(toks):
                    self.problem("missing-value", "--model expects a value", t.span(), "--model")
                    return toks[:idx]
                model = toks[idx + 1]
                rest = toks[:idx] + toks[idx + 2 :]
            else:
                model = _Tok(t.text[len("--model="):], t.word, t.start + len("--model="), t.origin)  # type: ignore[index]
                rest = toks[:idx] + toks[idx + 1 :]
            self.problem("model-option",
                         "with vllm serve, --model is deprecated: give the model as the first argument",
                         t.span(), "--model", severity="warning")
            toks = [model] + rest
        if (self.v >= V_SERVED_NAME_CHECK and toks and toks[0].text is not None and toks[0].text.startswith("-")
                and not any(t.text is not None and re.match(r"--config(=.+|$)", t.text) for t in toks)
                and any(t.text is not None and re.match(r"--served[-_]model[-_]name(=.+|$)", t.text) for t in toks)):
            self.problem("model-missing",
                         "vllm serve needs the model as its first argument when --served-model-name is given",
                         toks[0].span())
        return toks

    def step_config(self, toks: list[_Tok]) -> list[_Tok]:
        for t in toks:
            if t.text is not None and t.text.startswith("--config="):
                self.problem("config-equals",
                             "--config=FILE is not expanded by vLLM (the file is ignored); write --config FILE",
                             t.span(), "--config", severity="warning")
        idxs = [i for i, t in enumerate(toks) if t.text == "--config"]
        if not idxs:
            return toks
        if len(idxs) > 1:
            self.problem("config-file", "more than one --config file: vLLM stops with an assertion error",
                         toks[idxs[1]].span(), "--config")
            return toks
        i = idxs[0]
        if i == len(toks) - 1:
            self.problem("missing-value", "--config expects a file name", toks[i].span(), "--config")
            return toks[:i]
        pt = toks[i + 1]
        if pt.text is None:
            self.problem("unknown-value", f"--config file name is not known ({pt.word.describe_unknown()})",
                         pt.span(), "--config", severity="info")
            self.complete = False
            return toks[:i] + toks[i + 2 :]
        path = pt.text
        ext = path.split(".")[-1]
        if ext not in ("yaml", "yml"):
            self.problem("config-file", f"config file must be .yaml or .yml, not {ext!r}", pt.span(), "--config")
            return toks[:i] + toks[i + 2 :]
        cfg_toks = self.load_config(path, pt)
        if cfg_toks is None:
            self.complete = False
            return toks[:i] + toks[i + 2 :]
        rest_before, rest_after = toks[:i], toks[i + 2 :]
        # the order vLLM uses (argparse_utils.py:549-604 @0.33)
        if not self.serve:
            if toks and toks[0].text is not None and not toks[0].text.startswith("-"):
                return [toks[0]] + cfg_toks + toks[1:i] + rest_after
            return cfg_toks + rest_before + rest_after
        model_in_cli = bool(toks) and not (toks[0].text or "-").startswith("-") and i != 0
        if toks and toks[0].text is None and not toks[0].word.may_split:
            model_in_cli = True
        model_in_cfg = any(t.text == "--model" for t in cfg_toks)
        if not model_in_cli and not model_in_cfg and self.v >= V_MODEL_MOVE:
            self.problem("model-missing", "no model: give it as the first argument or as `model:` in the config file",
                         pt.span(), "--config")
        if model_in_cli:
            return toks[:1] + cfg_toks + toks[1:i] + rest_after
        return cfg_toks + toks[:i] + rest_after

    def load_config(self, path: str, pt: _Tok) -> Optional[list[_Tok]]:
        from vcfg.launch import yaml_config

        src = self.files.get(path)
        label = path
        text: Optional[Any] = None
        if src is not None:
            text = src
            label = path
        elif self.read_files:
            full = path if os.path.isabs(path) or self.base_dir is None else os.path.join(self.base_dir, path)
            try:
                text = OVERLAY.get(os.path.abspath(full))
                if text is None:
                    with open(full, "rb") as f:
                        text = f.read(16 * 1024 * 1024)
                label = full
            except OSError:
                text = None
        if text is None:
            self.problem("config-file", f"config file {path!r} not found; its options are not known",
                         pt.span(), "--config", severity="info")
            return None
        self.config_path = label
        cfg = yaml_config.load_serve_config(text, label)
        for p in cfg.problems:
            self.problem("config-file", p.message, p.span, "--config")
        if cfg.entries is None:
            return None
        return self.config_tokens(cfg)

    def config_tokens(self, cfg: Any) -> list[_Tok]:
        """The words vLLM's load_config_file makes of a YAML config."""
        out: list[_Tok] = []
        serve = self.serve
        for e in cfg.entries:
            if _UNKNOWN_MARK in str(e.key):
                continue  # a key vcfg cannot know: nothing to check
            if _UNKNOWN_MARK in e.value_word.value or (e.json_word is not None and _UNKNOWN_MARK in e.json_word.value) \
                    or any(_UNKNOWN_MARK in w.value for w in e.item_words):
                key = "--" + e.key
                out.append(_Tok(key, _synthetic_word(key, e.key_span), 0, "config"))
                uw = _unknown_value(e.value_word, e.value_span)
                out.append(_Tok(None, uw, 0, "config"))
                continue
            key = "--" + e.key
            kw = _synthetic_word(key, e.key_span)
            kt = _Tok(key, kw, 0, "config")
            v = e.value
            if isinstance(v, bool):
                if v:
                    out.append(kt)
                    continue
                no_key = "--no-" + e.key
                if self.v >= V_YAML_NO_KEY and not serve and self.cat.flag(no_key) is not None:
                    out.append(_Tok(no_key, _synthetic_word(no_key, e.key_span), 0, "config"))
                    continue
                self.problem("yaml-false-dropped",
                             f"`{e.key}: false` is ignored by vLLM's --config loader"
                             + (" (write the negative option on the command line)" if self.cat.flag(no_key) else ""),
                             e.value_span, key, severity="warning")
                continue
            if isinstance(v, list):
                if not v:
                    continue
                if self.v < V_YAML_LIST:
                    out.append(kt)
                    out.append(_Tok(str(v), e.value_word, 0, "config"))
                    continue
                out.append(kt)
                for w in e.item_words:
                    out.append(_Tok(w.value, w, 0, "config"))
                continue
            if isinstance(v, dict):
                out.append(kt)
                if self.v < V_YAML_DICT_JSON:
                    out.append(_Tok(str(v), _synthetic_word(str(v), e.value_span), 0, "config"))
                else:
                    out.append(_Tok(e.json_word.value, e.json_word, 0, "config"))
                continue
            out.append(kt)
            out.append(_Tok(e.value_word.value, e.value_word, 0, "config"))
        return out

    def step_normalise(self, toks: list[_Tok]) -> list[_Tok]:
        out: list[_Tok] = []
        pat = re.compile(r"(?<=--)[^.]*")

        def norm(s: str) -> str:
            return pat.sub(lambda m: m.group(0).replace("_", "-"), s, count=1)

        for i, t in enumerate(toks):
            s = t.text
            if s is None:
                if t.partial is not None and t.partial[0].startswith("--"):
                    name, k = t.partial
                    t = t._replace(partial=(norm(name), k))
                out.append(t)
                continue
            if s.startswith("--help="):
                out.append(t._replace(text="--help"))
            elif s.startswith("--"):
                if "=" in s:
                    k, v = s.split("=", 1)
                    out.append(t._replace(text=f"{norm(k)}={v}"))
                else:
                    out.append(t._replace(text=norm(s)))
            elif s.startswith("-O") and s != "-O" and (self.v >= (0, 13, 0) or s[2] != "."):
                level = s[3:] if s[2] == "=" else s[2:]
                sub = 3 if s[2] == "=" else 2
                if self.v >= V_OPT_LEVEL:
                    out.append(t._replace(text="--optimization-level"))
                    out.append(_Tok(level, t.word, t.start + sub, t.origin))
                else:
                    name = "mode" if self.v >= V_O_MODE else "level"
                    out.append(t._replace(text=f"-O.{name}={level}"))
            elif s.startswith("-O.") and (0, 12, 0) <= self.v < (0, 13, 0):
                self.problem("deprecated", "-O.* is deprecated in this version; use -cc.*", t.span(), "-O",
                             severity="warning")
                out.append(t._replace(text="-cc" + s[2:]))
            elif s == "-O" and i + 1 < len(toks) and toks[i + 1].text in ("0", "1", "2", "3"):
                if self.v >= V_OPT_LEVEL:
                    out.append(t._replace(text="--optimization-level"))
                else:
                    name = "mode" if self.v >= V_O_MODE else "level"
                    out.append(t._replace(text=f"-O.{name}"))
            else:
                out.append(t)
        return out

    def step_dotted(self, toks: list[_Tok]) -> list[_Tok]:
        delete: set[int] = set()
        merged: dict[str, dict[str, Any]] = {}
        locs: dict[str, dict[tuple[Any, ...], JsonLoc]] = {}
        first_tok: dict[str, _Tok] = {}
        whole_json: dict[str, _Tok] = {}
        for i, t in enumerate(toks):
            if i in delete:
                continue
            s = t.text
            if s is None:
                continue
            if s.startswith("--") and "." not in s:
                # duplicates of plain options are reported from the occurrences
                whole_json[s.split("=", 1)[0]] = t
                continue
            if not (s.startswith("-") and "." in s):
                continue
            if "=" in s:
                name_part, value_str = s.split("=", 1)
                if "." not in name_part:
                    continue
                vtok = _Tok(value_str, t.word, t.start + len(name_part) + 1, t.origin)
            else:
                name_part = s
                if i + 1 >= len(toks):
                    self.problem("missing-value", f"{s} expects a value (vLLM fails with an IndexError)", t.span(), s)
                    delete.add(i)
                    continue
                vtok = toks[i + 1]
                delete.add(i + 1)
                value_str = vtok.text  # type: ignore[assignment]
            delete.add(i)
            append = name_part.endswith("+")
            if append:
                name_part = name_part[:-1]
            key, *keys = name_part.split(".")
            if value_str is None:
                self.problem("unknown-value", f"value of {name_part} is not known ({vtok.word.describe_unknown()})",
                             vtok.span(), key, severity="info")
                value: Any = None
                known = False
            else:
                known = True
                if append:
                    value = list(value_str.split(","))
                else:
                    try:
                        value = json.loads(value_str)
                    except ValueError:
                        value = value_str
                        if self.v >= V_DOTTED_HRI:
                            try:
                                value = human_readable_int(value_str)
                            except ValueError:
                                value = value_str
            d = merged.setdefault(key, {})
            first_tok.setdefault(key, t)
            cur: Any = d
            for k in keys[:-1]:
                if not isinstance(cur.get(k), dict):
                    if k in cur:
                        self.problem("duplicate", f"{name_part}: key {k!r} given twice; the last one wins",
                                     t.span(), key, severity="warning")
                    cur[k] = {}
                cur = cur[k]
            last = keys[-1] if keys else ""
            if isinstance(value, list) and isinstance(cur.get(last), list):
                cur[last] = cur[last] + value
            else:
                if last in cur:
                    self.problem("duplicate", f"{name_part} given twice; the last one wins", t.span(), key,
                                 severity="warning")
                cur[last] = value if known else _UNKNOWN
            # positions: the key part of the option and the value word
            name_start = len(key) + 1
            kspan = t.sub(name_start, len(name_part) + (1 if append else 0))
            path = tuple(keys)
            lm = locs.setdefault(key, {})
            for p in [p for p in lm if p[: len(path)] == path]:
                del lm[p]
            lm[path] = JsonLoc(kspan, vtok.span())
        if not merged:
            return toks
        out = [t for i, t in enumerate(toks) if i not in delete]
        for key, d in merged.items():
            ft = first_tok[key]
            if key in whole_json:
                wt = whole_json[key]
                self.problem(
                    "dotted-overrides",
                    f"{key}.* keys are merged into one JSON value placed after {wt.text.split('=', 1)[0]}; "  # type: ignore[union-attr]
                    "it replaces the whole JSON value given earlier",
                    ft.span(), key, severity="warning",
                )
            known = not _contains_unknown(d)
            text = json.dumps(_strip_unknown(d))
            span = ft.span()
            w = _synthetic_word(text, span)
            if not known:
                w = Word(text, span, text, w.runs, (Hole(len(text), "a dotted value vcfg cannot compute", span),))
            # root location: the first dotted option
            lm = dict(locs.get(key, {}))
            lm.setdefault((), JsonLoc(None, span))
            out.append(_Tok(key, _synthetic_word(key, ft.sub(0, len(key))), 0, "dotted"))
            out.append(_Tok(text if known else None, w, 0, "dotted", None, lm))
        return out

    # ---------------------------------------------------------------- argparse
    def classify(self, t: _Tok) -> str:
        """'O' option-like, 'A' argument, '-' the ``--`` marker, '?' unknown."""
        s = t.text
        if s is None:
            if t.partial is not None:
                return "O"
            return "?"
        if not s or s[0] != "-" or s == "-":
            return "A"
        if s == "--":
            return "-"
        if self.cat.flag(s) is not None:
            return "O"
        if "=" in s and self.cat.flag(s.split("=", 1)[0]) is not None:
            return "O"
        self.option_strings()
        if not self._neg_like and re.fullmatch(r"-\d+$|-\d*\.\d+", s):
            return "A"
        if " " in s and self.lookup(s.split("=", 1)[0])[2] == "unknown":
            return "A"
        return "O"

    def step_argparse(self, toks: list[_Tok]) -> ParsedArgs:
        occ: list[OptionValue] = []
        unknown: list[OptionValue] = []
        extras: list[Word] = []
        model: Optional[OptionValue] = None
        pos_flag = self.positional_flag()
        kinds = [self.classify(t) for t in toks]
        i = 0
        n = len(toks)
        only_pos = False
        while i < n:
            t = toks[i]
            k = kinds[i]
            if only_pos or k in ("A", "?"):
                if k == "?" and t.word.may_split:
                    i += 1
                    continue
                if model is None and pos_flag is not None:
                    model = self.make_value(pos_flag, pos_flag.dest, t.text or "", [t], t.span(), t.span(), "exact",
                                            t.origin, known=t.text is not None)
                else:
                    extras.append(t.word if not t.start else t.word.slice(t.start, len(t.word.value)))
                    if t.text is not None:
                        self.problem("extra-argument", f"unrecognized argument {t.text!r}", t.span())
                i += 1
                continue
            if k == "-":
                only_pos = True
                i += 1
                continue
            # an option
            if t.text is None:
                name, eq = t.partial  # type: ignore[misc]
                explicit: Optional[_Tok] = _Tok(None, t.word, eq + 1, t.origin)
                opt = name
                name_span = t.word.span_of(0, eq)
            else:
                s = t.text
                explicit = None
                opt = s
                name_span = t.span()
                if self.cat.flag(s) is None and "=" in s:
                    opt, val = s.split("=", 1)
                    explicit = _Tok(val, t.word, t.start + len(opt) + 1, t.origin)
                    name_span = t.sub(0, len(opt))
            flag, matched, how = self.lookup(opt)
            if flag is None and how == "unknown" and not opt.startswith("--") and len(opt) > 2 and explicit is None:
                # -qfp8: a two-character short option with its value attached
                f2 = self.cat.flag(opt[:2])
                if f2 is not None:
                    flag, matched, how = f2, opt[:2], "exact"
                    explicit = _Tok(opt[2:], t.word, t.start + 2, t.origin)
                    name_span = t.sub(0, 2)
            if flag is None:
                if how.startswith("ambiguous:"):
                    self.problem("ambiguous-option", f"ambiguous option {opt!r} could match {how[10:]}",
                                 name_span, opt)
                else:
                    self.problem("unknown-option", f"unrecognized option {opt!r}", name_span, opt)
                # like argparse, an unknown option's following arguments are extras
                j = i + 1
                vals: list[_Tok] = [explicit] if explicit is not None else []
                if explicit is None:
                    while j < n and kinds[j] == "A":
                        vals.append(toks[j])
                        j += 1
                ov = OptionValue(None, opt, self._written(t), opt.lstrip("-").replace("-", "_"),
                                 [v.text for v in vals] if len(vals) != 1 else vals[0].text,
                                 all(v.text is not None for v in vals), tuple(v.word for v in vals),
                                 _join(name_span, vals), name_span, _join_vals(vals), t.origin)
                unknown.append(ov)
                i = j
                continue
            if how == "abbrev":
                self.problem("abbreviation", f"{opt!r} is an abbreviation of {matched!r}; it breaks when a new "
                             "option with the same prefix appears", name_span, matched, severity="warning")
            action = flag.action
            nargs = flag.nargs
            consumed: list[_Tok] = []
            if action in ("store_true", "store_false", "store_const", "boolean_optional", "enable_disable",
                          "help", "count"):
                if explicit is not None:
                    self.problem("unexpected-value", f"{matched} takes no value (got {explicit.text!r})",
                                 explicit.span(), matched)
                negated = _is_negative(flag, matched)
                if action == "store_true":
                    value: Any = True
                elif action == "store_false":
                    value = False
                elif action == "store_const":
                    value = flag.const
                elif action == "help":
                    value = True
                else:
                    value = not negated
                occ.append(OptionValue(flag, matched, self._written(t), flag.dest, value, True, (), name_span,
                                       name_span, None, t.origin, None, negated, how))
                i += 1
                continue
            # options with values
            j = i + 1
            if explicit is not None:
                consumed = [explicit]
            elif nargs in (None, "store") or (isinstance(nargs, int) and nargs == 1):
                if j < n and kinds[j] in ("A", "?"):
                    consumed = [toks[j]]
                    j += 1
                else:
                    self.problem("missing-value", f"{matched} expects a value", name_span, matched)
                    i = j
                    continue
            elif nargs == "?":
                if j < n and kinds[j] in ("A", "?"):
                    consumed = [toks[j]]
                    j += 1
            elif nargs in ("+", "*") or isinstance(nargs, int):
                while j < n and kinds[j] in ("A", "?"):
                    consumed.append(toks[j])
                    j += 1
                    if isinstance(nargs, int) and len(consumed) == nargs:
                        break
                if (nargs == "+" and not consumed) or (isinstance(nargs, int) and len(consumed) < nargs):
                    self.problem("missing-value", f"{matched} expects {'at least one' if nargs == '+' else nargs} "
                                 "value(s)", name_span, matched)
                    i = j
                    continue
            else:
                if j < n and kinds[j] in ("A", "?"):
                    consumed = [toks[j]]
                    j += 1
            ov = self.convert(flag, matched, t, name_span, consumed, nargs, how)
            if action == "append":
                prev = next((o for o in reversed(occ) if o.dest == flag.dest), None)
                if prev is not None and prev.known and ov.known:
                    ov = OptionValue(ov.flag, ov.option, ov.written, ov.dest,
                                     list(prev.value) + [ov.value], True, ov.words, ov.span, ov.name_span,
                                     ov.value_span, ov.origin, ov.json, ov.negated, ov.match)
                elif ov.known:
                    ov = OptionValue(ov.flag, ov.option, ov.written, ov.dest, [ov.value], True, ov.words, ov.span,
                                     ov.name_span, ov.value_span, ov.origin, ov.json, ov.negated, ov.match)
            occ.append(ov)
            i = j
        # duplicates: both kept, the last wins
        final: dict[str, OptionValue] = {}
        by_dest: dict[str, list[OptionValue]] = {}
        for o in occ:
            by_dest.setdefault(o.dest, []).append(o)
            final[o.dest] = o
        for dest, lst in by_dest.items():
            if len(lst) > 1 and lst[-1].flag is not None and lst[-1].flag.action != "append":
                firsts = ", ".join(f"{o.written} (line {o.name_span.line})" for o in lst[:-1])
                said = "vLLM only logs a warning" if self.v >= V_DUP_WARN else "vLLM says nothing"
                self.problem("duplicate", f"{lst[-1].option} is given {len(lst)} times; the last one wins "
                             f"(earlier: {firsts}; {said})", lst[-1].name_span, lst[-1].option, severity="warning")
        return ParsedArgs(
            version=self.version,
            kind=self.kind,
            options=final,
            occurrences=tuple(occ),
            unknown_options=tuple(unknown),
            model=model,
            extra_positionals=tuple(extras),
            problems=tuple(self.problems),
            complete=self.complete,
            config_path=self.config_path,
        )

    def _written(self, t: _Tok) -> str:
        if t.word.known:
            return t.word.value[t.start :] if t.start else t.word.value
        return t.word.value

    def make_value(self, flag: "Flag", dest: str, value: Any, toks: list[_Tok], span: Span, name_span: Span,
                   how: str, origin: str, known: bool = True) -> OptionValue:
        return OptionValue(flag, flag.long_name if flag.option_strings else dest, toks[0].text or "", dest, value,
                           known, tuple(t.word for t in toks), span, name_span, span, origin, None, False, how)

    def convert(self, flag: "Flag", matched: str, t: _Tok, name_span: Span, consumed: list[_Tok], nargs: Any,
                how: str) -> OptionValue:
        vspan = _join_vals(consumed)
        span = join_spans(name_span, vspan) if vspan is not None and vspan.file == name_span.file else name_span
        origin = "dotted" if consumed and consumed[0].origin == "dotted" else t.origin
        words = tuple(c.word for c in consumed)
        if not consumed:
            # nargs="?" without a value: the const
            return OptionValue(flag, matched, self._written(t), flag.dest, flag.const, True, (), span, name_span,
                               None, origin, None, False, how)
        unknown = [c for c in consumed if c.text is None]
        if unknown:
            c = unknown[0]
            self.problem("unknown-value", f"the value of {matched} is not known ({c.word.describe_unknown()})",
                         c.span(), matched, severity="info")
            return OptionValue(flag, matched, self._written(t), flag.dest, None, False, words, span, name_span,
                               vspan, origin, None, False, how)
        many = nargs in ("+", "*") or (isinstance(nargs, int) and nargs != 1)
        values: list[Any] = []
        doc: Optional[JsonDoc] = None
        ok = True
        for c in consumed:
            try:
                v, d = self.typed(flag, c)
            except ValueError as e:
                self.problem(*self._conv_problem(flag, matched, c, e))
                ok = False
                continue
            if d is not None:
                doc = d
            if flag.choices is not None and not _in_choices(v, flag.choices):
                shown = ", ".join(str(x) for x in flag.choices[:12])
                self.problem("invalid-choice", f"invalid choice {c.text!r} for {matched} (choose from {shown})",
                             c.span(), matched)
                ok = False
            values.append(v)
        if not ok:
            return OptionValue(flag, matched, self._written(t), flag.dest, None, False, words, span, name_span,
                               vspan, origin, doc, False, how)
        value = values if many else values[0]
        return OptionValue(flag, matched, self._written(t), flag.dest, value, True, words, span, name_span, vspan,
                           origin, doc, False, how)

    def _conv_problem(self, flag: "Flag", matched: str, c: _Tok, e: ValueError) -> tuple[str, str, Span, str]:
        if isinstance(e, JsonSyntaxError):
            pos = e.pos
            sp = c.sub(pos, pos + 1) if c.text else c.span()
            if c.doc_locs is None and isinstance(e, _MappedJsonError):
                sp = e.span or sp
            return "invalid-json", f"invalid JSON for {matched}: {e.msg}", sp, matched
        kind = (flag.type or "str").split(":")[0]
        return "invalid-value", f"invalid {kind} value for {matched}: {c.text!r}{(': ' + str(e)) if isinstance(e, ArgTypeError) else ''}", c.span(), matched

    def typed(self, flag: "Flag", c: _Tok) -> tuple[Any, Optional[JsonDoc]]:
        s: str = c.text  # type: ignore[assignment]
        ty = flag.type
        if flag.optional and s in ("", "None"):
            return None, None
        if ty is None or ty in ("str", "bool"):
            return s, None
        if ty == "int":
            return int(s), None
        if ty == "float":
            return float(s), None
        if ty == "human_readable_int":
            return human_readable_int(s), None
        if ty == "human_readable_int_or_auto":
            return human_readable_int_or_auto(s), None
        if ty == "lower_underscore":
            return s.lower().replace("-", "_"), None
        if ty == "dict_or_str":
            if not re.match(r"(?s)^\s*{.*}\s*$", s):
                return s, None
            return self.json_value(c, s, hri=False)
        if ty in ("json", "config"):
            return self.json_value(c, s, hri=(ty == "config" and self.v >= V_JSON_HRI))
        return s, None

    def json_value(self, c: _Tok, s: str, hri: bool) -> tuple[Any, JsonDoc]:
        if c.doc_locs is not None:
            v = json.loads(s)
            return v, JsonDoc(v, dict(c.doc_locs))
        text, idx = (expand_json_numbers(s) if hri else (s, None))
        try:
            doc = _doc_from(text, c.word, idx, c.start)
        except JsonSyntaxError as e:
            pos = idx[min(e.pos, len(idx) - 1)] if idx is not None else e.pos
            err = _MappedJsonError(e.msg, pos)
            err.span = c.sub(pos, pos + 1) if s else c.span()
            raise err from None
        return doc.value, doc


class _MappedJsonError(JsonSyntaxError):
    span: Optional[Span] = None


class _Unknown:
    def __repr__(self) -> str:
        return "<unknown>"


_UNKNOWN = _Unknown()


def _contains_unknown(d: Any) -> bool:
    if d is _UNKNOWN:
        return True
    if isinstance(d, dict):
        return any(_contains_unknown(v) for v in d.values())
    return False


def _strip_unknown(d: Any) -> Any:
    if isinstance(d, dict):
        return {k: _strip_unknown(v) for k, v in d.items() if v is not _UNKNOWN}
    return d


def _is_negative(flag: "Flag", opt: str) -> bool:
    if flag.action == "boolean_optional":
        return opt.startswith("--no-")
    if flag.action == "enable_disable":
        if opt.startswith("--no-"):
            return True
        primary = flag.option_strings[0] if flag.option_strings else ""
        if primary.startswith("--enable-") and opt.startswith("--disable-"):
            return True
        if primary.startswith("--disable-") and opt.startswith("--enable-"):
            return True
    return False


def _in_choices(v: Any, choices: list[Any]) -> bool:
    if v in choices:
        return True
    if isinstance(v, list):
        return all(x in choices for x in v)
    return False


def _join_vals(vals: Sequence[_Tok]) -> Optional[Span]:
    spans = [v.span() for v in vals]
    if not spans:
        return None
    a, b = spans[0], spans[-1]
    return join_spans(a, b) if a.file == b.file else a


def _join(name: Span, vals: Sequence[_Tok]) -> Span:
    v = _join_vals(vals)
    if v is None or v.file != name.file:
        return name
    return join_spans(name, v)


# --------------------------------------------------------------------------- API


def parse_args(
    words: Sequence[Word],
    catalog: "Catalog",
    *,
    kind: str = SERVE,
    serve: bool = True,
    base_dir: Optional[str] = None,
    files: Optional[Mapping[str, Any]] = None,
    read_files: bool = True,
) -> ParsedArgs:
    """Resolve argv words (after ``serve``, or after an api_server module) the
    way the vLLM version of ``catalog`` would.  ``serve``: the words follow
    ``vllm serve`` (True) or an api_server module (False).

    ``files``: config files known without reading the disk (path as written ->
    bytes/str or a `Word` from a heredoc).  ``base_dir``: where relative
    ``--config`` paths are looked up (the script's folder)."""
    p = _Parser(catalog, kind, serve, base_dir, files or {}, read_files)
    try:
        return p.run(words)
    except RecursionError:
        sp = words[0].span if words else Span(0, 0, 1, 1, 1, 1)
        p.problem("internal", "arguments nested too deeply to analyse", sp)
    except Exception as e:  # never a traceback for the user
        sp = words[0].span if words else Span(0, 0, 1, 1, 1, 1)
        p.problem("internal", f"vcfg could not analyse these arguments: {type(e).__name__}: {e}", sp)
    return ParsedArgs(catalog.vllm_version, kind, {}, (), (), None, (), tuple(p.problems), False, p.config_path)


def parse_invocation(inv: Invocation, catalog: "Catalog", plan: Optional[LaunchPlan] = None,
                     *, read_files: bool = True) -> ParsedArgs:
    """`parse_args` for one launch of a plan: ``--config`` files are taken from
    the script's heredocs first, then looked up next to the script."""
    files: dict[str, Any] = {}
    base_dir = None
    if plan is not None:
        for wf in plan.written_files:
            if wf.path.text is not None:
                files[wf.path.text] = wf.content if wf.content.known else _marked(wf.content)
        if plan.path and not plan.path.startswith("<"):
            base_dir = os.path.dirname(os.path.abspath(plan.path))
    return parse_args(inv.args, catalog, kind=inv.kind, serve=inv.subcommand[:1] == ("serve",),
                      base_dir=base_dir, files=files, read_files=read_files)


__all__ = [
    "ArgProblem",
    "JsonDoc",
    "JsonLoc",
    "OptionValue",
    "ParsedArgs",
    "expand_json_numbers",
    "human_readable_int",
    "human_readable_int_or_auto",
    "parse_args",
    "parse_invocation",
    "parse_json_positions",
    "version_tuple",
]
