"""What vcfg knows about one launch script: the `LaunchPlan`.

A plan is built by `vcfg.launch.shell.parse_script` (bash) or
`vcfg.launch.yaml_config` (manifests).  It holds every vLLM launch found, the
argv each one receives (as `Word`s that remember where each character was
written), the environment each one starts with, and what vcfg could not know.

Positions are `vcfg.span.Span`s (byte offsets and 1-based line/column pairs,
columns in characters), the type findings carry too.

Unknown is never guessed.  A value vcfg cannot compute (a command's output, a
variable set by the caller, a loop counter) leaves a `Hole` in the word; a
construct that may change things vcfg cannot see (``source``, ``eval`` of an
unknown string) is recorded as an `Unknown` on the plan and on every launch it
may affect.

Nothing here imports tree-sitter: every value is an
immutable named tuple (``vcfg.records.tuple_record``), cheap to import and to build.
"""

from __future__ import annotations

import bisect
from typing import Any, Optional

from vcfg.records import TupleRecord, new_tuple, tuple_record
from vcfg.regex import lazy
from vcfg.span import Span, join_spans  # the launch readers import them from here too

#: tuple.__new__: builds a NamedTuple without its Python-level __new__ (hot paths).
_new = new_tuple


_LINE_BREAK_BYTES = lazy(rb"\r\n|\r|\n")


