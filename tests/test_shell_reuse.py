"""A script read again after an edit with the last read resumed
(`vcfg.launch.shell_reuse`, what the language server does on each change) gives the
plan a read from scratch gives: edit after edit, on the language server's 200-line
fixture and on the corpus' real scripts, with the edits a user makes (a value, a
character in a comment, a line added or removed, a function's body changed)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from vcfg.launch.shell import parse_script
from vcfg.launch.shell_reuse import ShellMemo

ROOT = Path(__file__).resolve().parent
FIXTURE = ROOT / "fixtures" / "lsp" / "pd-2p2d-200.sh"


def check(path: str, texts: list[bytes]) -> list[tuple[object, ...]]:
    """Read each text with one memo and from scratch; the plans must be equal.  Returns
    how each read went (`ShellMemo.last`)."""
    memo = ShellMemo()
    parse_script(texts[0], path, reuse=memo)
    assert memo.last == ("fresh",)
    out = []
    for k, data in enumerate(texts[1:], 1):
        got = parse_script(data, path, reuse=memo)
        want = parse_script(data, path)
        assert got == want, (path, k, memo.last)
        out.append(memo.last)
    return out


def replace_line(text: str, needle: str, new: str) -> str:
    lines = text.split("\n")
    i = next(k for k, s in enumerate(lines) if needle in s)
    lines[i] = new(lines[i]) if callable(new) else new
    return "\n".join(lines)


def test_a_comment_typed_in_is_not_read_again():
    text = FIXTURE.read_text()
    steps = [text]
    for ch in "abc":  # typed one character at a time, in the notes before the proxy's loop
        steps.append(replace_line(steps[-1], "# note 7:", lambda s, ch=ch: s + ch))
    went = check(str(FIXTURE), [s.encode() for s in steps])
    # resumed after the launches, taken over at the loop after the comments
    assert all(w[0] == "resumed" and w[1] > 20 and w[3] == w[1] + 1 for w in went), went


def test_a_value_in_a_launch_reads_that_launch_only():
    text = FIXTURE.read_text()
    one = replace_line(text, "--port 20003", "  --port 20013 \\")
    two = replace_line(one, "--port 20013", "  --port 2001 \\")  # one character shorter
    three = replace_line(two, "--port 2001 ", "  --port 200199 \\")
    went = check(str(FIXTURE), [text.encode(), one.encode(), two.encode(), three.encode()])
    assert all(w[3] is not None and w[3] == w[1] + 1 for w in went), went
    plan = parse_script(three.encode(), str(FIXTURE))
    assert [w.text for w in plan.invocations[1].args if w.text and w.text.startswith("2001")] == ["200199"]


def test_a_function_body_changed_in_place_is_run_again():
    # the same length, so the positions after it do not move: the function's text
    # changed all the same, and its calls after the edit are run again
    text = FIXTURE.read_text()
    new = text.replace('log "server on port ${port} is up"', 'log "server on port ${PORT} is up"', 1)
    assert len(new) == len(text) and new != text
    went = check(str(FIXTURE), [text.encode(), new.encode()])
    assert went[0][3] is None
    body = b"f() {\n  vllm serve m --port 8000\n}\nx=1\nf\necho done\n"
    check("s.sh", [body, body.replace(b"8000", b"8001"), body.replace(b"8000", b"800"), body])


def test_lines_added_and_removed_resume_but_take_nothing_over():
    text = FIXTURE.read_text()
    added = replace_line(text, "# note 3:", lambda s: s + "\nexport VLLM_PORT=1")
    removed = "\n".join(x for x in added.split("\n") if "# note 9:" not in x)
    went = check(str(FIXTURE), [text.encode(), added.encode(), removed.encode(), text.encode()])
    assert [w[3] for w in went] == [None, None, None]
    assert all(w[1] > 20 for w in went), went


def test_a_sourced_file_is_read_from_the_disk_each_time(tmp_path):
    (tmp_path / ".git").mkdir()
    env = tmp_path / "env.sh"
    env.write_text("export PORT=8000\n")
    script = tmp_path / "run.sh"
    body = b"source ./env.sh\nvllm serve m --port $PORT\n# a note\necho done\n"
    script.write_bytes(body)
    memo = ShellMemo()
    parse_script(body, str(script), reuse=memo)
    env.write_text("export PORT=9000\n")
    new = body.replace(b"a note", b"a nota")
    got = parse_script(new, str(script), reuse=memo)
    assert memo.last == ("fresh",)  # nothing kept from a read that sourced a file
    assert got == parse_script(new, str(script))
    assert [w.text for w in got.invocations[0].args][-1] == "9000"


def corpus() -> list[Path]:
    files = sorted((ROOT / "corpus").rglob("*.sh"))
    return [f for f in files if f.stat().st_size < 64 * 1024]


@pytest.mark.parametrize("seed", [0, 1])
def test_random_edits_on_the_corpus(seed):
    rnd = random.Random(seed)
    files = corpus()
    assert len(files) > 50
    took_over = 0
    for f in rnd.sample(files, 30):
        data = f.read_bytes()
        texts = [data]
        lines = data.split(b"\n")
        for _ in range(5):
            i = rnd.randrange(len(lines))
            s = lines[i]
            kind = rnd.choice(["type", "type", "digits", "delete", "line", "comment"])
            if kind == "type":
                k = rnd.randrange(len(s) + 1)
                s = s[:k] + rnd.choice([b"x", b"1", b" ", b"'", b'"', b"$", b"\\", b"#", b"\xc3\xa9", b";"]) + s[k:]
            elif kind == "digits":
                s = bytes(rnd.randrange(48, 58) if 48 <= c <= 57 else c for c in s)
            elif kind == "delete" and s:
                k = rnd.randrange(len(s))
                s = s[:k] + s[k + 1 :]
            elif kind == "comment":
                s += b"  # checked"
            lines[i] = s
            if kind == "line":
                lines.insert(i, b"export VLLM_LOGGING_LEVEL=DEBUG")
            texts.append(b"\n".join(lines))
        went = check(str(f), texts)
        took_over += sum(1 for w in went if len(w) > 3 and w[3] is not None)
    assert took_over > 15  # the reuse is not vacuous


def test_a_read_the_memo_cannot_resume_is_read_from_scratch(monkeypatch):
    from vcfg.launch import shell_reuse

    text = FIXTURE.read_bytes()
    memo = ShellMemo()
    parse_script(text, str(FIXTURE), reuse=memo)

    def broken(self, j):  # type: ignore[no-untyped-def]
        raise KeyError("a bug in the reuse")

    monkeypatch.setattr(shell_reuse._Plan, "take_over", broken)
    new = text.replace(b"# note 7:", b"# note 7: x", 1)
    got = parse_script(new, str(FIXTURE), reuse=memo)
    assert got == parse_script(new, str(FIXTURE))
    assert not [p for p in got.problems if p.code == "internal"]
    assert memo.rec is None  # the next read starts from scratch


def test_the_tree_parsed_again_after_an_edit_is_the_tree_parsed_from_scratch():
    """tree-sitter's incremental parse (`shell_tree.parse_stopped(data, last)`): the
    same tree, node for node, after each random edit of corpus scripts; a text with a
    syntax error is parsed from scratch (the read budget applies as without reuse)."""
    from vcfg.launch import shell_tree

    rnd = random.Random(7)
    reused = scratch = 0
    for f in rnd.sample(corpus(), 25):
        data = f.read_bytes()
        last: list[object] = []
        shell_tree.parse_stopped(data, last)
        for _ in range(6):
            k = rnd.randrange(len(data) + 1)
            data = (
                data[:k] + rnd.choice([b"x", b"1", b" ", b"'", b"\n", b"fi\n", b"#", b"\xc3\xa9", b""]) + data[k + 1 :]
            )
            had = bool(last)
            tree, stop = shell_tree.parse_stopped(data, last)
            want, want_stop = shell_tree.parse_stopped(data)
            assert str(tree.root_node) == str(want.root_node) and stop == want_stop, (f, k)
            if had and not tree.root_node.has_error:
                reused += 1
                assert last and last[1] is tree
            else:
                scratch += 1
    assert reused > 50 and scratch > 5, (reused, scratch)


def test_stray_keywords_are_looked_for_on_the_lines_that_hold_a_keyword_only():
    """`shell_tree._stray_matches` (the pattern run on the lines a cheaper one finds)
    gives exactly the matches of the pattern run over the whole text, on the corpus'
    scripts, on keyword-dense made-up text and on random bytes, whole or from an
    offset inside a line."""
    from vcfg.launch import shell_tree

    rnd = random.Random(3)
    texts = [f.read_bytes() for f in corpus()]
    words = [
        b"fi",
        b"done",
        b"do",
        b"then",
        b"else",
        b"in",
        b"}",
        b"]]",
        b";",
        b"&",
        b" ",
        b"\t",
        b"\n",
        b"x",
        b"(",
        b"`",
    ]
    texts += [b"".join(rnd.choice(words) for _ in range(400)) for _ in range(40)]
    texts += [bytes(rnd.randrange(256) for _ in range(2000)) for _ in range(10)]
    found = 0
    for data in texts:
        for lo, hi in ((0, len(data)), (rnd.randrange(len(data) + 1), len(data)), (0, rnd.randrange(len(data) + 1))):
            want = [(m.span(), m.group(1)) for m in shell_tree._STRAY.finditer(data, lo, hi)]
            got = [(m.span(), m.group(1)) for m in shell_tree._stray_matches(data, lo, hi)]
            assert got == want, (data[:80], lo, hi)
            found += len(want)
    assert found > 1000


def test_a_script_that_types_into_tmux_panes_resumes_as_a_fresh_read():
    """The shell of a tmux pane keeps what keys typed into it exported; a read resumed
    after those keys (an edit further down) gives the launch the same environment."""
    text = (
        b'tmux send-keys -t s:0 "export CUDA_VISIBLE_DEVICES=1" C-m\n'
        b"echo between\n"
        b'tmux send-keys -t s:0 "vllm serve m --port 8001" C-m\n'
        b"echo end\n"
    )
    edited = text.replace(b"echo end", b"echo ended")
    check("panes.sh", [text, edited, edited.replace(b"8001", b"8002")])


def test_paths_of_arrays_and_pinned_case_subjects_survive_a_resumed_read():
    """`case "$ROLE"` branches appending to an array, an `if` on the same role after an
    edit: a resumed read forks the launch per path as a fresh read does."""
    text = (
        b'ROLE="$1"\nARGS=(-tp 2)\ncase "$ROLE" in\n  head) ARGS+=(--port 8000) ;;\n'
        b"  worker) ARGS+=(--headless) ;;\n  *) exit 1 ;;\nesac\necho x\n"
        b'if [ "$ROLE" = head ]; then vllm serve m "${ARGS[@]}"; else vllm serve m "${ARGS[@]}" -dp 2; fi\n'
    )
    edited = text.replace(b"echo x", b"echo y")
    check("roles.sh", [text, edited, edited.replace(b"-dp 2", b"-dp 4")])
