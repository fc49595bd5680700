"""A big script parsed a piece at a time (vcfg/launch/chunks.py) reads as the whole
script parsed at once: every script of the corpus, cut into pieces of a few bytes,
gives the same plan (launches, environment, problems, shape): every third script in
the default suite, all of them in the slow one."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from vcfg.launch import chunks, shell
from vcfg.launch.model import LineIndex

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(
    {*ROOT.glob("tests/corpus/**/*.sh"), *ROOT.glob("tests/fixtures/**/*.sh"), *ROOT.glob("examples/*.sh")}
)
FIELDS = ("invocations", "timeline", "unknowns", "problems", "shape", "starts", "written_files")


@lru_cache(maxsize=None)
def _whole(path: Path) -> object:
    """A script parsed at once (one piece), once per process: the same reference for
    each piece size below."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(chunks, "CHUNK", 1 << 30)
        return shell.parse_script(path.read_bytes(), str(path))


#: every third script in the default suite (about 60), the others slow
SHARES = [pytest.param(True, id="every-third"), pytest.param(False, id="the-others", marks=pytest.mark.slow)]


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("size", [16, 100, 512])
def test_pieces_read_as_the_whole_script(monkeypatch, size: int, share: bool) -> None:
    assert len(SCRIPTS) > 100
    differ = []
    for k, path in enumerate(SCRIPTS):
        if (k % 3 == 0) != share:
            continue
        data = path.read_bytes()
        whole = _whole(path)
        monkeypatch.setattr(chunks, "CHUNK", size)
        pieces = shell.parse_script(data, str(path))
        bad = [f for f in FIELDS if getattr(whole, f) != getattr(pieces, f)]
        if bad:
            differ.append((path.name, bad))
    assert differ == []


def test_pieces_are_parsed_only_as_far_as_read(monkeypatch) -> None:
    """The interpreter stops at the launch cap: the pieces after it are not parsed."""
    monkeypatch.setattr(chunks, "CHUNK", 4096)
    parsed: list[tuple[int, int]] = []
    real = chunks._parse_range

    def spy(text: bytes, a: int, b: int, row: int, li: LineIndex):  # type: ignore[no-untyped-def]
        parsed.append((a, b))
        return real(text, a, b, row, li)

    monkeypatch.setattr(chunks, "_parse_range", spy)
    line = b"vllm serve m --port 8000 &\n"
    data = line * 20_000  # 540 KB; the 501st launch is in the fourth piece
    plan = shell.parse_script(data, "big.sh")
    assert len(plan.invocations) == 500
    assert max(b for _, b in parsed) < 20 * 4096 and len(parsed) < 10, parsed
    # the pieces follow each other: each starts where the one before stopped keeping
    assert all(parsed[i + 1][0] <= parsed[i][1] for i in range(len(parsed) - 1))
    note = [p for p in plan.problems if p.code == "limit"]
    assert [(p.span.line, p.span.col) for p in note] == [(501, 1)], note


def test_a_statement_larger_than_the_cap_is_where_reading_stops(monkeypatch) -> None:
    monkeypatch.setattr(chunks, "CHUNK", 1024)
    monkeypatch.setattr(chunks, "MAX_STATEMENT", 8192)
    body = b"  echo hello\n" * 2000
    data = b"vllm serve a --port 1 &\nmain() {\n" + body + b"  vllm serve b\n}\nmain\n"
    plan = shell.parse_script(data, "fn.sh")
    assert [i.args[0].text for i in plan.invocations] == ["a"]
    (note,) = [p for p in plan.problems if p.code == "limit"]
    assert (note.span.line, note.span.col) == (2, 1) and "more than 8 KiB starts here" in note.message
    assert not [p for p in plan.problems if p.code in ("syntax", "missing")], plan.problems


def test_a_comment_longer_than_the_statement_cap_is_read_past(monkeypatch) -> None:
    """A piece cut inside a comment: the next starts at the comment's line end."""
    monkeypatch.setattr(chunks, "CHUNK", 1024)
    monkeypatch.setattr(chunks, "MAX_STATEMENT", 4096)
    data = b"vllm serve a &\n# " + b"z" * 20_000 + b"\nvllm serve m --port 1\n"
    plan = shell.parse_script(data, "c.sh")
    assert [(i.span.line, [w.text for w in i.args]) for i in plan.invocations] == [
        (1, ["a"]),
        (3, ["m", "--port", "1"]),
    ]
    assert plan.problems == ()