class LineIndex:
    """Turns byte offsets of one file into `Span`s (lines end as `vcfg.span.LINE_BREAK` says).

    Columns are counted in characters.  The text is decoded with
    ``surrogateescape`` so that an invalid byte is one column and positions stay
    exact for any input.
    """

    __slots__ = ("data", "file", "_starts", "_ascii", "_nlines", "_row", "_all_ascii")

    def __init__(self, data: bytes, file: str = "") -> None:
        self.data = data
        self.file = file
        starts = [0]
        if b"\r" in data:  # a lone CR ends a line too (vcfg.span.LINE_BREAK)
            starts.extend(m.end() for m in _LINE_BREAK_BYTES.finditer(data))
        else:
            find = data.find
            i = find(b"\n")
            while i >= 0:
                starts.append(i + 1)
                i = find(b"\n", i + 1)
        self._starts = starts
        self._nlines = len(starts)
        self._ascii: dict[int, bool] = {}
        self._row = 0  # the last row found: offsets mostly come in order
        self._all_ascii = data.isascii()

    def _row_of(self, offset: int) -> int:
        starts = self._starts
        r = self._row
        if starts[r] <= offset and (r + 1 == self._nlines or offset < starts[r + 1]):
            return r
        if r + 1 < self._nlines and starts[r + 1] <= offset and (r + 2 == self._nlines or offset < starts[r + 2]):
            r += 1
        else:
            r = bisect.bisect_right(starts, offset) - 1
        self._row = r
        return r

    def _is_ascii(self, row: int) -> bool:
        a = self._ascii.get(row)
        if a is None:
            start = self._starts[row]
            end = self._starts[row + 1] if row + 1 < self._nlines else len(self.data)
            a = self.data[start:end].isascii()
            self._ascii[row] = a
        return a

    def point(self, offset: int) -> tuple[int, int]:
        """(line, col), both 1-based, of a byte offset."""
        if offset < 0:
            offset = 0
        elif offset > len(self.data):
            offset = len(self.data)
        row = self._row_of(offset)
        start = self._starts[row]
        if offset == start or self._is_ascii(row):
            return row + 1, offset - start + 1
        return row + 1, len(self.data[start:offset].decode("utf-8", "surrogateescape")) + 1

    def span(self, start: int, end: int) -> Span:
        if self._all_ascii and 0 <= start <= end <= len(self.data):
            starts = self._starts
            row = self._row_of(start)
            col = start - starts[row] + 1
            if end == start:
                return _new(Span, (start, start, row + 1, col, row + 1, col, self.file))
            if row + 1 == self._nlines or end < starts[row + 1]:
                return _new(Span, (start, end, row + 1, col, row + 1, col + (end - start), self.file))
            erow = self._row_of(end)
            return _new(Span, (start, end, row + 1, col, erow + 1, end - starts[erow] + 1, self.file))
        line, col = self.point(start)
        if end <= start:
            return Span(start, start, line, col, line, col, self.file)
        row = line - 1
        nxt = self._starts[row + 1] if row + 1 < self._nlines else len(self.data) + 1
        if end < nxt and self._is_ascii(row):
            # same line, ASCII: no search needed
            return Span(start, end, line, col, line, col + (end - start), self.file)
        end_line, end_col = self.point(end)
        return Span(start, end, line, col, end_line, end_col, self.file)

    def text(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8", "surrogateescape")


@tuple_record
class Run(TupleRecord):
    """Where a stretch of a word's characters came from.

    ``at``/``length`` index the word's text.  When ``exact`` is true the
    characters were copied one for one from the file, starting at ``span`` (a
    run never crosses a line end, except for a final newline), so character
    ``at + k`` sits at column ``span.col + k``.  Otherwise (an escape sequence,
    an arithmetic result, a YAML value re-encoded as JSON) every character maps
    to the whole ``span``.
    """

    at: int
    length: int
    span: Span
    exact: bool = True


@tuple_record
class Hole(TupleRecord):
    """A part of a word whose text is not known, spliced in at index ``at``."""

    at: int
    reason: str
    span: Span
    #: True when the unknown text came from an unquoted expansion, so bash may
    #: split it into several words (or none): the argv length is unknown too.
    may_split: bool = False


@tuple_record
class Word(TupleRecord):
    """One word of an argv or one assigned value, after bash's quoting rules.

    ``value`` holds the known characters; when `holes` is non-empty the word is
    only partly known and `text` is None.  `runs` map characters of ``value``
    back to the file (`span_of`).  (An immutable tuple: cheap to build.)
    """

    value: str
    span: Span
    raw: str = ""
    runs: tuple[Run, ...] = ()
    holes: tuple[Hole, ...] = ()
    quoted: bool = False
    #: Notes on values that rest on an assumption, e.g. a ``${PORT:-8000}``
    #: default taken because the script never sets PORT.
    assumptions: tuple[str, ...] = ()

    @property
    def known(self) -> bool:
        return not self.holes

    @property
    def text(self) -> Optional[str]:
        return self.value if not self.holes else None

    @property
    def may_split(self) -> bool:
        return bool(self.holes) and any(h.may_split for h in self.holes)

    def describe_unknown(self) -> str:
        return "; ".join(h.reason for h in self.holes)

    # -- positions of characters
    def _run_at(self, i: int) -> Optional[Run]:
        runs = self.runs
        lo, hi = 0, len(runs)
        while lo < hi:
            mid = (lo + hi) // 2
            r = runs[mid]
            if r.at + r.length <= i:
                lo = mid + 1
            elif r.at > i:
                hi = mid
            else:
                return r
        return None

    def char_span(self, i: int) -> Span:
        """The span of ``value[i]`` in its file (the word's span if unknown)."""
        r = self._run_at(i)
        if r is None:
            return self.span
        if not r.exact:
            return r.span
        k = i - r.at
        s = r.span
        seg = self.value[r.at : i]
        seg_b = len(seg.encode("utf-8", "surrogateescape")) if not seg.isascii() else len(seg)
        ch = self.value[i]
        ch_b = len(ch.encode("utf-8", "surrogateescape")) if not ch.isascii() else 1
        start = s.start + seg_b
        if ch == "\n":
            return Span(start, start + 1, s.line, s.col + k, s.line + 1, 1, s.file)
        return Span(start, start + ch_b, s.line, s.col + k, s.line, s.col + k + 1, s.file)

    def span_of(self, i: int, j: int) -> Span:
        """The span covering ``value[i:j]`` in the file."""
        if not self.value:
            return self.span
        runs = self.runs
        if (
            len(runs) == 1
            and runs[0].exact
            and i <= runs[0].at
            and j >= runs[0].at + runs[0].length == len(self.value)
            and runs[0].at == 0
        ):
            return runs[0].span  # the whole word, copied from one place
        i = max(0, min(i, len(self.value) - 1))
        j = max(i + 1, min(j, len(self.value)))
        a = self.char_span(i)
        b = self.char_span(j - 1)
        if a.file != b.file:
            return a
        if b.end < a.start:
            # the last characters were copied from earlier in the file (a variable's value
            # at the end of a `bash -c` string): the span runs from the first character to
            # the last one placed at or after it, not from the variable's assignment
            k = j - 1
            while k > i and (b.file != a.file or b.end < a.start):
                k -= 1
                b = self.char_span(k)
            if b.file != a.file or b.end < a.start:
                return a
        return join_spans(a, b)

    def slice(self, i: int, j: int) -> "Word":
        """The word made of ``value[i:j]``, runs and holes kept (holes at i..j)."""
        runs = []
        for r in self.runs:
            a, b = max(r.at, i), min(r.at + r.length, j)
            if a >= b:
                continue
            if r.exact and a > r.at:
                sp = self.char_span(a)
                end_sp = self.char_span(b - 1) if b - 1 >= a else sp
                span = Span(sp.start, end_sp.end, sp.line, sp.col, end_sp.end_line, end_sp.end_col, sp.file)
            elif r.exact:
                end_sp = self.char_span(b - 1)
                s = r.span
                span = Span(s.start, end_sp.end, s.line, s.col, end_sp.end_line, end_sp.end_col, s.file)
            else:
                span = r.span
            runs.append(Run(a - i, b - a, span, r.exact))
        holes = tuple(Hole(h.at - i, h.reason, h.span, h.may_split) for h in self.holes if i <= h.at <= j)
        if runs:
            span = join_spans(runs[0].span, runs[-1].span) if runs[0].span.file == runs[-1].span.file else runs[0].span
        else:
            span = self.span
        return Word(self.value[i:j], span, self.raw, tuple(runs), holes, self.quoted, self.assumptions)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.text, "span": self.span.to_json()}
        if self.holes:
            out["known"] = self.value
            out["holes"] = [
                {"at": h.at, "reason": h.reason, "span": h.span.to_json(), "may_split": h.may_split} for h in self.holes
            ]
        if self.assumptions:
            out["assumptions"] = list(self.assumptions)
        return out


