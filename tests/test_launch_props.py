"""Property tests for the launch front end: quoting round trips, and no input
ever raises (binary, invalid UTF-8, unterminated quotes, huge, deeply nested)."""

import shlex

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from vcfg.catalog.model import Catalog, Flag
from vcfg.launch.args import parse_args, parse_json_positions
from vcfg.launch.model import Word
from vcfg.launch.read import parse_manifest
from vcfg.launch.shell import parse_script
from vcfg.launch.yaml_config import load_serve_config

SETTINGS = settings(
    max_examples=int(__import__("os").environ.get("VCFG_PROPS_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# bash words cannot hold NUL; lone surrogates are not text
ARG = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=24)


def q_single(s: str) -> str:
    return shlex.quote(s) if s else "''"


def q_double(s: str) -> str:
    out = "".join("\\" + c if c in '\\"$`' else c for c in s)
    return f'"{out}"'


def q_ansi(s: str) -> str:
    out = []
    for c in s:
        if c == "\\":
            # not "\\\\": tree-sitter-bash 0.25 reads $'\\\\' as an escaped quote
            out.append("\\x5c")
        elif c == "'":
            out.append("\\'")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append("\\x%02x" % ord(c))
        else:
            out.append(c)
    return "$'" + "".join(out) + "'"


def q_backslash(s: str) -> str:
    if not s:
        return '""'
    # a backslash-newline is a line continuation, so newlines go in quotes (and
    # carriage returns: tree-sitter reads backslash-CR-LF as a continuation)
    return "".join("'" + c + "'" if c in "\r\n" else "\\" + c for c in s)


QUOTERS = [q_single, q_double, q_ansi, q_backslash]


@SETTINGS
@given(st.lists(st.tuples(ARG, st.integers(0, 3), st.booleans()), min_size=1, max_size=8))
@example([("", 0, False), ("\x0c", 3, True)])  # an escaped form feed after a continuation (was dropped)
@example([("m", 0, False), ("==", 0, False)])  # a bare == ending the command (was an ERROR node)
@example([("==", 0, False), ("--x", 0, True)])  # before a continuation (was dropped)
def test_quoting_round_trip(items):
    argv = [a for a, _, _ in items]
    parts = []
    for i, (a, k, cont) in enumerate(items):
        if i:
            parts.append(" \\\n  " if cont else " ")
        parts.append(QUOTERS[k](a))
    src = "vllm serve " + "".join(parts) + "\n"
    plan = parse_script(src, "q.sh")
    assert len(plan.invocations) == 1, src
    inv = plan.invocations[0]
    assert [w.text for w in inv.args] == argv, src
    # every word's span covers its source text
    data = src.encode("utf-8")
    for (a, k, _), w in zip(items, inv.args):
        assert data[w.span.start : w.span.end].decode() == QUOTERS[k](a)
        if a and k in (0, 2, 3):
            # exact per-character positions: the first character maps inside the word
            cs = w.char_span(0)
            assert w.span.start <= cs.start < w.span.end


@SETTINGS
@given(st.lists(ARG, min_size=1, max_size=6))
def test_round_trip_through_variables_and_arrays(argv):
    src = "ARGS=(" + " ".join(q_single(a) for a in argv) + ")\n"
    src += "X=" + q_double(argv[0]) + "\n"
    src += 'vllm serve "$X" "${ARGS[@]}"\n'
    (inv,) = parse_script(src, "v.sh").invocations
    assert [w.text for w in inv.args] == [argv[0]] + argv


@SETTINGS
@given(st.binary(max_size=3000))
def test_any_bytes_never_raise(data):
    plan = parse_script(data, "b.sh")
    for p in plan.problems:
        assert p.span.line >= 1 and p.span.col >= 1 and 0 <= p.span.start <= max(len(data), 0)


SHELLISH = st.lists(
    st.sampled_from(
        list("'\"$(){}[]\\ \n\t;&|<>`=#!-_.,:*?~%^+/@abcxyz0189")
        + ["vllm serve ", "--port ", "export ", "<<EOF\n", "EOF\n", "$((", "${", "eval ", "for i in "]
    ),
    max_size=120,
).map("".join)


@SETTINGS
@given(SHELLISH)
def test_shellish_text_never_raises(text):
    plan = parse_script(text, "s.sh")
    for inv in plan.invocations:
        for w in inv.args:
            assert isinstance(w, Word)
            if w.value:
                w.span_of(0, len(w.value))
    for p in plan.problems:
        assert p.span.line >= 1 and p.span.col >= 1


def test_unterminated_quotes_and_deep_nesting():
    cases = [
        b'vllm serve m --kv-transfer-config \'{"a": 1\n',
        b'vllm serve m "$(' * 300,
        b"echo " + b"$(" * 5000 + b")" * 5000,
        b"{ " * 3000 + b"vllm serve m; " + b"}; " * 3000,
        b"(" * 3000 + b"vllm serve m" + b")" * 3000,
        b"if true; then " * 2000 + b"vllm serve m\n" + b"fi\n" * 2000,
        b"echo $((" + b"(" * 5000 + b"1" + b")" * 5000 + b"))",
        b"".join(b"f%d() { f%d; }\n" % (i, i + 1) for i in range(500)) + b"f0\n",
        b"cat <<EOF\n" + b"$(" * 200,
        b"\xef\xbb\xbfvllm serve m\r\n--port 1\r\n",
    ]
    for src in cases:
        plan = parse_script(src, "d.sh")
        for p in plan.problems:
            assert p.span.line >= 1 and p.span.col >= 1
    deep = parse_script(b"{ " * 3000 + b"vllm serve m; " + b"}; " * 3000, "d.sh")
    assert any(p.code == "too-deep" for p in deep.problems)
    unterminated = parse_script(cases[0], "d.sh")
    assert [p.code for p in unterminated.problems] == ["missing"]
    assert unterminated.problems[0].span.col == 35


def test_ten_megabytes():
    big = b"vllm serve m --port 1 --kv-transfer-config '" + b"x y\n" * (10 * 1024 * 1024 // 4)
    plan = parse_script(big, "big.sh")
    assert plan.problems and all(p.span.line >= 1 for p in plan.problems)
    plan = parse_script(b"# " + b"z" * (10 * 1024 * 1024) + b"\nvllm serve m\n", "big.sh")
    assert [w.text for w in plan.invocations[0].args] == ["m"]
    assert plan.invocations[0].span.line == 2


CAT = Catalog(
    vllm_version="0.33.0",
    flags=[
        Flag(option_strings=[], dest="model_tag", type="str", nargs="?", positional=True),
        Flag(option_strings=["--port"], dest="port", type="int"),
        Flag(option_strings=["--config"], dest="config", type="str"),
        Flag(option_strings=["--max-model-len"], dest="max_model_len", type="human_readable_int_or_auto"),
        Flag(option_strings=["--kv-transfer-config"], dest="kv_transfer_config", type="config"),
        Flag(option_strings=["--served-model-name"], dest="served_model_name", type="str", nargs="+"),
        Flag(option_strings=["--enforce-eager", "--no-enforce-eager"], dest="enforce_eager", action="enable_disable"),
    ],
)

TOKENS = st.one_of(
    st.sampled_from(
        [
            "--port",
            "--port=",
            "-O",
            "-O3",
            "--config",
            "--kv-transfer-config",
            "--kv-transfer-config.a",
            "--kv-transfer-config.a.b+",
            "--max-model-len",
            "8k",
            "-0.5",
            "--",
            "--served-model-name",
            "--enforce-eager",
            "--no-enforce-eager",
            "--model",
            "x.yaml",
            "{",
            '{"a": 1g}',
            "--unknown",
        ]
    ),
    ARG,
)


@SETTINGS
@given(st.lists(TOKENS, max_size=12))
def test_args_never_raise(tokens):
    src = "vllm serve " + " ".join(q_single(t) for t in tokens) + "\n"
    (inv,) = parse_script(src, "a.sh").invocations
    res = parse_args(inv.args, CAT, read_files=False)
    for p in res.problems:
        assert p.span.line >= 1 and p.span.col >= 1
    for o in res.occurrences:
        assert o.name_span.line >= 1


@SETTINGS
@given(st.text(max_size=300))
def test_json_positions_agree_with_json(s):
    import json
    import math

    try:
        expected = json.loads(s)
    except (ValueError, RecursionError):
        expected = ValueError
    try:
        got, locs, _ = parse_json_positions(s)
    except ValueError:
        got = ValueError
    if expected is ValueError or got is ValueError:
        assert expected is got, s
        return

    def same(a, b):
        if isinstance(a, float) and math.isnan(a):
            return isinstance(b, float) and math.isnan(b)
        if isinstance(a, dict):
            return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
        if isinstance(a, list):
            return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        return a == b and type(a) is type(b)

    assert same(got, expected)


@SETTINGS
@given(st.text(max_size=300))
def test_yaml_front_ends_never_raise(s):
    cfg = load_serve_config(s, "c.yaml")
    assert cfg.entries is not None or cfg.problems
    plan = parse_manifest(s, "m.yaml")
    for p in plan.problems:
        assert p.span.line >= 1
