"""No input gives a traceback: mutated reports and results either analyse (and render in
every format, as strict JSON) or raise VcfgError."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from vcfg.bench import Slos, analyze, loads
from vcfg.bench.compare import compare
from vcfg.bench.render import render_compare_text, render_markdown, render_text
from vcfg.errors import VcfgError

ROOT = Path(__file__).resolve().parent.parent
NOTES_LINES = (ROOT / "examples" / "bench" / "notes-1p1d.txt").read_text().splitlines()
SMALL = json.loads((ROOT / "tests" / "fixtures" / "bench" / "small-detailed.json").read_text())

ODD_VALUES = st.sampled_from([None, 0, -1, 0.0, 1e308, -1e308, "x", "inf", [], {}, [1, "a"], True, [[None]], [0] * 5])
ODD_TOKENS = st.sampled_from(["0", "-5", "nan", "inf", "abc", "1e400", "0.00", ""])


def _exercise(data: bytes) -> None:
    try:
        results = loads(data, "fuzz")
    except VcfgError:
        return
    for r in results:
        for slos in (Slos(), Slos(ttft_ms=100, itl_ms=10)):
            a = analyze(r, slos)
            render_text(a)
            render_markdown(a)
            json.dumps(a.to_json(), allow_nan=False)
            render_compare_text(compare(a, a))


@settings(max_examples=150, deadline=None)
@given(
    edits=st.lists(
        st.tuples(st.integers(0, len(NOTES_LINES) - 1), st.integers(0, 2), ODD_TOKENS),
        min_size=1,
        max_size=5,
    )
)
def test_mutated_text_reports(edits):
    lines = list(NOTES_LINES)
    for index, op, token in edits:
        index %= len(lines)
        if op == 0:
            del lines[index]
        elif op == 1:
            lines[index] = lines[index].split(":")[0] + ": " + token
        else:
            lines[index] = lines[index][: len(lines[index]) // 2]
        if not lines:
            break
    _exercise("\n".join(lines).encode())


@settings(max_examples=150, deadline=None)
@given(
    edits=st.lists(
        st.tuples(st.sampled_from(sorted(SMALL)), st.booleans(), ODD_VALUES),
        min_size=1,
        max_size=4,
    )
)
def test_mutated_json_results(edits):
    obj = json.loads(json.dumps(SMALL))
    for key, delete, value in edits:
        if delete:
            obj.pop(key, None)
        else:
            obj[key] = value
    _exercise(json.dumps(obj).encode())


@given(st.binary(max_size=300))
@settings(max_examples=100, deadline=None)
def test_arbitrary_bytes(data):
    _exercise(data)