def literal_word(text: str, span: Span, exact: bool = False) -> Word:
    """A word whose characters all map to ``span`` (or are copied from it)."""
    return Word(text, span, text, (Run(0, len(text), span, exact),) if text else (), ())


# --------------------------------------------------------------------------- env


@tuple_record
class EnvEvent(TupleRecord):
    """One change to the shell's variables, in execution order.

    kinds: ``assign`` (``X=1``; exported only if X already was, or under
    ``set -a``), ``export`` (``export X=1`` / ``export X`` / ``declare -x``),
    ``unexport`` (``export -n``), ``unset``, ``allexport`` (``set -a`` / ``set +a``,
    ``exported`` tells which), ``prefix`` (``X=1 cmd``: for that command only),
    ``read`` (``read X``), ``local``, ``unknown`` (``source``/``eval``: anything
    may have changed).
    """

    kind: str
    name: Optional[str]
    value: Optional[Word]
    exported: bool
    span: Span
    #: True inside an ``if``/``case`` branch, a loop, a ``||`` arm or a function.
    conditional: bool = False
    function: Optional[str] = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "value": self.value.to_json() if self.value is not None else None,
            "exported": self.exported,
            "span": self.span.to_json(),
            "conditional": self.conditional,
            "function": self.function,
        }


@tuple_record
class Binding(TupleRecord):
    """A variable as a launch sees it.

    ``value`` None with ``unset`` true: the script unset it (the launch does not
    inherit it even if the caller had it).  ``exported`` False: a shell variable
    only, which the launched program does NOT receive.  ``source`` is
    ``script`` (assigned or exported by the script), ``prefix`` (``X=1 cmd`` or
    ``env X=1 cmd``) or ``caller`` (given to `parse_script` as the caller's
    environment).
    """

    name: str
    value: Optional[Word]
    exported: bool
    span: Span
    unset: bool = False
    source: str = "script"

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value.to_json() if self.value is not None else None,
            "exported": self.exported,
            "unset": self.unset,
            "source": self.source,
            "span": self.span.to_json(),
        }


@tuple_record
class Unknown(TupleRecord):
    """Something vcfg cannot see through: kinds ``source``, ``eval``,
    ``array``, ``command-substitution``, ``function``, ``indirection``,
    ``container`` ..."""

    kind: str
    reason: str
    span: Span

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "reason": self.reason, "span": self.span.to_json()}


