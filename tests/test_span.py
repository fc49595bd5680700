"""One `Span` type: a finding points at the span of the word it is about, with the
word's byte offsets, in the path the user gave."""

from vcfg.diagnostics import Diagnostic
from vcfg.launch.model import LineIndex
from vcfg.launch.model import Span as LaunchSpan
from vcfg.lint.engine import lint_paths
from vcfg.span import Span


def test_launch_model_and_findings_share_the_type():
    assert LaunchSpan is Span
    assert Diagnostic.__record_fields__[3].name == "span"


def test_a_finding_carries_the_word_bytes(tmp_path, monkeypatch):
    text = "#!/bin/bash\nvllm serve m \\\n  --max-num-seqz 8\n"
    (tmp_path / "run.sh").write_text(text)
    monkeypatch.chdir(tmp_path)
    res = lint_paths(["run.sh"], "0.11.0")
    [d] = [d for d in res.diagnostics if d.code == "VC001"]
    s = d.span
    assert isinstance(s, Span)
    start = text.index("--max-num-seqz")
    assert (s.file, s.line, s.col) == ("run.sh", 3, 3)
    # the flag's name: its bytes in the file and its columns agree
    assert (s.start, s.end) == (start, start + len("--max-num-seqz"))
    assert s.end_col - s.col == len("--max-num-seqz")


def test_for_finding_widens_an_empty_range_and_renames_the_file():
    idx = LineIndex(b"ab\ncd\n", "/abs/run.sh")
    empty = idx.span(4, 4)
    assert (empty.line, empty.col, empty.end_col) == (2, 2, 2)
    shown = empty.for_finding("run.sh")
    assert shown.position() == ("run.sh", 2, 2, 2, 3)
    assert (shown.start, shown.end) == (4, 4)
    assert idx.span(0, 2).for_finding().position() == ("/abs/run.sh", 1, 1, 1, 3)


def test_a_place_known_by_columns_only_has_no_bytes():
    s = Span.at("run.sh", 4, 2, 4, 9)
    assert (s.start, s.end) == (-1, -1) and s.position() == ("run.sh", 4, 2, 4, 9)
    assert Span.point("run.sh", 1).position() == ("run.sh", 1, 1, 1, 2)
