"""A script with Windows line endings (CR LF), read as bash reads it: a carriage
return is an ordinary character to bash, never a blank, so each line's last word keeps
it (``--served-model-name ==`` passes ``$'==\\r'``), a ``\\`` before it escapes it instead
of continuing the command, a blank before it leaves a word of its own, and ``then\\r``
is no keyword.  tests/corpus/shell/crlf-line-ends.sh is run under real bash by the
slow oracle (tests/test_bash_oracle.py); the argv below is what bash gave it."""

from __future__ import annotations

from pathlib import Path

from vcfg.launch.model import SERVE
from vcfg.launch.shell import parse_script
from vcfg.lint.engine import lint_paths

SCRIPT = Path(__file__).resolve().parent / "corpus" / "shell" / "crlf-line-ends.sh"


def test_the_script_has_windows_line_endings():
    data = SCRIPT.read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n") == 9


def test_line_end_words_keep_the_carriage_return_as_bash_does():
    plan = parse_script(SCRIPT.read_bytes(), str(SCRIPT))
    got = [(i.span.line, [w.text for w in i.args]) for i in plan.invocations if i.kind == SERVE]
    assert got == [
        (5, ["Qwen/Qwen3-0.6B\r", "--port", "8000", "--served-model-name", "==\r"]),
        (6, ["Qwen/Qwen3-0.6B\r", "--port", "8001", "--enforce-eager\r"]),
        # `\` CR: an escaped CR (a word of its own after the blank); the line ends there
        (7, ["Qwen/Qwen3-0.6B", "--port", "8002", "\r"]),
        # a blank before the CR: the CR is a word of its own
        (9, ["Qwen/Qwen3-0.6B", "--port", "8003", "--served-model-name", "qwen", "\r"]),
    ]
    # an exported value keeps it too (VLLM_LOGGING_LEVEL=INFO\r, line 3)
    assert plan.invocations[0].env["VLLM_LOGGING_LEVEL"].value.text == "INFO\r"
    # `==\r`'s word starts at the `==` and maps its CR to the file's
    w = plan.invocations[0].args[-1]
    line5 = SCRIPT.read_bytes().split(b"\r\n")[4]
    assert (w.char_span(0).line, w.char_span(0).col) == (5, line5.index(b"==") + 1)
    assert w.char_span(2).col == len(line5) + 1


def test_what_bash_then_refuses_is_found_where_it_is(tmp_path):
    """One finding for the line endings, naming the continued line they end (line 7's
    `\\` CR ends the command: the CR is a second positional argument and line 8 a
    command of its own, which were three more findings), and the option a CR broke."""
    p = tmp_path / "run.sh"
    p.write_bytes(SCRIPT.read_bytes())
    res = lint_paths([str(p)], "0.33.0")
    got = [(d.code, d.span.line, d.span.col, d.message) for d in res.diagnostics if d.code in ("VC000", "VC001")]
    lines = SCRIPT.read_bytes().split(b"\r\n")
    assert got == [
        ("VC000", 1, 12, got[0][3]),  # Windows line endings (at the first CR)
        ("VC001", 6, lines[5].index(b"--enforce-eager") + 1, "unknown option `--enforce-eager\r`"),
    ]
    assert got[0][3].startswith("Windows line endings")
    assert got[0][3].endswith("; so line 7 ends its command there, and the next line runs as a command of its own")


def test_without_windows_line_endings_each_break_is_its_own_finding(tmp_path):
    """A blank after `\\` (no CR in the file) is still found where it is, with the line
    it splits off."""
    p = tmp_path / "run.sh"
    p.write_bytes(b"vllm serve m --port 8002 \\ \n  --max-num-seqs 8\n")
    got = [(d.code, d.span.line) for d in lint_paths([str(p)], "0.33.0").diagnostics]
    assert ("VC000", 1) in got and ("VC000", 2) in got and ("VC001", 1) in got


def test_a_keyword_with_a_carriage_return_is_no_keyword():
    # bash: "syntax error near unexpected token `$'do\r''": nothing runs
    plan = parse_script(b"for i in 1 2; do\r\n  vllm serve m --port 800$i\r\ndone\r\n", "run.sh")
    assert "syntax" in [p.code for p in plan.problems]
    assert [i for i in plan.invocations if i.kind == SERVE] == []
