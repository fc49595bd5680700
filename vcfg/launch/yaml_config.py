"""YAML front ends: ``vllm serve --config`` files, and Kubernetes / compose
manifests whose containers run vLLM.

`load_serve_config` reads a config file the way vLLM's ``load_config_file``
does (``yaml.safe_load``, top-level mapping; 0.33 utils/argparse_utils.py:606-673)
and keeps the position of every key and value, so an option that came from the
file is reported at its line.  A dict value is re-encoded as the JSON vLLM
builds from it (``json.dumps``), with every key and value of that JSON mapped
back to its YAML node.

`parse_manifest` finds containers (``command``/``args`` lists, compose
``command``/``entrypoint`` strings, ``bash -c`` block scalars) and turns them
into a `LaunchPlan` with the same `Invocation`s as a shell script; a
container's ``env`` list (or compose ``environment``) is its environment, and
Kubernetes ``$(VAR)`` references in args are resolved from it.
"""

from __future__ import annotations

import json
import os
from typing import Any, Optional

import yaml

from vcfg.launch.model import (
    Hole,
    LaunchPlan,
    LineIndex,
    ParseProblem,
    Run,
    Span,
    Unknown,
    Word,
)
from vcfg.records import record


class _TextLoc:
    """Character indexes of a decoded text -> spans in its file (or, when the
    text is a heredoc, in the script that wrote it)."""

    def __init__(self, text: str, path: str, word: Optional[Word] = None) -> None:
        self.text = text
        self.word = word
        self.path = path
        if word is None:
            data = text.encode("utf-8", "surrogateescape")
            self.li = LineIndex(data, path)
            self.ascii = text.isascii()
            if not self.ascii:
                c2b = [0]
                for ch in text:
                    c2b.append(c2b[-1] + len(ch.encode("utf-8", "surrogateescape")))
                self.c2b = c2b

    def _b(self, ci: int) -> int:
        ci = max(0, min(ci, len(self.text)))
        return ci if self.ascii else self.c2b[ci]

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


_YAML_ESC = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
             "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
             "L": "\u2028", "P": "\u2029"}


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
        return bytes(text).decode("utf-8", "replace"), None
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


def load_serve_config(text: Any, path: str = "<config>") -> ServeConfig:
    """Read a ``vllm serve --config`` YAML file (bytes, str, or a heredoc
    `Word`).  Never raises: problems carry positions.  The lint engine reads a
    linted YAML file to tell a serve config from a manifest, and the argv resolver
    reads it again as the launch's ``--config``: bytes are parsed once."""
    if isinstance(text, (bytes, bytearray)):
        data = bytes(text)
        key = (data, os.path.abspath(path) if not path.startswith("<") else path)
        hit = _PARSED.get(key)
        if hit is None:
            hit = _PARSED[key] = _load(data, path)
            while len(_PARSED) > 16:
                del _PARSED[next(iter(_PARSED))]
        return hit
    return _load(text, path)


#: (bytes, absolute path) -> the config read from them; the first reader's spelling
#: of the path (the one the user gave) labels the positions
_PARSED: dict[tuple[bytes, str], ServeConfig] = {}


def _load(text: Any, path: str) -> ServeConfig:
    s, word = _decode(text)
    loc = _TextLoc(s, path, word)
    problems: list[ParseProblem] = []
    try:
        loader = yaml.SafeLoader(s)
        try:
            root = loader.get_single_node()
            if root is None:
                return ServeConfig(path, None, (ParseProblem("yaml", "the config file is empty", loc.span(0, 0)),))
            if not isinstance(root, yaml.MappingNode):
                return ServeConfig(path, None, (ParseProblem(
                    "yaml", "the config file must be a mapping of option: value", _node_span(loc, root)),))
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
                        problems.append(ParseProblem("yaml", f"{key}: vLLM cannot turn this value into JSON ({e})", vsp))
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
    if loc.text[a:b] == value or node.style in ("'", '"'):
        return loc.word_for(value, a, b, node.style)
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


def _list_words(loc: _TextLoc, node: Any) -> Optional[list[Word]]:
    if isinstance(node, yaml.SequenceNode):
        out = []
        for it in node.value:
            if isinstance(it, yaml.ScalarNode):
                out.append(_scalar_word(loc, it))
            else:
                return None
        return out
    return None


