"""The replay of vLLM's argv handling (`vcfg.launch.args`): the steps before argparse
(`argv`), then argparse itself: option strings, ``--opt=value``, abbreviations, nargs,
types, choices, boolean inverses; last occurrence wins."""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

from vcfg.launch.args.argv import (
    _marked,
    _Tok,
    _tok_from_word,
    step_config,
    step_dotted,
    step_model,
    step_normalise,
)
from vcfg.launch.args.behaviour import since, version_tuple
from vcfg.launch.args.converters import (
    ArgTypeError,
    bounded_float,
    bounded_int,
    expand_json_numbers,
    human_readable_int,
    human_readable_int_or_auto,
)
from vcfg.launch.args.jsonpos import JsonDoc, JsonSyntaxError, _doc_from
from vcfg.launch.args.lookalike import lookalikes
from vcfg.launch.args.results import ArgProblem, OptionValue, ParsedArgs
from vcfg.launch.model import DYNAMO, SERVE, Invocation, LaunchPlan, Span, Word, join_spans
from vcfg.records import replace

if TYPE_CHECKING:  # pragma: no cover - for annotations only
    from vcfg.catalog.model import Catalog, Flag


# --------------------------------------------------------------------------- the parser


def _values_taken(flag: Optional["Flag"]) -> Optional[int]:
    """How many following arguments ``flag`` takes at most; None: as many as there are."""
    if flag is None:
        return None
    if flag.action in _SWITCHES or flag.nargs == 0:
        return 0
    if flag.nargs is None or flag.nargs == "?":
        return 1
    return flag.nargs if isinstance(flag.nargs, int) else None


#: argparse actions that take no argument (vcfg.catalog.model.FlagAction; ``count``
#: argparse's own): a known option's and an unknown option's likely shape alike
_SWITCHES = ("store_true", "store_false", "store_const", "boolean_optional", "enable_disable", "help", "count")


