"""The readers on real public deployment files (tests/corpus/real/, annotations.toml).

Every annotated launch of a positive file is found: same kind, on the annotated line,
with the annotated model, option names, option values, variables and release.  A
negative file yields no launch and no finding.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import pytest
import tomllib

from vcfg.launch.model import BENCH_SERVE, DYNAMO, PROXY, SERVE
from vcfg.launch.read import read_files

REAL = Path(__file__).resolve().parent / "corpus" / "real"
ANNOTATIONS = tomllib.loads((REAL / "annotations.toml").read_text()) if (REAL / "annotations.toml").exists() else {}
FILES = ANNOTATIONS.get("file", [])
POSITIVE = [f for f in FILES if not f["negative"]]
NEGATIVE = [f for f in FILES if f["negative"]]

KINDS = {"serve": {SERVE}, "dynamo-worker": {DYNAMO}, "router": {PROXY}, "proxy": {PROXY}, "bench": {BENCH_SERVE}}

#: formats whose reader is not written yet: their files must fail (strict xfail), so
#: this set shrinks as readers are written (and a new corpus file of such a format does
#: not turn the suite red)
PENDING_FORMATS: set[str] = set()

#: single files of other formats that are known not to pass yet, with the reason
PENDING: set[str] = set()


def _catalog():  # type: ignore[no-untyped-def]
    from vcfg.catalog import store

    return store.load("0.33.0")[0]


def _plan(rel: str):  # type: ignore[no-untyped-def]
    path = str(REAL / rel)
    (plan,) = read_files([(path, (REAL / rel).read_bytes())], _catalog())
    return plan


def _option_values(args: Any, name: str) -> list[Optional[str]]:
    """Every value given to option ``name`` (``--x v``, ``--x=v``; None: a switch)."""
    out: list[Optional[str]] = []
    texts = [w.text for w in args]
    for i, t in enumerate(texts):
        if t is None:
            continue
        if t == name:
            nxt = texts[i + 1] if i + 1 < len(texts) else None
            out.append(nxt if nxt is not None and not nxt.startswith("--") else None)
        elif t.startswith(name + "="):
            out.append(t[len(name) + 1 :])
    return out


def _norm(name: str) -> str:
    head, dot, tail = name.partition(".")
    return head.replace("_", "-") + dot + tail


def _parsed(inv: Any, plan: Any) -> Any:
    from vcfg.launch.args import parse_invocation

    return parse_invocation(inv, _catalog(), plan)


def _options(inv: Any, plan: Any) -> dict[str, list[Optional[str]]]:
    """Option name (as written and as vLLM matched it, ``_`` as ``-``) -> values:
    for a serve launch as vLLM's parser sees it (``--config`` files expanded),
    otherwise from the argv words."""
    out: dict[str, list[Optional[str]]] = {}
    if inv.kind == SERVE:
        pa = _parsed(inv, plan)
        for ov in [*pa.occurrences, *([pa.model] if pa.model is not None else [])]:
            vals: list[Optional[str]] = [w.text for w in ov.words[1:]] or [None]
            if "=" in ov.written:
                vals.append(ov.written.split("=", 1)[1])
            v = ov.value
            items = v if isinstance(v, list) else [v]
            vals.extend(None if x is None else str(x).lower() if isinstance(x, bool) else str(x) for x in items)
            names = {_norm(ov.written.split("=", 1)[0]), _norm(ov.option)}
            if ov is pa.model:
                names.add("--model")
            for name in names:
                out.setdefault(name, []).extend(vals)
        # and as written (an option the parser could not match, such as an ambiguous
        # prefix of this release, is still in the argv vLLM receives)
    texts = [w.text for w in inv.args]
    for i, t in enumerate(texts):
        if t is None or not t.startswith("-"):
            continue
        name, eq, val = t.partition("=")
        nxt = texts[i + 1] if i + 1 < len(texts) else None
        value = val if eq else (nxt if nxt is not None and not nxt.startswith("--") else None)
        out.setdefault(_norm(name), []).append(value)
    return out


def _model(inv: Any, plan: Any) -> Optional[str]:
    if inv.kind == SERVE:
        pa = _parsed(inv, plan)
        if pa.model is not None:
            return pa.model.value
    vals = [v for v in _option_values(inv.args, "--model") if v]
    return vals[-1] if vals else None


def _lines(inv: Any) -> set[int]:
    out = {inv.span.line}
    n = len(inv.command) - len(inv.args)
    if 0 < n <= len(inv.command):
        out.add(inv.command[n - 1].span.line)
    return out


def _mismatch(inv: Any, want: dict[str, Any], plan: Any) -> Optional[str]:
    """Why ``inv`` is not the annotated launch (None: it is)."""
    if inv.kind not in KINDS[want["kind"]]:
        return f"kind {inv.kind}"
    if want["line"] not in _lines(inv):
        return f"line {sorted(_lines(inv))}"
    if "model" in want and _model(inv, plan) != want["model"]:
        return f"model {_model(inv, plan)!r}"
    opts = _options(inv, plan)

    def given(flag: str) -> list[Optional[str]]:
        out: list[Optional[str]] = []
        for name in {_norm(flag), _norm("--" + flag.lstrip("-"))}:
            out.extend(opts.get(name, []))
        return out

    for flag in want.get("flags", []):
        if not given(flag):
            return f"no {flag} in {[w.text for w in inv.args]}"
    for flag, value in want.get("values", {}).items():
        if value not in given(flag):
            return f"{flag} = {given(flag)}, not {value!r}"
    for name in want.get("env", []):
        if name not in inv.env:
            return f"no {name} in the environment ({sorted(inv.env)})"
    if "release" in want:
        from vcfg.launch.release import release_of

        got = release_of(inv)
        if got.version != want["release"]:
            return f"release {got.version!r} ({got.note})"
    return None


def _case(f: dict[str, Any]):  # type: ignore[no-untyped-def]
    pending = f["path"] in PENDING or (f["format"] in PENDING_FORMATS and not f["negative"])
    marks = [pytest.mark.xfail(strict=True, reason="reader not written yet")] if pending else []
    return pytest.param(f, id=f["path"], marks=marks)


def test_the_corpus_is_there():
    assert len(POSITIVE) >= 20 and len(NEGATIVE) >= 10


@pytest.mark.parametrize("f", [_case(f) for f in POSITIVE])
def test_every_annotated_launch_is_found(f):
    plan = _plan(f["path"])
    invs = list(plan.invocations)
    problems = []
    for want in f["launch"]:
        why = [(inv.span.line, _mismatch(inv, want, plan)) for inv in invs]
        if not any(w is None for _, w in why):
            problems.append(f"line {want['line']} {want['kind']}: " + "; ".join(f"{ln}: {w}" for ln, w in why))
    assert not problems, f"{plan.source_kind}: " + "\n".join(problems)


@pytest.mark.parametrize("f", [_case(f) for f in NEGATIVE])
def test_a_file_without_launches_is_silent(f):
    from vcfg.lint.engine import lint_paths

    plan = _plan(f["path"])
    assert plan.invocations == (), plan.source_kind
    res = lint_paths([str(REAL / f["path"])], "0.33.0")
    assert [(d.code, d.span.line, d.message) for d in res.diagnostics] == []
    assert res.summary.launches == 0


def test_pending_lists_only_annotated_files():
    assert PENDING <= {f["path"] for f in FILES}
    assert all(os.path.exists(REAL / p) for p in PENDING)
