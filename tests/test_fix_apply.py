"""Applying fixes (vcfg/fix/apply.py): offsets, overlap, refusal on changed text."""

from __future__ import annotations

from vcfg.edits import Edit, Fix
from vcfg.fix.apply import choose, splice

TEXT = "vllm serve m --trust-remote-code=true --kv-transfer-config '{\u201ca\u201d:1}'\n".encode()


def at(sub: str, content: str, path: str = "f.sh", nth: int = 0) -> Edit:
    """An edit replacing the ``nth`` occurrence of ``sub`` in TEXT."""
    raw = sub.encode()
    i = -1
    for _ in range(nth + 1):
        i = TEXT.index(raw, i + 1)
    col = len(TEXT[:i].decode()) + 1
    return Edit(path, i, i + len(raw), content, sub, 1, col, 1, col + len(sub))


def test_edits_apply_at_byte_offsets_past_multibyte_characters():
    fx = Fix((at("\u201c", '"'), at("\u201d", '"')), "safe", "quotes")
    out = choose([fx], TEXT, "f.sh")
    assert out.applied == [fx] and not out.deferred and not out.refused
    assert out.data == TEXT.replace("\u201c".encode(), b'"').replace("\u201d".encode(), b'"')


def test_overlapping_fix_is_deferred_and_the_earlier_one_wins():
    first = Fix((at("--trust-remote-code=true", "--trust-remote-code"),), "safe", "a")
    second = Fix((at("=true", ""),), "safe", "b")
    out = choose([second, first], TEXT, "f.sh")
    assert out.applied == [first] and out.deferred == [second]
    assert b"--trust-remote-code --kv" in out.data


def test_two_insertions_at_one_offset_conflict():
    i = TEXT.index(b"--kv")
    a = Edit("f.sh", i, i, "--x ", "", 1, i + 1, 1, i + 1)
    b = Edit("f.sh", i, i, "--y ", "", 1, i + 1, 1, i + 1)
    out = choose([Fix((a,)), Fix((b,))], TEXT, "f.sh")
    assert len(out.applied) == 1 and len(out.deferred) == 1


def test_fix_whose_original_text_is_not_there_is_refused():
    stale = Fix((Edit("f.sh", 0, 4, "python", "vlm!", 1, 1, 1, 5),), "safe", "stale")
    out = choose([stale], TEXT, "f.sh")
    assert out.data == TEXT and out.applied == []
    assert len(out.refused) == 1 and "no longer holds 'vlm!'" in out.refused[0][1]


def test_fix_with_self_overlapping_edits_or_outside_the_file_is_refused():
    bad = Fix((at("serve", "x"), at("serve m", "y")), "safe", "bad")
    outside = Fix((Edit("f.sh", len(TEXT), len(TEXT) + 3, "", "abc", 2, 1, 2, 4),), "safe", "outside")
    out = choose([bad, outside], TEXT, "f.sh")
    assert out.data == TEXT and [w for _, w in out.refused] == [
        "its edits at 1:6 and 1:6 overlap",
        "the edit at 2:1 lies outside the file",
    ]


def test_the_same_fix_offered_twice_applies_once():
    fx = Fix((at("=true", ""),), "safe", "a")
    out = choose([fx, Fix((at("=true", ""),), "safe", "a")], TEXT, "f.sh")
    assert out.applied == [fx] and not out.deferred
    assert out.data.count(b"=true") == 0


def test_splice_keeps_everything_outside_the_edits():
    assert (
        splice(b"abcdef", [Edit("f", 4, 5, "E", "e", 1, 5, 1, 6), Edit("f", 1, 1, "+", "", 1, 2, 1, 2)]) == b"a+bcdEf"
    )
