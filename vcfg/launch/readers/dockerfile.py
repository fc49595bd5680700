"""Dockerfiles (and Containerfiles): the final stage's ``ENTRYPOINT`` and ``CMD``
(exec form, or shell form run by ``/bin/sh -c``), its ``ENV`` and ``WORKDIR`` (and
those of the stages it builds on), and the image it starts ``FROM`` with ``ARG``
defaults filled in (``vllm/vllm-openai:${VLLM_VERSION}`` with ``ARG
VLLM_VERSION=v0.21.0`` runs vLLM 0.21.0).  The arguments ``docker run`` adds at run
time are unknown: the launch's argv is incomplete, never empty."""

from __future__ import annotations

import json
import re
from typing import Any, Optional

from vcfg.launch.model import Hole, LaunchPlan, LineIndex, Run, Span, Word
from vcfg.launch.readers import Evidence, ReadContext, Reader

READER = Reader(
    name="dockerfile",
    patterns=(
        "dockerfile",
        "dockerfile.*",
        "dockerfile-*",
        "dockerfile_*",
        "*.dockerfile",
        "*-dockerfile",
        "*_dockerfile",
        "containerfile",
        "containerfile.*",
        "containerfile-*",
        "containerfile_*",
    ),
    summary="Dockerfiles: the final stage's ENTRYPOINT/CMD, ENV, WORKDIR and FROM image (ARG defaults)",
)

_INSTR = re.compile(r"^[ \t]*([A-Za-z]+)[ \t]+", re.M)
_VAR = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}?")


def detect(path: str, text: str, ctx: ReadContext) -> Optional[Evidence]:
    if re.search(r"^[ \t]*FROM[ \t]+\S", text, re.M | re.I):
        return Evidence("dockerfile", 0.9, ("a Dockerfile (FROM ...)",))
    return Evidence("dockerfile", 0.0, ("named like a Dockerfile, but it has no FROM line",))