class Parser:
    def __init__(
        self,
        catalog: "Catalog",
        kind: str,
        serve: bool,
        base_dir: Optional[str],
        files: Mapping[str, Any],
        read_files: bool,
        buffers: Optional[Mapping[str, bytes]] = None,
        extra: Sequence["Flag"] = (),
        names: Optional[Mapping[str, str]] = None,
        keywords: bool = False,
        configs: Optional[dict[Any, Any]] = None,
    ) -> None:
        self.cat = catalog
        #: the words stand for keyword arguments of the engine's constructor (a Ray Serve
        #: config's engine_kwargs): names match exactly, never as abbreviations
        self.keywords = keywords
        #: options the entry point has besides the catalog's (`vcfg.launch.args.entry`):
        #: matched exactly and first (Dynamo's parser reads its own before vLLM's)
        self.extra = {s: f for f in extra for s in f.option_strings}
        #: argv starts with the ``serve`` subcommand (vllm serve), not an
        #: api_server module: decides the --model and --config handling
        self.serve = serve
        self.version = catalog.vllm_version
        self.v = version_tuple(catalog.vllm_version)
        self.kind = kind
        self.base_dir = base_dir
        self.files = files
        self.read_files = read_files
        #: absolute path -> bytes read instead of the disk (the lint run's buffers)
        self.buffers: Mapping[str, bytes] = buffers or {}
        #: absolute path -> the path as the user gave it (the lint run's files)
        self.names: Mapping[str, str] = names or {}
        #: the serve configs the lint run has read (`vcfg.lint.context.Run.configs`)
        self.configs = configs
        self.problems: list[ArgProblem] = []
        self.complete = True
        self.config_path: Optional[str] = None
        self._long: Optional[list[str]] = None
        self._short: Optional[list[str]] = None
        self._neg_like = False
        #: ids of argv elements whose argparse error a step has already said
        #: (`step_model`: the model written first when --model is given too)
        self.said: set[int] = set()

    def problem(
        self, code: str, message: str, span: Span, option: Optional[str] = None, severity: str = "error"
    ) -> None:
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

    def flag(self, opt: str) -> Optional["Flag"]:
        """The option ``opt`` names exactly, or None."""
        if self.extra:
            f = self.extra.get(opt)
            if f is not None:
                return f
        return self.cat.flag(opt)

    def lookup(self, opt: str) -> tuple[Optional["Flag"], str, str]:
        """(flag, option string matched, how) or (None, opt, "unknown"/"ambiguous")."""
        f = self.flag(opt)
        if f is not None:
            return f, opt, "exact"
        if self.keywords:
            return None, opt, "unknown"
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

    def likely_flag(self, opt: str) -> Optional["Flag"]:
        """The option an unknown ``opt`` most likely is: as the newest bundled release
        that has the name registers it (a removed option, or one a later release adds),
        else this release's nearest option (a typo); None when neither is known."""
        from vcfg.catalog.history import load_index

        index = load_index()
        mask = index.get("flag", {}).get(opt)
        k = mask.rfind("1") if mask else -1
        if k >= 0:
            from vcfg.catalog.store import load_exact
            from vcfg.errors import VcfgError

            try:
                return load_exact(index["versions"][k]).flag(opt)
            except (VcfgError, IndexError):
                return None
        if opt.startswith("--"):
            from vcfg.suggest import did_you_mean

            near = did_you_mean(opt, (s for s in self.option_strings() if s.startswith("--")), cutoff=0.7)
            if near:
                return self.flag(near[0])
        return None

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
        toks = step_model(self, toks) if self.serve else toks
        toks = step_config(self, toks)
        toks = step_normalise(self, toks)
        toks = step_dotted(self, toks)
        return self.step_argparse(toks)

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
        if self.flag(s) is not None:
            return "O"
        if "=" in s and self.flag(s.split("=", 1)[0]) is not None:
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
                    model = self.make_value(
                        pos_flag,
                        pos_flag.dest,
                        t.text or "",
                        [t],
                        t.span(),
                        t.span(),
                        "exact",
                        t.origin,
                        known=t.text is not None,
                    )
                else:
                    extras.append(t.word if not t.start else t.word.slice(t.start, len(t.word.value)))
                    if t.text is not None and id(t) not in self.said:
                        glued = lookalikes(model.value) if model is not None and isinstance(model.value, str) else ""
                        # `m<NBSP>--port 8000`: the model word swallowed the option, 8000 is left over
                        self.problem(
                            "extra-argument",
                            f"unrecognized argument {t.text!r}"
                            + lookalikes(t.text)
                            + (f"; the model word before it is one word{glued}" if glued else ""),
                            t.span(),
                        )
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
                if self.flag(s) is None and "=" in s:
                    opt, val = s.split("=", 1)
                    explicit = _Tok(val, t.word, t.start + len(opt) + 1, t.origin)
                    name_span = t.sub(0, len(opt))
            flag, matched, how = self.lookup(opt)
            if flag is None and how == "unknown" and not opt.startswith("--") and len(opt) > 2 and explicit is None:
                # -qfp8: a two-character short option with its value attached
                f2 = self.flag(opt[:2])
                if f2 is not None:
                    flag, matched, how = f2, opt[:2], "exact"
                    explicit = _Tok(opt[2:], t.word, t.start + 2, t.origin)
                    name_span = t.sub(0, 2)
            if flag is None:
                if how.startswith("ambiguous:"):
                    self.problem("ambiguous-option", f"ambiguous option {opt!r} could match {how[10:]}", name_span, opt)
                else:
                    self.problem("unknown-option", f"unrecognized option {opt!r}", name_span, opt)
                # argparse leaves an unknown option's following arguments to the
                # positional and the extras; vcfg reads them as the values the option
                # was written with, as many as the option it most likely is takes (a
                # removed option that was a switch takes none: the model after it is
                # the model)
                j = i + 1
                vals: list[_Tok] = [explicit] if explicit is not None else []
                if explicit is None:
                    most = _values_taken(self.likely_flag(opt)) if t.origin == "cli" and not self.keywords else None
                    while j < n and kinds[j] == "A" and (most is None or len(vals) < most):
                        vals.append(toks[j])
                        j += 1
                ov = OptionValue(
                    None,
                    opt,
                    self._written(t),
                    opt.lstrip("-").replace("-", "_"),
                    [v.text for v in vals] if len(vals) != 1 else vals[0].text,
                    all(v.text is not None for v in vals),
                    tuple(v.word for v in vals),
                    _join(name_span, vals),
                    name_span,
                    _join_vals(vals),
                    t.origin,
                )
                unknown.append(ov)
                i = j
                continue
            if how == "abbrev":
                self.problem(
                    "abbreviation",
                    f"{opt!r} is an abbreviation of {matched!r}; it breaks when a new "
                    "option with the same prefix appears",
                    name_span,
                    matched,
                    severity="warning",
                )
            action = flag.action
            nargs = flag.nargs
            consumed: list[_Tok] = []
            if action in _SWITCHES:
                if explicit is not None:
                    self.problem(
                        "unexpected-value",
                        f"{matched} takes no value (got {explicit.text!r})",
                        explicit.span(),
                        matched,
                    )
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
                written = self._written(t)
                occ.append(
                    _occurrence(flag, matched, written, name_span, name_span, t.origin, how, value, negated=negated)
                )
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
                    self.problem(
                        "missing-value",
                        f"{matched} expects {'at least one' if nargs == '+' else nargs} value(s)",
                        name_span,
                        matched,
                    )
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
                    ov = replace(ov, value=list(prev.value) + [ov.value])
                elif ov.known:
                    ov = replace(ov, value=[ov.value])
            occ.append(ov)
            i = j
        # duplicates: both kept, the last wins
        final: dict[str, OptionValue] = {}
        by_dest: dict[str, list[OptionValue]] = {}
        for o in occ:
            by_dest.setdefault(o.dest, []).append(o)
            final[o.dest] = o
        for lst in by_dest.values():
            if len(lst) > 1 and lst[-1].flag is not None and lst[-1].flag.action != "append":
                last = lst[-1].name_span
                firsts = ", ".join(f"{o.written} ({_place(o.name_span, last)})" for o in lst[:-1])
                said = (
                    "vLLM only logs a warning" if self.v >= since("duplicate-option-warning") else "vLLM says nothing"
                )
                self.problem(
                    "duplicate",
                    f"{lst[-1].option} is given {len(lst)} times; the last one wins (earlier: {firsts}; {said})",
                    lst[-1].name_span,
                    lst[-1].option,
                    severity="warning",
                )
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

    def make_value(
        self,
        flag: "Flag",
        dest: str,
        value: Any,
        toks: list[_Tok],
        span: Span,
        name_span: Span,
        how: str,
        origin: str,
        known: bool = True,
    ) -> OptionValue:
        option = flag.long_name if flag.option_strings else dest
        words = tuple(t.word for t in toks)
        return OptionValue(
            flag, option, toks[0].text or "", dest, value, known, words, span, name_span, span, origin, match=how
        )

    def convert(
        self, flag: "Flag", matched: str, t: _Tok, name_span: Span, consumed: list[_Tok], nargs: Any, how: str
    ) -> OptionValue:
        vspan = _join_vals(consumed)
        span = join_spans(name_span, vspan) if vspan is not None and vspan.file == name_span.file else name_span
        origin = "dotted" if consumed and consumed[0].origin == "dotted" else t.origin
        words = tuple(c.word for c in consumed)
        written = self._written(t)

        def result(value: Any, known: bool = True, doc: Optional[JsonDoc] = None) -> OptionValue:
            """This occurrence with ``value`` (None, not ``known``: no value vcfg can compute
            or vLLM would take)."""
            return _occurrence(flag, matched, written, span, name_span, origin, how, value, known, words, vspan, doc)

        if not consumed:
            # nargs="?" without a value: the const
            return result(flag.const)
        unknown = [c for c in consumed if c.text is None]
        if unknown:
            c = unknown[0]
            self.problem(
                "unknown-value",
                f"the value of {matched} is not known ({c.word.describe_unknown()})",
                c.span(),
                matched,
                severity="info",
            )
            return result(None, False)
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
                self.problem(
                    "invalid-choice",
                    f"invalid choice {c.text!r} for {matched} (choose from {shown})",
                    c.span(),
                    matched,
                )
                ok = False
            values.append(v)
        if not ok:
            return result(None, False, doc)
        return result(values if many else values[0], True, doc)

    def _conv_problem(self, flag: "Flag", matched: str, c: _Tok, e: ValueError) -> tuple[str, str, Span, str]:
        if isinstance(e, JsonSyntaxError):
            pos = e.pos
            sp = c.sub(pos, pos + 1) if c.text else c.span()
            if c.doc_locs is None and isinstance(e, _MappedJsonError):
                sp = e.span or sp
            return "invalid-json", f"invalid JSON for {matched}: {e.msg}", sp, matched
        kind = (flag.type or "str").split(":")[0]
        text = c.text or ""
        shown = c.text if len(text) <= 80 else f"{text[:60]}...({len(text)} characters)"
        return (
            "invalid-value",
            f"invalid {kind} value for {matched}: {shown!r}{(': ' + str(e)) if isinstance(e, ArgTypeError) else ''}",
            c.span(),
            matched,
        )

    def typed(self, flag: "Flag", c: _Tok) -> tuple[Any, Optional[JsonDoc]]:
        s: str = c.text  # type: ignore[assignment]
        ty = flag.type
        if flag.optional and s in ("", "None"):
            return None, None
        if ty is None or ty in ("str", "bool"):
            return s, None
        if ty == "int":
            return bounded_int(s), None
        if ty == "float":
            return bounded_float(s), None
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
            return self.json_value(c, s, hri=(ty == "config" and self.v >= since("json-human-readable-numbers")))
        return s, None

    def json_value(self, c: _Tok, s: str, hri: bool) -> tuple[Any, JsonDoc]:
        if c.doc_locs is not None:
            v = json.loads(s)
            return v, JsonDoc(v, dict(c.doc_locs))
        text, idx = expand_json_numbers(s) if hri else (s, None)
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


