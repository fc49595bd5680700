"""YAML front ends: ``vllm serve --config`` files, and Kubernetes / compose
manifests whose containers run vLLM.

`load_serve_config` reads a config file the way vLLM's ``load_config_file``
does (``yaml.safe_load``, top-level mapping; 0.33 utils/argparse_utils.py:606-673)
and keeps the position of every key and value, so an option that came from the
file is reported at its line.  A dict value is re-encoded as the JSON vLLM
builds from it (``json.dumps``), with every key and value of that JSON mapped
back to its YAML node.

The Kubernetes and compose readers (`vcfg.launch.readers`) use its positions
(`_TextLoc`, `_scalar_word`) for the container specs they read.
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

import yaml

from vcfg.launch.model import (
    LineIndex,
    ParseProblem,
    Run,
    Span,
    Word,
)
from vcfg.records import record
from vcfg.span import source_text

_STEP = 64
#: positions up to this many characters are counted directly, without the table
_DIRECT = 4096


class _TextLoc:
    """Character indexes of a decoded text -> spans in its file (or, when the
    text is a heredoc, in the script that wrote it).

    The line table and, for a non-ASCII text, the character-to-byte table are made
    when a position past the first `_DIRECT` characters is first asked for: a file
    whose reading asks none (20 MiB of random bytes read as YAML, its error near the
    start) does not pay the 2-3 s of CPU they cost."""

    def __init__(self, text: str, path: str, word: Optional[Word] = None) -> None:
        self.text = text
        self.word = word
        self.path = path
        self._li: Optional[LineIndex] = None
        self._c2b: Optional[list[int]] = None
        self.ascii = word is not None or text.isascii()

    @property
    def li(self) -> LineIndex:
        if self._li is None:
            self._li = LineIndex(self.text.encode("utf-8", "surrogateescape"), self.path)
        return self._li

    def _b(self, ci: int) -> int:
        text = self.text
        ci = max(0, min(ci, len(text)))
        if self.ascii:
            return ci
        if ci <= _DIRECT:
            return len(text[:ci].encode("utf-8", "surrogateescape"))
        c2b = self._c2b
        if c2b is None:
            # the byte offset of every _STEP-th character: a per-character table
            # of a 20 MiB non-ASCII file was 20 million ints (1 GB, 20 s)
            c2b = [0]
            for i in range(0, len(text), _STEP):
                c2b.append(c2b[-1] + len(text[i : i + _STEP].encode("utf-8", "surrogateescape")))
            self._c2b = c2b
        k, r = divmod(ci, _STEP)
        base = c2b[k]
        return base + len(text[ci - r : ci].encode("utf-8", "surrogateescape")) if r else base

    def span(self, ci: int, cj: int) -> Span:
        if self.word is not None:
            if not self.word.value:
                return self.word.span
            if cj <= ci:
                s = self.word.char_span(min(ci, len(self.word.value) - 1))
                return Span(s.start, s.start, s.line, s.col, s.line, s.col, s.file)
            return self.word.span_of(ci, cj)
        return self.li.span(self._b(ci), self._b(cj))

    def word_for(self, value: str, ci: int, cj: int, style: Optional[str] = None) -> Word:
        """A word holding ``value``; exact positions when the YAML source
        spells it out character for character (or, for a quoted scalar,
        character by character through its escapes)."""
        sp = self.span(ci, cj)
        if style in ("'", '"') and value:
            idx = _quoted_positions(self.text, ci, cj, style, value)
            if idx is not None:
                return Word(value, sp, self.text[ci:cj], self._runs_from(idx), (), True)
        if self.text[ci:cj] == value and value:
            if self.word is not None:
                w = self.word.slice(ci, cj)
                return Word(value, sp, value, w.runs)
            runs = []
            pos = 0
            for line in value.splitlines(keepends=True):
                runs.append(Run(pos, len(line), self.span(ci + pos, ci + pos + len(line)), True))
                pos += len(line)
            return Word(value, sp, value, tuple(runs))
        return Word(value, sp, self.text[ci:cj], (Run(0, len(value), sp, False),) if value else ())

    def _runs_from(self, idx: list[tuple[int, int]]) -> tuple[Run, ...]:
        """Runs for characters whose sources are ``idx[k] = (start, end)``."""
        runs: list[Run] = []
        k = 0
        n = len(idx)
        while k < n:
            a, b = idx[k]
            if b - a != 1 or self.text[a] == "\n":
                runs.append(Run(k, 1, self.span(a, b), b - a == 1))
                k += 1
                continue
            j = k + 1
            while j < n and idx[j] == (idx[j - 1][1], idx[j - 1][1] + 1) and self.text[idx[j][0]] != "\n":
                j += 1
            runs.append(Run(k, j - k, self.span(a, idx[j - 1][1]), True))
            k = j
        return tuple(runs)


_YAML_ESC = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}


def _quoted_positions(text: str, a: int, b: int, style: str, value: str) -> Optional[list[tuple[int, int]]]:
    """Source (start, end) of every character of a single-line quoted YAML
    scalar, or None when the scalar folds lines or does not decode to value."""
    if b - a < 2 or text[a] != style or text[b - 1] != style:
        return None
    inner = text[a + 1 : b - 1]
    if "\n" in inner:
        return None
    out: list[tuple[int, int]] = []
    chars: list[str] = []
    i = a + 1
    end = b - 1
    while i < end:
        c = text[i]
        if style == "'" and c == "'" and i + 1 < end and text[i + 1] == "'":
            chars.append("'")
            out.append((i, i + 2))
            i += 2
            continue
        if style == '"' and c == "\\" and i + 1 < end:
            e = text[i + 1]
            if e in _YAML_ESC:
                chars.append(_YAML_ESC[e])
                out.append((i, i + 2))
                i += 2
                continue
            n = {"x": 2, "u": 4, "U": 8}.get(e)
            if n is None:
                return None
            h = text[i + 2 : i + 2 + n]
            try:
                chars.append(chr(int(h, 16)))
            except ValueError:
                return None
            out.append((i, i + 2 + n))
            i += 2 + n
            continue
        chars.append(c)
        out.append((i, i + 1))
        i += 1
    if "".join(chars) != value:
        return None
    return out


@record(frozen=True)
class ConfigEntry:
    """One top-level key of a --config file."""

    key: str
    key_span: Span
    value: Any
    value_span: Span
    #: str(value) as vLLM passes a scalar (``null`` -> ``"None"``).
    value_word: Word
    #: for lists: str(item) for each item.
    item_words: tuple[Word, ...] = ()
    #: for dicts: json.dumps(value), positions mapped to the YAML nodes.
    json_word: Optional[Word] = None


@record(frozen=True)
class ServeConfig:
    path: str
    entries: Optional[list[ConfigEntry]]
    problems: tuple[ParseProblem, ...] = ()

    def get(self, key: str) -> Optional[ConfigEntry]:
        for e in reversed(self.entries or []):
            if e.key == key:
                return e
        return None


def _decode(text: Any) -> tuple[str, Optional[Word]]:
    if isinstance(text, Word):
        return text.value, text
    if isinstance(text, (bytes, bytearray)):
        # a byte that is not UTF-8 stays one character (a lone surrogate), which the
        # loader reports at its place: vLLM's open() of the file would fail on it
        return source_text(text if isinstance(text, bytes) else bytes(text)), None
    return str(text), None


def _node_span(loc: _TextLoc, node: Any) -> Span:
    return loc.span(node.start_mark.index, node.end_mark.index)


def _json_key(k: Any) -> str:
    if isinstance(k, str):
        return json.dumps(k)
    if k is True:
        return '"true"'
    if k is False:
        return '"false"'
    if k is None:
        return '"null"'
    if isinstance(k, float):
        return json.dumps(json.dumps(k))
    return json.dumps(str(k))


class _JsonBuilder:
    """json.dumps(value) built piece by piece, each piece mapped to a YAML node."""

    def __init__(self, loc: _TextLoc, loader: Any) -> None:
        self.loc = loc
        self.loader = loader
        self.parts: list[str] = []
        self.runs: list[Run] = []
        self.n = 0

    def emit(self, s: str, span: Span) -> None:
        if s:
            self.parts.append(s)
            self.runs.append(Run(self.n, len(s), span, False))
            self.n += len(s)

    def node(self, node: Any, value: Any) -> None:
        sp = _node_span(self.loc, node)
        if isinstance(value, dict) and isinstance(node, yaml.MappingNode):
            pairs = []
            for kn, vn in node.value:
                if kn.tag == "tag:yaml.org,2002:merge":
                    raise ValueError("merge keys")
                pairs.append((self.loader.construct_object(kn, deep=True), kn, vn))
            last = {}
            for k, kn, vn in pairs:
                last[k] = (kn, vn)
            self.emit("{", sp)
            for i, (k, (kn, vn)) in enumerate(last.items()):
                if i:
                    self.emit(", ", sp)
                self.emit(_json_key(k), _node_span(self.loc, kn))
                self.emit(": ", sp)
                self.node(vn, value[k])
            self.emit("}", sp)
            return
        if isinstance(value, list) and isinstance(node, yaml.SequenceNode):
            self.emit("[", sp)
            for i, (vn, v) in enumerate(zip(node.value, value)):
                if i:
                    self.emit(", ", sp)
                self.node(vn, v)
            self.emit("]", sp)
            return
        self.emit(json.dumps(value), sp)

    def word(self, whole: Span) -> Word:
        text = "".join(self.parts)
        return Word(text, whole, text, tuple(self.runs))


def load_serve_config(text: Any, path: str = "<config>", run: Optional[dict[Any, Any]] = None) -> ServeConfig:
    """Read a ``vllm serve --config`` YAML file (bytes, str, or a heredoc
    `Word`).  Never raises: problems carry positions.  The lint engine reads a
    linted YAML file to tell a serve config from a manifest, and the argv resolver
    reads it again as the launch's ``--config``: bytes are parsed once, kept in the
    run's ``run`` store (`vcfg.lint.context.Run.configs`: a batch reads every file before
    it resolves any launch's argv) and in a few entries across runs."""
    if isinstance(text, (bytes, bytearray)):
        data = bytes(text)
        key = (data, path)
        hit = run.get(key) if run is not None else None
        if hit is None:
            hit = _PARSED.get(key)
            if hit is None:
                hit = _PARSED[key] = _load(data, path)
                while len(_PARSED) > 16:
                    del _PARSED[next(iter(_PARSED))]
            if run is not None:
                run[key] = hit
        return hit
    return _load(text, path)