def _instructions(text: str) -> list[tuple[str, int, int]]:
    """(instruction, start of its arguments, end) with ``\\`` continuations joined;
    Docker skips the comment lines and empty lines inside a continued instruction
    (`_kept`: they neither end it nor continue it)."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        j = text.find("\n", i)
        j = n if j < 0 else j
        line = text[i:j]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            i = j + 1
            continue
        m = _INSTR.match(text, i)
        if m is None or m.start() != i:
            i = j + 1
            continue
        start = m.end()
        end = j
        continued = line.rstrip().endswith("\\")
        while continued and end < n:
            line_at = end + 1
            nxt = text.find("\n", line_at)
            end = n if nxt < 0 else nxt
            if not _skipped(text[line_at:end]):
                continued = text[line_at:end].rstrip().endswith("\\")
        out.append((m.group(1).upper(), start, end))
        i = end + 1
    return out


def _skipped(line: str) -> bool:
    """A line of a continued instruction that Docker drops: empty, or a comment."""
    s = line.strip()
    return not s or s.startswith("#")


def _kept(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """The pieces of ``text[a:b]`` (an instruction's arguments) that Docker reads: its
    first line and each later line that is not `_skipped`, newline included."""
    out: list[tuple[int, int]] = []
    i = a
    while i < b:
        j = text.find("\n", i, b)
        j = b if j < 0 else j + 1
        if i == a or not _skipped(text[i:j]):
            out.append((i, j))
        i = j
    return out


def _expand(s: str, args: dict[str, str]) -> str:
    return _VAR.sub(lambda m: args.get(m.group(1), m.group(2) or m.group(0)), s)


def read(path: str, data: bytes, evidence: Evidence, ctx: ReadContext) -> LaunchPlan:
    from vcfg.launch import shell

    text = data.decode("utf-8", "surrogateescape")
    li = LineIndex(data, path)
    ascii_ = text.isascii()

    def span(a: int, b: int) -> Span:
        if ascii_:
            return li.span(a, b)
        return li.span(
            len(text[:a].encode("utf-8", "surrogateescape")), len(text[:b].encode("utf-8", "surrogateescape"))
        )

    def word(a: int, b: int, value: Optional[str] = None) -> Word:
        raw = text[a:b]
        value = raw if value is None else value
        sp = span(a, b)
        return Word(value, sp, raw, (Run(0, len(value), sp, value == raw and "\n" not in raw),) if value else ())

    global_args: dict[str, str] = {}
    #: global ARGs as a stage sees them when it declares them again (None: no default)
    global_words: dict[str, Optional[Word]] = {}
    stages: list[dict[str, Any]] = []
    for name, a, b in _instructions(text):
        body = text[a:b]
        if name == "ARG":
            # the words of the lines Docker reads (not those of a comment line between)
            for base, m in ((x, m) for x, y in _kept(text, a, b) for m in re.finditer(r"\S+", text[x:y])):
                k, eq, v = m.group(0).partition("=")
                target = stages[-1]["args"] if stages else global_args
                target[k] = v.strip('"') if eq else target.get(k, global_args.get(k, ""))
                if stages:
                    st = stages[-1]
                    if k in st["env_names"]:
                        continue  # ENV overrides an ARG of the same name
                    if eq:
                        at = base + m.start() + len(k) + 1
                        st["scope"][k] = _value_word(text, at, base + m.end(), st["scope"], span, False, st["scratch"])
                    else:
                        st["scope"][k] = global_words.get(k)
                elif eq:
                    # before FROM: only the earlier global ARGs are variables
                    global_words[k] = _value_word(
                        text, base + m.start() + len(k) + 1, base + m.end(), {}, span, scratch=True
                    )
                else:
                    global_words[k] = None
            continue
        if name == "FROM":
            from_parts = [p for p in body.split() if not p.startswith("--")]
            from_image = _expand(from_parts[0], global_args) if from_parts else ""
            alias = from_parts[2] if len(from_parts) >= 3 and from_parts[1].upper() == "AS" else None
            parent = next((s for s in stages if s["alias"] and s["alias"] == from_image), None)
            stages.append(
                {
                    "alias": alias,
                    "image": parent["image"] if parent else from_image,
                    "image_at": (a, a + len(from_parts[0])) if from_parts else (a, a),
                    "env": list(parent["env"]) if parent else [],
                    "entry": parent["entry"] if parent else None,
                    "cmd": parent["cmd"] if parent else None,
                    "workdir": parent["workdir"] if parent else None,
                    "args": dict(global_args),
                    # what $NAME means in this stage: its image's ENV, then its ARGs
                    # (None: an ARG without a default, unknown until the build)
                    "scope": {k: w for k, w, _ in parent["env"]} if parent else {},
                    "scratch": parent["scratch"] if parent else from_image == "scratch",
                    "env_names": {k for k, _, _ in parent["env"]} if parent else set(),
                }
            )
            continue
        if not stages:
            continue
        st = stages[-1]
        if name == "ENV":
            pairs = _env_pairs(text, a, b, st["scope"], span, st["scratch"])
            st["env"].extend(pairs)
            for k, w, _ in pairs:  # one ENV's values all read the variables before it
                st["scope"][k] = w
                st["env_names"].add(k)
        elif name == "WORKDIR":
            end = b - len(body) + len(body.rstrip())
            st["workdir"] = _value_word(text, a, end, st["scope"], span, True, st["scratch"])
        elif name in ("ENTRYPOINT", "CMD"):
            st["entry" if name == "ENTRYPOINT" else "cmd"] = (_command(text, a, b, word), span(a - len(name) - 1, a))
            if name == "ENTRYPOINT":
                st["cmd"] = None  # Docker resets CMD when ENTRYPOINT is set
    if not stages:
        return LaunchPlan(path, source_kind="dockerfile")
    st = stages[-1]
    entry, cmd = st["entry"], st["cmd"]
    if entry is None and cmd is None:
        return LaunchPlan(path, source_kind="dockerfile")
    a, b = st["image_at"]
    image = Word(st["image"], span(a, b), text[a:b], (Run(0, len(st["image"]), span(a, b), False),))
    from vcfg.launch.readers._containers import is_vllm_image

    parts: list[tuple[bool, list[Word]]] = []
    at = (entry or cmd)[1]
    if entry is None and is_vllm_image(st["image"]):
        from vcfg.launch.readers._containers import image_entrypoint_words

        parts.append((False, image_entrypoint_words(image)))
    for c in (entry, cmd):
        if c is not None:
            parts.append(c[0])
    # whatever `docker run IMAGE ...` adds after the image
    extra = Word("", at, "", (), (Hole(0, "the arguments docker run gives the image", at, True),))
    env = st["env"]
    if any(is_shell for is_shell, _ in parts):
        from vcfg.launch.readers._containers import _as_script

        found = shell.classify_argv([], env, at, path, script=_as_script(parts, at))
    else:
        argv = [w for _, ws in parts for w in ws]
        if cmd is None:
            argv.append(extra)
        found = shell.classify_argv(argv, env, at, path)
    found = [i._replace(image=image, workdir=st["workdir"]) for i in found]
    return LaunchPlan(path, invocations=tuple(found), source_kind="dockerfile")


def _command(text: str, a: int, b: int, word: Any) -> tuple[bool, list[Word]]:
    """(shell form?, words): the exec form's JSON strings, or the shell form's text."""
    body = text[a:b].strip()
    pieces = _kept(text, a, b)
    if body.startswith("["):
        words = []
        for x, y in pieces:
            for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text[x:y]):
                try:
                    value = json.loads(m.group(0))
                except ValueError:
                    continue
                words.append(word(x + m.start(1), x + m.end(1), value))
        return False, words
    lead = len(text[a:b]) - len(text[a:b].lstrip())
    end = a + lead + len(body)
    whole = word(a + lead, end)
    if len(pieces) == 1:
        return True, [whole]
    from vcfg.launch.readers._containers import _join

    # the comment and empty lines Docker drops are not part of the command bash reads;
    # a line's words and its newline are pieces of their own (a piece of one line maps
    # each character to its column)
    parts = []
    for x, y in pieces:
        x, y = max(x, a + lead), min(y, end)
        line_end = y - 1 if text[x:y].endswith("\n") else y
        if line_end > x:
            parts.append(word(x, line_end))
        if line_end < y:
            parts.append(word(line_end, y))
    return True, [_join(parts, whole)]


def _env_pairs(
    text: str, a: int, b: int, scope: dict[str, Optional[Word]], span: Any, scratch: bool
) -> list[tuple[str, Word, Span]]:
    """An ``ENV``'s pairs, each value expanded as Docker does from the stage's earlier
    ``ENV`` and ``ARG`` (`_value_word`)."""
    body = text[a:b]
    out: list[tuple[str, Word, Span]] = []
    if "=" not in body.split(None, 1)[0]:  # ENV NAME value (the old form)
        name, _, rest = body.strip().partition(" ")
        k = a + body.index(name)
        v = text.find(rest.strip(), k + len(name))
        if rest.strip():
            w = _value_word(text, v, v + len(rest.strip()), scope, span, True, scratch)
            out.append((name, w, w.span))
        return out
    for x, y in _kept(text, a, b):  # not a `NAME=value` in a comment line between
        for m in re.finditer(r"""([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)""", text[x:y]):
            w = _value_word(text, x + m.start(2), x + m.end(2), scope, span, False, scratch)
            out.append((m.group(1), w, w.span))
    return out


#: in an ENV or ARG value: an escaped character, ${NAME}, ${NAME:-word}, ${NAME:+word}, $NAME
_REF = re.compile(r"\\(.)|\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:(:[-+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))", re.S)
_UNSET = object()


def _value_word(
    text: str, a: int, b: int, scope: dict[str, Optional[Word]], span: Any, whole: bool = False, scratch: bool = False
) -> Word:
    """The value written at ``text[a:b]`` as Docker reads it: quotes removed
    (``'...'`` taken as written), ``\\x`` is ``x``, and ``$B``, ``${B}``,
    ``${B:-word}``, ``${B:+word}`` replaced from ``scope``.  An ARG without a
    default is unknown (a hole); so is a variable the Dockerfile never sets (the
    base image may set it), except that ``${B:-word}`` then takes its word with an
    assumption noted, as the shell reader does, and FROM scratch has no variables.  The
    characters copied from an earlier value keep that value's place in the file."""
    raw = text[a:b]
    runs: list[Run] = []
    holes: list[Hole] = []
    assumptions: list[str] = []
    value = ""

    def lit(s: str, x: int, y: int, exact: bool) -> None:
        nonlocal value
        if s:
            runs.append(Run(len(value), len(s), span(x, y), exact and "\n" not in s))
            value += s

    def splice(w: Word) -> None:
        nonlocal value
        runs.extend(r._replace(at=r.at + len(value)) for r in w.runs)
        holes.extend(h._replace(at=h.at + len(value)) for h in w.holes)
        value += w.value

    quoted = not whole and len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'"
    if quoted and raw[0] == "'":
        lit(raw[1:-1], a + 1, b - 1, True)
        return Word(value, span(a, b), raw, tuple(runs), (), True)
    i, end = (a + 1, b - 1) if quoted else (a, b)
    pos = i
    for m in _REF.finditer(text, i, end):
        lit(text[pos : m.start()], pos, m.start(), True)
        pos = m.end()
        if m.group(1) is not None:
            lit(m.group(1), m.start(), m.end(), False)
            continue
        name, op = m.group(2) or m.group(5), m.group(3)
        got = scope.get(name, _UNSET)
        if got is _UNSET and not scratch:
            if op is None:
                why = f"{name} is not set in this Dockerfile (its base image may set it)"
                holes.append(Hole(len(value), why, span(m.start(), m.end())))
                continue
            assumptions.append(f"{name} taken as unset: this Dockerfile never sets it (its base image may)")
        empty = got is _UNSET or (isinstance(got, Word) and got.value == "" and not got.holes)
        if got is None:
            holes.append(Hole(len(value), f"the build argument {name} has no default", span(m.start(), m.end())))
        elif (op == ":-" and empty) or (op == ":+" and not empty):
            lit(m.group(4), m.start(4), m.end(4), True)
        elif op != ":+" and isinstance(got, Word):
            splice(got)
    lit(text[pos:end], pos, end, True)
    return Word(value, span(a, b), raw, tuple(runs), tuple(holes), quoted, tuple(assumptions))
