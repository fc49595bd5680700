"""A lint after an edit inside a comment line is the last lint moved
(`vcfg.lint.comment_reuse`): edit after edit, it must equal a lint from scratch of the
same text, findings, fixes and summary, on the language server's fixture and on the
corpus' scripts.  The edits: characters typed into and deleted from comments before
and after the launches, multi-byte characters, a value typed in a launch and a line
added between them (the read then catches up), and the comments that are read after
all (a suppression, a pin, a trailing backslash, the #! line, a line joined or split),
which must be linted in full."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import pytest

from vcfg.launch.shell import parse_script
from vcfg.launch.shell_tree import parse_tree
from vcfg.lint.comment_reuse import edit_in_comment
from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_text, make_target
from vcfg.lint.rule_reuse import Reuse
from vcfg.records import dump

ROOT = Path(__file__).resolve().parent
FIXTURE = ROOT / "fixtures" / "lsp" / "pd-2p2d-200.sh"
CORPUS = sorted(p for p in (ROOT / "corpus").rglob("*.sh") if p.stat().st_size < 24_000)


@pytest.fixture(scope="module")
def target() -> Any:
    return make_target("0.13.0", LintConfig())


def same(got: Any, want: Any) -> bool:
    return (
        dump(got.diagnostics) == dump(want.diagnostics)
        and dump(got.summary) == dump(want.summary)
        and got.sources == want.sources
        and got.internal_errors == want.internal_errors
    )


class Doc:
    """One document linted with a `Reuse` after each edit, checked against a lint from
    scratch."""

    def __init__(self, path: str, data: bytes, target: Any) -> None:
        self.path, self.data, self.target, self.reuse = path, data, target, Reuse()
        self.lint(data)

    def lint(self, data: bytes) -> bool:
        """Lint ``data``; whether it was taken from the last lint."""
        before = self.reuse.comments.taken
        got = lint_text(self.path, data, self.target, reuse=self.reuse)
        want = lint_text(self.path, data, self.target)
        assert same(got, want), (self.path, data)
        self.data = data
        return self.reuse.comments.taken > before


def comments(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each top-level comment on a line of its own, after line 1."""
    out = []
    for c in parse_tree(data).root_node.children:
        ls = data.rfind(b"\n", 0, c.start_byte) + 1
        if c.type == "comment" and ls > 0 and not data[ls : c.start_byte].strip():
            out.append((c.start_byte, c.end_byte))
    return out


def put(data: bytes, at: int, cut: int, new: bytes) -> bytes:
    return data[:at] + new + data[at + cut :]


def last_word_end(data: bytes, path: str) -> Optional[int]:
    plan = parse_script(data, path)
    for inv in reversed(plan.invocations):
        for w in reversed(inv.args):
            if w.span.start >= 0 and w.span.file == path and w.span.line == w.span.end_line:
                return int(w.span.end)
    return None


def walk(doc: Doc) -> list[bool]:
    """The edits of the module docstring; which were taken from the last lint."""
    taken = []
    cs = comments(doc.data)
    if not cs:
        return taken
    first, last = cs[0], cs[-1]
    taken.append(doc.lint(put(doc.data, last[1], 0, b" typed")))
    taken.append(doc.lint(put(doc.data, first[0] + 1, 0, " é😀 ".encode())))
    taken.append(doc.lint(put(doc.data, comments(doc.data)[-1][1] - 1, 1, b"")))
    end = last_word_end(doc.data, doc.path)
    if end is not None:  # a value typed at the end of the last launch's last word
        doc.lint(put(doc.data, end, 0, b"1"))
        taken.append(doc.lint(put(doc.data, comments(doc.data)[0][1], 0, b" more")))
    c = comments(doc.data)[-1]
    doc.lint(put(doc.data, c[1], 0, b"\nexport VLLM_LOGGING_LEVEL=DEBUG"))  # a line added
    c = comments(doc.data)[0]
    taken.append(doc.lint(put(doc.data, c[1], 0, b"x")))
    assert not doc.lint(put(doc.data, c[1], 0, b" vcfg: disable=all"))
    c = comments(doc.data)[0]
    assert not doc.lint(put(doc.data, c[1], 0, b" pip install vllm==0.10.2"))
    c = comments(doc.data)[-1]
    assert not doc.lint(put(doc.data, c[1], 0, b" \\"))
    c = comments(doc.data)[-1]
    assert not doc.lint(put(doc.data, c[1], 0, b"\n# split"))  # a line typed in
    c = comments(doc.data)[-1]
    assert not doc.lint(put(doc.data, c[1], 1, b""))  # joined with the next line
    return taken


def test_the_fixture_edit_by_edit(target):
    data = FIXTURE.read_bytes()
    doc = Doc(str(FIXTURE), data, target)
    assert all(walk(doc))
    # a comment before the launches: every finding after it moves
    doc = Doc(str(FIXTURE), data.replace(b"--max-num-seqs 256", b"--max-num-seqz 256"), target)
    head = comments(doc.data)[0]
    for k in range(4):
        assert doc.lint(put(doc.data, head[1], 0, "é😀x "[k].encode()))
        head = comments(doc.data)[0]
    got = lint_text(doc.path, doc.data, target, reuse=doc.reuse)
    assert {d.code for d in got.diagnostics} >= {"VC001"}
    assert not doc.lint(put(doc.data, 0, 2, b"#!/bin/zsh\n#"))  # the #! line
    # a variable a later launch reads, after comment edits on both sides of it
    for k in (0, -1):
        assert doc.lint(put(doc.data, comments(doc.data)[k][1], 0, b" w"))
    assert not doc.lint(doc.data.replace(b"PROXY_PORT=30001", b"PROXY_PORT=30002", 1))
    assert doc.reuse.shell.last[0] == "resumed"