#: (bytes, the path as its positions show it) -> the config read from them: kept across
#: runs, so the key holds the spelling too (a run labels a file it was given with the
#: path as given, `vcfg.lint.context.Run.names`; keyed on the absolute path, one run's
#: spelling was shown in the next's findings)
_PARSED: dict[tuple[bytes, str], ServeConfig] = {}


def _load(text: Any, path: str) -> ServeConfig:
    s, word = _decode(text)
    loc = _TextLoc(s, path, word)
    problems: list[ParseProblem] = []
    try:
        from vcfg.launch.yaml_bounds import BoundedLoader

        loader = BoundedLoader(s)
        try:
            root = loader.get_single_node()
            if root is None:
                return ServeConfig(path, None, (ParseProblem("yaml", "the config file is empty", loc.span(0, 0)),))
            if not isinstance(root, yaml.MappingNode):
                return ServeConfig(
                    path,
                    None,
                    (
                        ParseProblem(
                            "yaml", "the config file must be a mapping of option: value", _node_span(loc, root)
                        ),
                    ),
                )
            entries: list[ConfigEntry] = []
            for kn, vn in root.value:
                if kn.tag == "tag:yaml.org,2002:merge":
                    problems.append(ParseProblem("yaml", "YAML merge keys are not supported here", _node_span(loc, kn)))
                    continue
                key = loader.construct_object(kn, deep=True)
                value = loader.construct_object(vn, deep=True)
                ksp = _node_span(loc, kn)
                vsp = _node_span(loc, vn)
                vstr = str(value)
                if isinstance(vn, yaml.ScalarNode):
                    vw = loc.word_for(vstr, vn.start_mark.index, vn.end_mark.index, vn.style)
                else:
                    vw = Word(vstr, vsp, vstr, (Run(0, len(vstr), vsp, False),) if vstr else ())
                items: tuple[Word, ...] = ()
                jw: Optional[Word] = None
                if isinstance(value, list) and isinstance(vn, yaml.SequenceNode):
                    iw = []
                    for inode, item in zip(vn.value, value):
                        it = str(item)
                        if isinstance(inode, yaml.ScalarNode):
                            iw.append(loc.word_for(it, inode.start_mark.index, inode.end_mark.index, inode.style))
                        else:
                            isp = _node_span(loc, inode)
                            iw.append(Word(it, isp, it, (Run(0, len(it), isp, False),) if it else ()))
                    items = tuple(iw)
                if isinstance(value, dict):
                    try:
                        expected = json.dumps(value)
                    except (TypeError, ValueError) as e:
                        problems.append(
                            ParseProblem("yaml", f"{key}: vLLM cannot turn this value into JSON ({e})", vsp)
                        )
                        expected = None
                    if expected is not None:
                        try:
                            b = _JsonBuilder(loc, loader)
                            b.node(vn, value)
                            jw = b.word(vsp)
                            if jw.value != expected:
                                raise ValueError("mismatch")
                        except (ValueError, TypeError):
                            jw = Word(expected, vsp, expected, (Run(0, len(expected), vsp, False),))
                entries.append(ConfigEntry(str(key), ksp, value, vsp, vw, items, jw))
            return ServeConfig(path, entries, tuple(problems))
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        sp = loc.span(mark.index, mark.index + 1) if mark is not None else loc.span(0, 0)
        msg = f"invalid YAML: {e.problem or e.context}"
        return ServeConfig(path, None, (ParseProblem("yaml", msg, sp),))
    except (yaml.YAMLError, RecursionError, ValueError, TypeError) as e:
        return ServeConfig(path, None, (ParseProblem("yaml", f"invalid YAML: {e}", loc.span(0, 0)),))