def _occurrence(
    flag: "Flag",
    matched: str,
    written: str,
    span: Span,
    name_span: Span,
    origin: str,
    how: str,
    value: Any,
    known: bool = True,
    words: tuple[Word, ...] = (),
    value_span: Optional[Span] = None,
    doc: Optional[JsonDoc] = None,
    negated: bool = False,
) -> OptionValue:
    """One occurrence of a catalog flag, matched as ``matched`` (``how``: exact, abbrev,
    alias); without ``words`` it took no value (a switch, nargs="?" alone)."""
    return OptionValue(
        flag, matched, written, flag.dest, value, known, words, span, name_span, value_span, origin, doc, negated, how
    )


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
    buffers: Optional[Mapping[str, bytes]] = None,
    extra: Sequence["Flag"] = (),
    names: Optional[Mapping[str, str]] = None,
    keywords: bool = False,
    configs: Optional[dict[Any, Any]] = None,
) -> ParsedArgs:
    """Resolve argv words (after ``serve``, or after an api_server module) the
    way the vLLM version of ``catalog`` would.  ``serve``: the words follow
    ``vllm serve`` (True) or an api_server module (False).

    ``files``: config files known without reading the disk (path as written ->
    bytes/str or a `Word` from a heredoc).  ``base_dir``: where relative
    ``--config`` paths are looked up (the script's folder).  ``buffers``: absolute
    path -> bytes a ``--config`` file reads instead of the disk (the lint run's open
    buffers and edited texts, `vcfg.lint.context.Run`); ``names``: absolute path ->
    the path as the user gave it, which labels such a file's positions.  ``keywords``:
    the words stand for the engine constructor's keyword arguments (`Invocation.keywords`):
    no argparse, so a name is an option's exactly or unknown, never an abbreviation.
    ``configs``: the serve configs the run has read (`vcfg.launch.yaml_config.load_serve_config`)."""
    p = Parser(catalog, kind, serve, base_dir, files or {}, read_files, buffers, extra, names, keywords, configs)
    try:
        return p.run(words)
    except RecursionError:
        sp = words[0].span if words else Span(0, 0, 1, 1, 1, 1)
        p.problem("too-deep", "arguments nested too deeply to analyse", sp)
    except Exception as e:  # never a traceback for the user
        sp = words[0].span if words else Span(0, 0, 1, 1, 1, 1)
        p.problem("internal", f"vcfg could not analyse these arguments: {type(e).__name__}: {e}", sp)
    return ParsedArgs(catalog.vllm_version, kind, {}, (), (), None, (), tuple(p.problems), False, p.config_path)