def test_the_read_catches_up_with_the_comments_changed_since():
    """`ShellMemo.absorb`: the next read moves the last one by every comment changed
    since (one move), and resumes it: the plan a read from scratch gives."""
    from vcfg.launch.shell_reuse import ShellMemo

    data = FIXTURE.read_bytes()
    memo = ShellMemo()
    parse_script(data, str(FIXTURE), reuse=memo)
    kids = parse_tree(data).root_node.children
    now = data
    for k in (1, 3, len(kids) - 10):  # comments before, between and after the launches
        while kids[k].type != "comment":
            k += 1
        at = kids[k].end_byte + len(now) - len(data)
        now = put(now, at, 0, "é😀".encode())
        memo.absorb(k, len("é😀".encode()), now)
    new = now.replace(b"--seed 1024", b"--seed 1025", 1)
    assert parse_script(new, str(FIXTURE), reuse=memo) == parse_script(new, str(FIXTURE))
    assert memo.last[0] == "resumed" and memo.last[3] is not None, memo.last


def _sweep() -> list[Any]:
    """Every corpus script: every 20th in the default suite (ten, 1 s), all of
    them in the slow one (about 30 s)."""
    return [
        pytest.param(p, id=str(p.relative_to(ROOT / "corpus")), marks=() if i % 20 == 10 else pytest.mark.slow)
        for i, p in enumerate(CORPUS)
    ]


@pytest.mark.parametrize("path", _sweep())
def test_corpus_scripts_edit_by_edit(path, target):
    walk(Doc(str(path), path.read_bytes(), target))


def test_edits_that_are_not_inside_one_comment_line():
    data = b"#!/bin/bash\n# one\nvllm serve m --port 8000  # after\n  # two\n"
    sigs = [(c.type, c.start_byte, c.end_byte) for c in parse_tree(data).root_node.children]
    assert edit_in_comment(data, data.replace(b"# one", b"# onex"), sigs) is not None
    assert edit_in_comment(data, data.replace(b"# two", b"# t wo"), sigs) is not None
    assert edit_in_comment(data, data.replace(b"# after", b"# afterx"), sigs) is None  # after a command
    assert edit_in_comment(data, data.replace(b"# one", b"x one"), sigs) is None  # the '#' itself
    assert edit_in_comment(data, data.replace(b"bash", b"bashx"), sigs) is None  # the #! line
    assert edit_in_comment(data, data.replace(b"8000", b"8001"), sigs) is None
    assert edit_in_comment(data, data.replace(b"# one", b"# one\r"), sigs) is None
    assert edit_in_comment(data, data.replace(b"# one", b"# o\xffne"), sigs) is None  # not UTF-8


def test_the_disk_is_asked_again(tmp_path, target):
    """What a full lint reads from the disk after a comment edit too: a model's
    config.json that appeared (the model rules), a script beside this one that starts
    it (the deployment's members)."""
    script = tmp_path / "serve.sh"
    data = b"#!/bin/bash\n# one\nvllm serve ./models/m -tp 6 --port 8000\n# two\n"
    script.write_bytes(data)
    doc = Doc(str(script), data, target)
    assert doc.lint(put(doc.data, comments(doc.data)[-1][1], 0, b"x"))
    (tmp_path / "models" / "m").mkdir(parents=True)
    config = ROOT / "corpus" / "seeded" / "models" / "llama-70b" / "config.json"
    (tmp_path / "models" / "m" / "config.json").write_bytes(config.read_bytes())
    assert not doc.lint(put(doc.data, comments(doc.data)[-1][1], 0, b"y"))  # VC204 now
    assert "VC204" in {d.code for d in lint_text(doc.path, doc.data, target).diagnostics}
    assert doc.lint(put(doc.data, comments(doc.data)[-1][1], 0, b"z"))
    (tmp_path / "start.sh").write_bytes(b"#!/bin/bash\nbash serve.sh &\nvllm serve m --port 8000\n")
    # now a member of start.sh's deployment: linted in full (and equal to a lint from scratch)
    assert not doc.lint(put(doc.data, comments(doc.data)[0][1], 0, b"w"))
    assert not doc.lint(put(doc.data, comments(doc.data)[0][1], 0, b"v"))


def test_a_script_with_a_syntax_error_is_linted_in_full(target):
    # tree-sitter's error recovery weighs the bytes it skips: a comment's length may
    # change what the error covers
    data = b"#!/bin/bash\n# one\nif [ -n x ]; then\n  vllm serve m --port 8000 )\n# two\n"
    doc = Doc("/tmp/vcfg-comment-reuse-syntax.sh", data, target)
    assert not doc.lint(put(doc.data, comments(doc.data)[0][1], 0, b"x"))
