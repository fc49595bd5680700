"""Hostile input (#18), property tests: arbitrary bytes at every reader and arbitrary
text through every output format, in-process (the subprocess cases with memory and
time limits are in tests/test_hostile.py).  ``VCFG_FUZZ_EXAMPLES`` sets the examples
per test (.ci/run: 5,000 for each of the four, 20,000 in all; the default suite's 20
only show each property holds)."""

from __future__ import annotations

import json
import os
import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from vcfg.diagnostics import Diagnostic, Span, Summary
from vcfg.launch.read import choose, read_plan
from vcfg.launch.readers import ReadContext
from vcfg.lint.engine import lint_paths
from vcfg.render import concise, full, github, json_, sarif
from vcfg.span import LINE_BREAK, split_lines

N = int(os.environ.get("VCFG_FUZZ_EXAMPLES", "20"))
SETTINGS = settings(
    max_examples=N, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)

#: a name each reader's patterns fit (the registry decides which readers are asked)
NAMES = [
    "run.sh",
    "config.yaml",
    "deploy.yaml",
    "docker-compose.yaml",
    "README.md",
    "Dockerfile",
    "values.yaml",
    ".github/workflows/ci.yml",
    "serve_config.yaml",
    "sky.yaml",
    "recipe.yaml",
    "start",
]

#: fragments of every format, so that random bytes reach deep into the readers
FRAGMENTS = st.sampled_from(
    [
        b"vllm serve m ",
        b"--port 8000 ",
        b"--tensor-parallel-size 2 ",
        b"apiVersion: v1\n",
        b"kind: Pod\n",
        b"containers:\n",
        b"- name: x\n",
        b"  image: vllm/vllm-openai\n",
        b"  args: [",
        b"]\n",
        b"services:\n",
        b"  command: ",
        b"```bash\n",
        b"```\n",
        b"FROM vllm/vllm-openai\n",
        b'CMD ["--model", "m"]\n',
        b"model: m\n",
        b"&a ",
        b"*a ",
        b"<<: *a\n",
        b"!!python/object ",
        b"\xef\xbb\xbf",
        b"\r\n",
        b"\r",
        b"\t",
        b"\x0c",
        b"\x00",
        b"\xff",
        "é".encode(),
        "\u00a0".encode(),
        "\u2013".encode(),
        b"for i in 1 2; do ",
        b"done\n",
        b"fi\n",
        b"}\n",
        b"'",
        b'"',
        b"{",
        b"}",
        b":",
        b"\n",
    ]
)
DATA = st.one_of(st.binary(max_size=300), st.lists(FRAGMENTS, max_size=30).map(b"".join))


@SETTINGS
@given(st.sampled_from(NAMES), DATA)
@example("run.sh", b"\rvllm")  # a lone CR ends a line (vcfg/span.py, as editors count)
def test_every_reader_takes_any_bytes(name: str, data: bytes) -> None:
    ctx = ReadContext(named=True)
    choice = choose(name, data.decode("utf-8", "surrogateescape"), ctx, data[:256])
    plan = read_plan(name, data, ctx, choice)
    lines = len(re.findall(rb"\r\n|\r|\n", data)) + 1
    for inv in plan.invocations:  # spans point into the file
        assert 1 <= inv.span.line <= lines


@SETTINGS
@given(st.sampled_from(["x.sh", "x.yaml", "k8s.yaml", "README.md"]), DATA)
def test_lint_of_any_bytes_has_no_internal_error(tmp_path_factory, name: str, data: bytes) -> None:
    d = tmp_path_factory.mktemp("f")
    (d / name).write_bytes(data)
    result = lint_paths([str(d / name)], "0.33.0")
    assert result.internal_errors == [], result.internal_errors


TEXT = st.text(st.characters(blacklist_categories=()), max_size=60)
_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _diag(message: str, path: str, help_: str) -> Diagnostic:
    return Diagnostic(
        code="VC001",
        name="unknown-option",
        severity="error",
        message=message,
        span=Span.at(path or "x.sh", 1, 1, 1, 2),
        help=help_ or None,
    )


def _summary() -> Summary:
    return Summary(files=1, launches=1, vllm_version="0.33.0")


@SETTINGS
@given(TEXT, TEXT, TEXT, TEXT)
def test_no_format_carries_input_control_characters(message: str, path: str, help_: str, line: str) -> None:
    diags = [_diag(message, path, help_)]
    sources = {path or "x.sh": line}
    for text in (
        full.render(diags, _summary(), sources),
        concise.render(diags, _summary(), sources),
        github.render(diags, _summary(), sources),
    ):
        assert not _UNSAFE.search(text), repr(text)
    # concise and github: one line per finding, then the summary
    assert concise.render(diags, _summary(), sources).count("\n") == 1
    gh = github.render(diags, _summary(), sources).split("\n")
    assert len(gh) == 2 and gh[0].startswith("::error file=")
    props = gh[0].split(" ", 1)[1].split("::", 1)[0]
    assert [kv.split("=", 1)[0] for kv in props.split(",")] == ["file", "line", "col", "endLine", "endColumn", "title"]
    for text in (json_.render(diags, _summary(), sources), sarif.render(diags, _summary(), sources)):
        assert not _UNSAFE.search(text), repr(text)
        json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(AssertionError(c)))


#: what may stand before the offending text on earlier lines and on its own line
BEFORE_LINES = st.lists(
    st.sampled_from(["# a\ttab", "# \x0cform feed", "# é日本語", "# \r carriage", "", "export A=1", "# \u00a0nbsp"]),
    max_size=6,
)
ENDINGS = st.sampled_from(["\n", "\r\n"])
SAME_LINE = st.sampled_from(["", "A=é ", "B='日本' ", "\t", "C=\x0c "])


@SETTINGS
@given(BEFORE_LINES, ENDINGS, SAME_LINE)
def test_positions_land_on_the_offending_text(tmp_path_factory, lines, ending, same_line) -> None:
    head = "".join(line + ending for line in lines)
    text = head + same_line + "vllm serve m --tensor-parallel-sise 2 --port 8000\n"
    d = tmp_path_factory.mktemp("p")
    (d / "x.sh").write_bytes(text.encode("utf-8"))
    result = lint_paths([str(d / "x.sh")], "0.33.0")
    hits = [x for x in result.diagnostics if x.code == "VC001"]
    assert hits, result.diagnostics
    s = hits[0].span
    # lines end at \n, \r\n and a lone \r (as editors and the LSP count them; not at a
    # form feed), columns count characters
    rows = split_lines(text)
    head_breaks = len(LINE_BREAK.findall(text[: text.index("vllm serve")]))
    assert s.line == head_breaks + 1, (s, text)
    row = rows[s.line - 1]
    assert row[s.col - 1 : s.end_col - 1] == "--tensor-parallel-sise", (s, row)
