"""vcfg.regex.lazy: a pattern compiled when first used, answering as re.compile's."""

from __future__ import annotations

import re

from vcfg.regex import lazy


def test_lazy_pattern_answers_as_the_compiled_one() -> None:
    text = "--prefill-host 10.0.0.1 --decode-port 8200 --Decode-port 1"
    eager = re.compile(r"--(prefill|decode)-(host|port)", re.I)
    p = lazy(r"--(prefill|decode)-(host|port)", re.I)
    assert (
        [m.span() for m in p.finditer(text)]
        == [m.span() for m in eager.finditer(text)]
        == [
            (0, 14),
            (24, 37),
            (43, 56),
        ]
    )
    assert p.match(text).group(1) == "prefill"  # type: ignore[union-attr]
    assert p.search(text, 1).group(0) == "--decode-port"  # type: ignore[union-attr]
    assert p.fullmatch("--decode-host") is not None and p.fullmatch("--decode-hosts") is None
    assert p.sub("X", text) == eager.sub("X", text)
    assert p.split(text) == eager.split(text)
    assert p.findall(text) == [("prefill", "host"), ("decode", "port"), ("Decode", "port")]
    assert (p.pattern, p.flags, p.groups) == (eager.pattern, eager.flags, eager.groups)


def test_lazy_pattern_compiles_on_first_use_only() -> None:
    p = lazy(rb"[A-Za-z_][A-Za-z0-9_]*")
    assert "compiled" not in vars(p)  # nothing compiled at definition
    assert p.match(b"VLLM_PORT=1").group() == b"VLLM_PORT"  # type: ignore[union-attr]
    compiled = vars(p)["compiled"]
    assert isinstance(compiled, re.Pattern)
    # later uses are the compiled pattern's own bound methods
    assert vars(p)["match"].__self__ is compiled and p.match(b"9x") is None


def test_a_bad_pattern_fails_when_used() -> None:
    p = lazy(r"(unclosed")
    try:
        p.match("x")
    except re.error:
        pass
    else:
        raise AssertionError("re.error expected")
