"""Argv as vLLM's ``FlexibleArgumentParser`` rewrites it before argparse sees it:
the words as tokens, ``serve --model``, ``--config FILE`` expansion, ``_`` to ``-`` and
``-O``, dotted keys (steps 1-5 of `vcfg.launch.args`).  Each step is a function of
the `Parser` that runs them."""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any, Optional

from vcfg.launch.args.behaviour import since
from vcfg.launch.args.converters import human_readable_int
from vcfg.launch.args.jsonpos import JsonLoc
from vcfg.launch.model import Hole, Run, Span, Word
from vcfg.records import tuple_record

if TYPE_CHECKING:  # pragma: no cover
    from vcfg.launch.args.parser import Parser


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

    if TYPE_CHECKING:  # a tuple_record is a named tuple

        def _replace(self, **changes: Any) -> "_Tok": ...

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


# --------------------------------------------------------------------------- steps before argparse


def step_model(p: "Parser", toks: list[_Tok]) -> list[_Tok]:
    """``vllm serve ... --model M``."""
    idx = next(
        (
            i
            for i, t in enumerate(toks)
            if t.text is not None and (t.text == "--model" or t.text.startswith("--model="))
        ),
        None,
    )
    if p.v < since("serve-model-positional"):
        exact = next((i for i, t in enumerate(toks) if t.text == "--model"), None)
        if exact is not None:
            p.problem(
                "model-option",
                "vllm serve refuses --model in this version; give the model as the first argument",
                toks[exact].span(),
                "--model",
            )
        return toks
    if idx is not None:
        t = toks[idx]
        if t.text == "--model":
            if idx + 1 >= len(toks):
                p.problem("missing-value", "--model expects a value", t.span(), "--model")
                return toks[:idx]
            model = toks[idx + 1]
            rest = toks[:idx] + toks[idx + 2 :]
        else:
            model = _Tok(t.text[len("--model=") :], t.word, t.start + len("--model="), t.origin)  # type: ignore[index]
            rest = toks[:idx] + toks[idx + 1 :]
        first = toks[0] if idx > 0 and toks[0].text is not None and not toks[0].text.startswith("-") else None
        if first is not None:
            # vLLM moves --model's value to the front: the model written first becomes
            # an extra argument argparse rejects, said here once (not as an extra too)
            p.problem(
                "model-twice",
                f"the model is given twice, first and with --model: vLLM moves --model's value to the "
                f"front, and argparse then rejects {first.text!r} as an unrecognized argument",
                t.span(),
                "--model",
            )
            p.said.add(id(first))
        else:
            p.problem(
                "model-option",
                "with vllm serve, --model is deprecated: give the model as the first argument",
                t.span(),
                "--model",
                severity="warning",
            )
        toks = [model] + rest
    if (
        p.v >= since("served-model-name-needs-model")
        and toks
        and toks[0].text is not None
        and toks[0].text.startswith("-")
        and not any(t.text is not None and re.match(r"--config(=.+|$)", t.text) for t in toks)
        and any(t.text is not None and re.match(r"--served[-_]model[-_]name(=.+|$)", t.text) for t in toks)
    ):
        p.problem(
            "model-missing",
            "vllm serve needs the model as its first argument when --served-model-name is given",
            toks[0].span(),
        )
    return toks


def step_config(p: "Parser", toks: list[_Tok]) -> list[_Tok]:
    for t in toks:
        if t.text is not None and t.text.startswith("--config="):
            p.problem(
                "config-equals",
                "--config=FILE is not expanded by vLLM (the file is ignored); write --config FILE",
                t.span(),
                "--config",
                severity="warning",
            )
    idxs = [i for i, t in enumerate(toks) if t.text == "--config"]
    if not idxs:
        return toks
    if len(idxs) > 1:
        p.problem(
            "config-file",
            "more than one --config file: vLLM stops with an assertion error",
            toks[idxs[1]].span(),
            "--config",
        )
        return toks
    i = idxs[0]
    if i == len(toks) - 1:
        p.problem("missing-value", "--config expects a file name", toks[i].span(), "--config")
        return toks[:i]
    pt = toks[i + 1]
    if pt.text is None:
        p.problem(
            "unknown-value",
            f"--config file name is not known ({pt.word.describe_unknown()})",
            pt.span(),
            "--config",
            severity="info",
        )
        p.complete = False
        return toks[:i] + toks[i + 2 :]
    path = pt.text
    ext = path.split(".")[-1]
    if ext not in ("yaml", "yml"):
        p.problem("config-file", f"config file must be .yaml or .yml, not {ext!r}", pt.span(), "--config")
        return toks[:i] + toks[i + 2 :]
    cfg_toks = load_config(p, path, pt)
    if cfg_toks is None:
        p.complete = False
        return toks[:i] + toks[i + 2 :]
    rest_before, rest_after = toks[:i], toks[i + 2 :]
    # the order vLLM uses (argparse_utils.py:549-604 @0.33)
    if not p.serve:
        if toks and toks[0].text is not None and not toks[0].text.startswith("-"):
            return [toks[0]] + cfg_toks + toks[1:i] + rest_after
        return cfg_toks + rest_before + rest_after
    model_in_cli = bool(toks) and not (toks[0].text or "-").startswith("-") and i != 0
    if toks and toks[0].text is None and not toks[0].word.may_split:
        model_in_cli = True
    model_in_cfg = any(t.text == "--model" for t in cfg_toks)
    if not model_in_cli and not model_in_cfg and p.v >= since("serve-model-positional"):
        p.problem(
            "model-missing",
            "no model: give it as the first argument or as `model:` in the config file",
            pt.span(),
            "--config",
        )
    if model_in_cli:
        return toks[:1] + cfg_toks + toks[1:i] + rest_after
    return cfg_toks + toks[:i] + rest_after