# --------------------------------------------------------------------------- manifests


def _scalar_word(loc: _TextLoc, node: Any) -> Word:
    """A YAML scalar as one word, positions exact where the text allows,
    including literal block scalars (``|``), mapped line by line."""
    value = node.value if isinstance(node.value, str) else str(node.value)
    a, b = node.start_mark.index, node.end_mark.index
    if loc.text[a:b] == value:
        return loc.word_for(value, a, b, node.style)
    if node.style in ("'", '"'):
        w = loc.word_for(value, a, b, node.style)
        if loc.word is not None or not w.runs or len(w.runs) > 1 or w.runs[0].exact:
            return w
        return _aligned_word(loc, value, a, b, node.style)  # a quoted scalar folded over lines
    if node.style == ">" or (node.style is None and "\n" in loc.text[a:b]):
        if loc.word is None:
            return _aligned_word(loc, value, a, b, node.style)
    if node.style in ("|",) and loc.word is None:
        runs: list[Run] = []
        pos = 0
        search = a
        for line in value.splitlines(keepends=True):
            body = line.rstrip("\n")
            k = loc.text.find(body, search, b) if body else -1
            if k < 0:
                if line:
                    runs.append(Run(pos, len(line), loc.span(a, b), False))
            else:
                runs.append(Run(pos, len(line), loc.span(k, k + len(line)), True))
                search = k + len(body)
            pos += len(line)
        return Word(value, loc.span(a, b), loc.text[a:b], tuple(runs))
    sp = loc.span(a, b)
    return Word(value, sp, loc.text[a:b], (Run(0, len(value), sp, False),) if value else ())