@tuple_record
class ParseProblem(TupleRecord):
    """A defect in the input, with its position.

    codes: ``syntax`` (bash cannot parse this), ``missing`` (an unterminated
    quote or construct), ``encoding`` (not UTF-8), ``too-deep``, ``too-large``,
    ``split-command`` (a line of options that bash runs as its own command: a
    missing ``\\`` or a commented line inside a continued command),
    ``placeholder`` (``<MODEL>`` that bash reads as redirections), ``crlf``
    (Windows line endings, which bash does not strip), ``crlf-continuation`` (a
    ``\\`` before such a line end, which ends the command), ``yaml``,
    ``internal`` (a vcfg bug, reported instead of raised).
    """

    code: str
    message: str
    span: Span

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "span": self.span.to_json()}


# --------------------------------------------------------------------------- launches


@tuple_record
class Upstream(TupleRecord):
    """A server a proxy forwards to, from its arguments."""

    role: str  # "prefill" / "decode" / "unknown"
    host: Optional[Word] = None
    port: Optional[Word] = None
    url: Optional[Word] = None

    def to_json(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "host": self.host.to_json() if self.host else None,
            "port": self.port.to_json() if self.port else None,
            "url": self.url.to_json() if self.url else None,
        }


#: Invocation kinds.
#: launches read from one file, in every reader; past it the rest are not followed
#: (a VC000 note at the first one left out)
MAX_LAUNCHES = 500

SERVE = "serve"  # vllm serve / api_server: args go to FlexibleArgumentParser
BENCH_SERVE = "bench-serve"
PROXY = "proxy"
VLLM_OTHER = "vllm"  # another vllm subcommand
DYNAMO = "dynamo"
#: the launches that run vLLM's engine with its options: `vllm serve` (and the api_server
#: modules) and Dynamo's vLLM worker; their argv is resolved and linted
ENGINE_KINDS = ("serve", "dynamo")


@tuple_record
class Invocation(TupleRecord):
    """One program launch that vcfg recognises (a vLLM server, a benchmark, a proxy)."""

    kind: str
    #: How it was started, normalised: ``vllm serve``,
    #: ``python -m vllm.entrypoints.openai.api_server``, ``vllm bench serve``,
    #: ``python toy_proxy_server.py``, ``docker run vllm/vllm-openai`` ...
    entrypoint: str
    #: The whole argv bash runs (wrappers such as nohup included).
    command: tuple[Word, ...]
    #: The arguments the program's own parser receives: after ``serve`` for
    #: ``vllm serve``, after the module for ``python -m``, after the script.
    args: tuple[Word, ...]
    #: False when an unquoted unknown expansion (``$EXTRA_ARGS``, ``"${a[@]}"``
    #: of an unknown array) may add or remove words: the argv is incomplete.
    args_complete: bool
    span: Span
    #: The environment at this point: every variable the script set or unset,
    #: with exported-ness, overlaid with this command's own prefixes.
    env: dict[str, Binding]
    #: Prefix assignments for this command only (``A=1 B=2 vllm serve``,
    #: ``env A=1``), in order.
    prefixes: tuple[EnvEvent, ...] = ()
    #: Why the environment may hold more than ``env`` says (``source``d files,
    #: ``eval``), besides the caller's own environment.
    env_unknowns: tuple[Unknown, ...] = ()
    #: False when the program does not inherit the script's environment (a
    #: container started by ``docker run``, ``env -i``).
    inherits_env: bool = True
    background: bool = False
    wrappers: tuple[str, ...] = ()
    #: Redirect targets, as written (``> decode.log``, ``2>&1``).
    redirects: tuple[str, ...] = ()
    function: Optional[str] = None
    in_loop: bool = False
    conditional: bool = False
    #: For launches inside a loop vcfg unrolled: the loop variable's value.
    iteration: Optional[str] = None
    host: Optional[Word] = None
    port: Optional[Word] = None
    upstreams: tuple[Upstream, ...] = ()
    #: For ``vllm`` kinds other than serve: the subcommand words.
    subcommand: tuple[str, ...] = ()
    #: Byte offset in the file of the statement that starts this launch: its own
    #: command, or the call of the function / the ``eval`` that runs it (a launch
    #: in a body takes effect where the body runs).  None: not from a script.
    site: Optional[int] = None
    #: For a launch that runs on some paths through the script only, because an
    #: ``if``/``case`` on an input changed its words: which path ("$EXTRA set at
    #: line 4").  Launches of one site on different paths never run together.
    path: Optional[str] = None
    #: The container image the launch runs in (``docker run``, Kubernetes, compose),
    #: as written; `vcfg.launch.release` maps a vLLM image tag to a release.
    image: Optional[Word] = None
    #: The working folder the launch starts in, when the file says (``workingDir``,
    #: compose ``working_dir``, Dockerfile ``WORKDIR``).
    workdir: Optional[Word] = None
    #: When the script runs this launch, counted with the kills and waits it runs
    #: (`Shape.stop_seqs`): the order of a body's launches and stops where it is called.
    seq: Optional[int] = None
    #: A ``vllm==X.Y.Z`` pin its file makes (``pip install`` in a Dockerfile ``RUN`` or a
    #: script): the release, when no image tag names one (`vcfg.launch.release`).
    pin: Optional[Word] = None
    #: The arguments are keyword arguments given to vLLM's engine constructor, not an
    #: argv (a Ray Serve config's ``engine_kwargs``: ``AsyncEngineArgs(**engine_kwargs)``):
    #: no argparse, so no abbreviations; a name that is no field is a ``TypeError``.
    keywords: bool = False

    def exported_env(self) -> dict[str, Binding]:
        """The variables the program receives from the script (and prefixes)."""
        return {k: b for k, b in self.env.items() if b.exported and not b.unset and b.value is not None}

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "entrypoint": self.entrypoint,
            "span": self.span.to_json(),
            "command": [w.to_json() for w in self.command],
            "args": [w.to_json() for w in self.args],
            "args_complete": self.args_complete,
            "env": {k: b.to_json() for k, b in sorted(self.env.items())},
            "prefixes": [e.to_json() for e in self.prefixes],
            "env_unknowns": [u.to_json() for u in self.env_unknowns],
            "inherits_env": self.inherits_env,
            "background": self.background,
            "wrappers": list(self.wrappers),
            "redirects": list(self.redirects),
            "function": self.function,
            "in_loop": self.in_loop,
            "conditional": self.conditional,
            "iteration": self.iteration,
            "host": self.host.to_json() if self.host else None,
            "port": self.port.to_json() if self.port else None,
            "upstreams": [u.to_json() for u in self.upstreams],
            "subcommand": list(self.subcommand),
            "site": self.site,
            "path": self.path,
            "image": self.image.to_json() if self.image else None,
            "workdir": self.workdir.to_json() if self.workdir else None,
            "keywords": self.keywords,
        }