def load_config(p: "Parser", path: str, pt: _Tok) -> Optional[list[_Tok]]:
    from vcfg.launch import yaml_config

    src = p.files.get(path)
    label = path
    text: Optional[Any] = None
    if src is not None:
        text = src
        label = path
    elif p.read_files:
        full = path if os.path.isabs(path) or p.base_dir is None else os.path.join(p.base_dir, path)
        from vcfg.launch.read import special_kind

        buffered = p.buffers.get(os.path.abspath(full)) if p.buffers else None
        if buffered is None and p.base_dir is not None:
            from vcfg.fileio import inside, project_root

            root = project_root(p.base_dir)
            if not inside(full, root):
                # a script's --config is followed inside its repository only (file policy)
                p.problem(
                    "config-file",
                    f"config file {path!r} is outside the repository ({root}): vcfg does "
                    "not read files there, so its options are not known",
                    pt.span(),
                    "--config",
                    severity="warning",
                )
                return None
        kind = None if buffered is not None else special_kind(full)
        if kind:  # opening a FIFO blocks until someone writes to it
            p.problem(
                "config-file",
                f"config file {path!r} is {kind}, not a regular file; not read, its options are not known",
                pt.span(),
                "--config",
                severity="info",
            )
            return None
        try:
            text = buffered
            if text is None:
                from vcfg.fileio import read_regular

                text = read_regular(full)
            # a file the run was given shows the path as given (`Parser.names`)
            label = p.names.get(os.path.abspath(full), full) if p.names else full
        except OSError:
            text = None
    if text is None:
        p.problem(
            "config-file",
            f"config file {path!r} not found; its options are not known",
            pt.span(),
            "--config",
            severity="info",
        )
        return None
    p.config_path = label
    cfg = yaml_config.load_serve_config(text, label, p.configs)
    for prob in cfg.problems:
        p.problem("config-file", prob.message, prob.span, "--config")
    if cfg.entries is None:
        return None
    return config_tokens(p, cfg)


def config_tokens(p: "Parser", cfg: Any) -> list[_Tok]:
    """The words vLLM's load_config_file makes of a YAML config."""
    out: list[_Tok] = []
    serve = p.serve
    for e in cfg.entries:
        if _UNKNOWN_MARK in str(e.key):
            continue  # a key vcfg cannot know: nothing to check
        if (
            _UNKNOWN_MARK in e.value_word.value
            or (e.json_word is not None and _UNKNOWN_MARK in e.json_word.value)
            or any(_UNKNOWN_MARK in w.value for w in e.item_words)
        ):
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
            if p.v >= since("yaml-false-as-no-flag") and not serve and p.cat.flag(no_key) is not None:
                out.append(_Tok(no_key, _synthetic_word(no_key, e.key_span), 0, "config"))
                continue
            if false_matters(p.cat, key):
                p.problem(
                    "yaml-false-dropped",
                    f"`{e.key}: false` is ignored by vLLM's --config loader"
                    + (" (write the negative option on the command line)" if p.cat.flag(no_key) else ""),
                    e.value_span,
                    key,
                    severity="warning",
                )
            continue
        if isinstance(v, list):
            if not v:
                continue
            if p.v < since("yaml-list-as-words"):
                out.append(kt)
                out.append(_Tok(str(v), e.value_word, 0, "config"))
                continue
            out.append(kt)
            for w in e.item_words:
                out.append(_Tok(w.value, w, 0, "config"))
            continue
        if isinstance(v, dict):
            out.append(kt)
            if p.v < since("yaml-dict-as-json"):
                out.append(_Tok(str(v), _synthetic_word(str(v), e.value_span), 0, "config"))
            else:
                out.append(_Tok(e.json_word.value, e.json_word, 0, "config"))
            continue
        out.append(kt)
        out.append(_Tok(e.value_word.value, e.value_word, 0, "config"))
    return out