def _mapping(node: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(node, yaml.MappingNode):
        for kn, vn in node.value:
            if isinstance(kn, yaml.ScalarNode):
                out[kn.value] = vn
    return out


def _k8s_interpolate(w: Word, env: dict[str, Word]) -> Word:
    """Kubernetes ``$(VAR)`` in command/args, from the container's env."""
    v = w.value
    if "$(" not in v:
        return w
    import re

    parts: list[Word] = []
    last = 0
    for m in re.finditer(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", v):
        if m.start() > last:
            parts.append(w.slice(last, m.start()))
        name = m.group(1)
        if name in env:
            parts.append(env[name])
        else:
            sp = w.span_of(m.start(), m.end())
            parts.append(Word("", sp, "", (), (Hole(0, f"$({name}) is not in the container's env", sp),)))
        last = m.end()
    if last < len(v):
        parts.append(w.slice(last, len(v)))
    text = ""
    runs: list[Run] = []
    holes: list[Hole] = []
    for p in parts:
        runs.extend(Run(r.at + len(text), r.length, r.span, r.exact) for r in p.runs)
        holes.extend(Hole(h.at + len(text), h.reason, h.span, h.may_split) for h in p.holes)
        text += p.value
    return Word(text, w.span, w.raw, tuple(runs), tuple(holes), w.quoted)


def _container_env(loc: _TextLoc, c: dict[str, Any], unknowns: list[Unknown]) -> list[tuple[str, Word, Span]]:
    out: list[tuple[str, Word, Span]] = []
    env = c.get("env")
    if isinstance(env, yaml.SequenceNode):
        for item in env.value:
            m = _mapping(item)
            name = m.get("name")
            if not isinstance(name, yaml.ScalarNode):
                continue
            sp = _node_span(loc, item)
            if isinstance(m.get("value"), yaml.ScalarNode):
                out.append((name.value, _scalar_word(loc, m["value"]), sp))
            elif "valueFrom" in m:
                vf = m["valueFrom"]
                what = "a fieldRef" if "fieldRef" in _mapping(vf) else "a secret or config map"
                out.append((name.value, Word("", sp, "", (), (Hole(0, f"{name.value} comes from {what}", sp),)), sp))
            else:
                out.append((name.value, Word("", sp), sp))
    elif isinstance(env, yaml.MappingNode):
        for kn, vn in env.value:
            if isinstance(kn, yaml.ScalarNode) and isinstance(vn, yaml.ScalarNode):
                out.append((kn.value, _scalar_word(loc, vn), _node_span(loc, kn)))
    envc = c.get("environment")  # compose
    if isinstance(envc, yaml.MappingNode):
        for kn, vn in envc.value:
            if isinstance(kn, yaml.ScalarNode) and isinstance(vn, yaml.ScalarNode):
                out.append((kn.value, _scalar_word(loc, vn), _node_span(loc, kn)))
    elif isinstance(envc, yaml.SequenceNode):
        for item in envc.value:
            if isinstance(item, yaml.ScalarNode) and "=" in item.value:
                w = _scalar_word(loc, item)
                k = w.value.index("=")
                out.append((w.value[:k], w.slice(k + 1, len(w.value)), _node_span(loc, item)))
    if "envFrom" in c or "env_file" in c:
        unknowns.append(Unknown("container", "environment loaded from envFrom/env_file", _node_span(loc, c.get("envFrom") or c.get("env_file"))))
    return out


def parse_manifest(text: Any, path: str = "<manifest>", *, compose: bool = False) -> LaunchPlan:
    """Kubernetes / compose YAML -> `LaunchPlan` (one invocation per container
    that runs vLLM, a vLLM benchmark or a proxy).  Never raises.  ``compose``: a
    service's ``command`` replaces the image's CMD, not its entrypoint (in
    Kubernetes, ``command`` replaces the entrypoint and ``args`` the CMD)."""
    from vcfg.launch import shell

    s, word = _decode(text)
    loc = _TextLoc(s, path, word)
    problems: list[ParseProblem] = []
    unknowns: list[Unknown] = []
    invocations: list[Any] = []
    try:
        loader = yaml.SafeLoader(s)
        try:
            docs = []
            while loader.check_node():
                docs.append(loader.get_node())
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        sp = loc.span(mark.index, mark.index + 1) if mark is not None else loc.span(0, 0)
        return LaunchPlan(path, problems=(ParseProblem("yaml", f"invalid YAML: {e.problem or e.context}", sp),),
                          source_kind="yaml")
    except (yaml.YAMLError, RecursionError, ValueError) as e:
        return LaunchPlan(path, problems=(ParseProblem("yaml", f"invalid YAML: {e}", loc.span(0, 0)),),
                          source_kind="yaml")

    def containers(node: Any, depth: int = 0) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if depth > 60:
            return out
        if isinstance(node, yaml.MappingNode):
            m = _mapping(node)
            if ("command" in m or "args" in m or "entrypoint" in m) and ("image" in m or "command" in m):
                m["__node__"] = node
                out.append(m)
            for _, vn in node.value:
                out.extend(containers(vn, depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            for it in node.value:
                out.extend(containers(it, depth + 1))
        return out

    for doc in docs:
        for c in containers(doc):
            env = _container_env(loc, c, unknowns)
            env_map = {k: w for k, w, _ in env}
            argv: list[Word] = []
            string_cmd: Optional[Word] = None
            for key in ("entrypoint", "command", "args"):
                node = c.get(key)
                if node is None:
                    continue
                ws = _list_words(loc, node)
                if ws is not None:
                    argv.extend(_k8s_interpolate(w, env_map) for w in ws)
                elif isinstance(node, yaml.ScalarNode):
                    # compose: a string command is split like a shell would
                    string_cmd = _scalar_word(loc, node)
                    argv.append(string_cmd)
            span = _node_span(loc, c["__node__"])
            image = c.get("image")
            image_text = image.value if isinstance(image, yaml.ScalarNode) else ""
            replaced = "entrypoint" in c if compose else ("command" in c or "entrypoint" in c)
            if not replaced and "vllm" in image_text.lower():
                # the vllm/vllm-openai image's entrypoint is ``vllm serve``
                sp = _node_span(loc, image)
                argv = [Word("vllm", sp, "vllm", (Run(0, 4, sp, False),)),
                        Word("serve", sp, "serve", (Run(0, 5, sp, False),))] + argv
            if not argv:
                continue
            if string_cmd is not None and len(argv) == 1:
                invocations.extend(shell.classify_argv([], env, span, path, script=string_cmd))
                continue
            invocations.extend(shell.classify_argv(argv, env, span, path))
    return LaunchPlan(path, invocations=tuple(invocations), unknowns=tuple(unknowns), problems=tuple(problems),
                      source_kind="yaml")


__all__ = ["ConfigEntry", "ServeConfig", "load_serve_config", "parse_manifest"]