@tuple_record
class WrittenFile(TupleRecord):
    """A file the script writes from a heredoc (``cat > cfg.yaml << EOF``)."""

    path: Word
    content: Word
    span: Span

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path.to_json(), "content": self.content.to_json(), "span": self.span.to_json()}


@tuple_record
class LaunchPlan(TupleRecord):
    path: str
    invocations: tuple[Invocation, ...] = ()
    timeline: tuple[EnvEvent, ...] = ()
    unknowns: tuple[Unknown, ...] = ()
    problems: tuple[ParseProblem, ...] = ()
    written_files: tuple[WrittenFile, ...] = ()
    #: "bash" for scripts, "yaml" for manifests, "serve-config" for --config files.
    source_kind: str = "bash"
    #: branches, loops and stop commands (`vcfg.launch.shape.Shape`), for a script
    #: that starts two or more launches, one of them in the background: what tells
    #: whether they run at the same time.  None otherwise.
    shape: Optional[Any] = None
    #: the scripts this one runs or sources (`bash serve.sh`, `source env.sh`), as
    #: written: they join its deployment (vcfg.lint.deployments)
    starts: tuple[Word, ...] = ()

    def launches(self, kind: str = SERVE) -> list[Invocation]:
        return [i for i in self.invocations if i.kind == kind]

    def written_file(self, path: str) -> Optional[WrittenFile]:
        """The last heredoc written to ``path`` (compared as written)."""
        for wf in reversed(self.written_files):
            if wf.path.text == path:
                return wf
        return None


def plan_to_json(plan: LaunchPlan) -> dict[str, Any]:
    """A JSON-ready dict of the whole plan (for ``vcfg launch show``)."""
    return {
        "path": plan.path,
        "source_kind": plan.source_kind,
        "invocations": [i.to_json() for i in plan.invocations],
        "timeline": [e.to_json() for e in plan.timeline],
        "unknowns": [u.to_json() for u in plan.unknowns],
        "problems": [p.to_json() for p in plan.problems],
        "written_files": [w.to_json() for w in plan.written_files],
    }