def step_normalise(p: "Parser", toks: list[_Tok]) -> list[_Tok]:
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
                opt, v = s.split("=", 1)
                out.append(t._replace(text=f"{norm(opt)}={v}"))
            else:
                out.append(t._replace(text=norm(s)))
        elif s.startswith("-O") and s != "-O" and (p.v >= (0, 13, 0) or s[2] != "."):
            level = s[3:] if s[2] == "=" else s[2:]
            sub = 3 if s[2] == "=" else 2
            if p.v >= since("o-is-optimization-level"):
                out.append(t._replace(text="--optimization-level"))
                out.append(_Tok(level, t.word, t.start + sub, t.origin))
            else:
                name = "mode" if p.v >= since("o-is-compilation-mode") else "level"
                out.append(t._replace(text=f"-O.{name}={level}"))
        elif s.startswith("-O.") and (0, 12, 0) <= p.v < (0, 13, 0):
            p.problem("deprecated", "-O.* is deprecated in this version; use -cc.*", t.span(), "-O", severity="warning")
            out.append(t._replace(text="-cc" + s[2:]))
        elif s == "-O" and i + 1 < len(toks) and toks[i + 1].text in ("0", "1", "2", "3"):
            if p.v >= since("o-is-optimization-level"):
                out.append(t._replace(text="--optimization-level"))
            else:
                name = "mode" if p.v >= since("o-is-compilation-mode") else "level"
                out.append(t._replace(text=f"-O.{name}"))
        else:
            out.append(t)
    return out


def step_dotted(p: "Parser", toks: list[_Tok]) -> list[_Tok]:
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
                p.problem("missing-value", f"{s} expects a value (vLLM fails with an IndexError)", t.span(), s)
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
            p.problem(
                "unknown-value",
                f"value of {name_part} is not known ({vtok.word.describe_unknown()})",
                vtok.span(),
                key,
                severity="info",
            )
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
                    if p.v >= since("dotted-value-human-readable"):
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
                    p.problem(
                        "duplicate",
                        f"{name_part}: key {k!r} given twice; the last one wins",
                        t.span(),
                        key,
                        severity="warning",
                    )
                cur[k] = {}
            cur = cur[k]
        last = keys[-1] if keys else ""
        if isinstance(value, list) and isinstance(cur.get(last), list):
            cur[last] = cur[last] + value
        else:
            if last in cur:
                p.problem("duplicate", f"{name_part} given twice; the last one wins", t.span(), key, severity="warning")
            cur[last] = value if known else _UNKNOWN
        # positions: the key part of the option and the value word
        name_start = len(key) + 1
        kspan = t.sub(name_start, len(name_part) + (1 if append else 0))
        path = tuple(keys)
        lm = locs.setdefault(key, {})
        for inner in [q for q in lm if q[: len(path)] == path]:
            del lm[inner]
        lm[path] = JsonLoc(kspan, vtok.span())
    if not merged:
        return toks
    out = [t for i, t in enumerate(toks) if i not in delete]
    for key, d in merged.items():
        ft = first_tok[key]
        if key in whole_json:
            wt = whole_json[key]
            p.problem(
                "dotted-overrides",
                f"{key}.* keys are merged into one JSON value placed after {wt.text.split('=', 1)[0]}; "  # type: ignore[union-attr]
                "it replaces the whole JSON value given earlier",
                ft.span(),
                key,
                severity="warning",
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


def false_matters(cat: Any, key: str) -> bool:
    """Whether dropping ``key: false`` leaves the option other than the file says: not
    when the option's default is already off (``enforce-eager: false``), nor when a
    negative form's default is already on (``no-enable-prefix-caching: false``).  An
    unset default (None: vLLM decides at run time, often on) counts as possibly on."""
    name = key.replace("_", "-")
    flag = cat.flag(name)
    if flag is None:
        return True  # unknown option: other rules speak; the drop is still worth saying
    default = flag.default
    if default is None and flag.config_class and flag.config_field:
        cls = cat.config(flag.config_class)
        fld = cls.field(flag.config_field) if cls is not None else None
        default = fld.default if fld is not None else None
    negative = flag.option_strings[:1] != [name] and (
        name.startswith("--no-")
        or (name.startswith("--disable-") and not flag.option_strings[0].startswith("--disable-"))
    )
    if negative:  # the file asks for the option on
        return default is not True
    return default is not False