def parse_invocation(
    inv: Invocation,
    catalog: "Catalog",
    plan: Optional[LaunchPlan] = None,
    *,
    read_files: bool = True,
    buffers: Optional[Mapping[str, bytes]] = None,
    names: Optional[Mapping[str, str]] = None,
    configs: Optional[dict[Any, Any]] = None,
) -> ParsedArgs:
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
    serve = inv.subcommand[:1] == ("serve",)
    extra: Sequence["Flag"] = ()
    if not serve:  # an api_server module, Dynamo's worker: their own parsers' options
        from vcfg.launch.args.entry import extra_flags
        from vcfg.launch.release import dynamo_release

        dyn = dynamo_release(inv) if inv.kind == DYNAMO else None
        extra = extra_flags(inv.kind, serve, catalog.vllm_version, dyn)
    elif any(w.text == "--omni" for w in inv.args):  # vllm-omni's console script's own serve parser
        from vcfg.launch.args.entry import extra_flags

        extra = extra_flags(inv.kind, serve, catalog.vllm_version, omni=True)
    return parse_args(
        inv.args,
        catalog,
        kind=inv.kind,
        serve=serve,
        base_dir=base_dir,
        files=files,
        read_files=read_files,
        buffers=buffers,
        names=names,
        extra=extra,
        keywords=inv.keywords,
        configs=configs,
    )


def _place(span: Any, here: Any) -> str:
    """``span``'s line as seen from a message at ``here``: "line 4", or "file:4" when it
    is in another file (a --config YAML and the script that names it)."""
    path = getattr(span, "file", None)
    if not path or path == getattr(here, "file", None):
        return f"line {span.line}"
    shown = os.path.relpath(path) if os.path.isabs(path) else path
    return f"{shown}:{span.line}"