_TOKEN = re.compile(r"\S+")


def _aligned_word(loc: _TextLoc, value: str, a: int, b: int, style: Optional[str]) -> Word:
    """A scalar YAML folds (``>``, a plain or quoted scalar over several lines): each
    run of non-blank characters is found in the source in order, so the words a
    shell makes of it keep exact positions; the folded blanks map to the scalar."""
    runs: list[Run] = []
    whole = loc.span(a, b)
    cursor = a
    for m in _TOKEN.finditer(value):
        tok = m.group(0)
        k = loc.text.find(tok, cursor, b)
        if k >= 0:
            runs.append(Run(m.start(), len(tok), loc.span(k, k + len(tok)), True))
            cursor = k + len(tok)
            continue
        esc = tok.replace("\\", "\\\\").replace('"', '\\"') if style == '"' else tok.replace("'", "''")
        k = loc.text.find(esc, cursor, b)
        if k >= 0:
            runs.append(Run(m.start(), len(tok), loc.span(k, k + len(esc)), esc == tok))
            cursor = k + len(esc)
        else:
            runs.append(Run(m.start(), len(tok), whole, False))
    return Word(value, whole, loc.text[a:b], tuple(runs))


__all__ = ["ConfigEntry", "ServeConfig", "load_serve_config"]
