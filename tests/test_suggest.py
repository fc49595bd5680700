"""Did-you-mean gives what difflib's `get_close_matches` gives on the same pool (sorted,
without duplicates), while computing the costly ratio for fewer names."""

from __future__ import annotations

import difflib
import os
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from vcfg.catalog.store import load
from vcfg.suggest import did_you_mean

EXAMPLES = int(os.environ.get("VCFG_FUZZ_EXAMPLES", "300"))


def _difflib(word: str, pool: list[str], n: int, cutoff: float) -> list[str]:
    return difflib.get_close_matches(word, sorted(set(pool)), n=n, cutoff=cutoff)


#: a small alphabet, so that names share characters, tie in ratio and in bound
_names = st.text(alphabet="abc-_", max_size=8)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    word=_names,
    pool=st.lists(_names, max_size=30),
    n=st.integers(min_value=1, max_value=4),
    cutoff=st.sampled_from([0.0, 0.5, 0.6, 0.75, 0.9, 1.0]),
)
def test_the_same_answers_as_difflib(word: str, pool: list[str], n: int, cutoff: float) -> None:
    assert did_you_mean(word, pool, n=n, cutoff=cutoff) == _difflib(word, pool, n, cutoff)


def _misspelt(name: str, rng: random.Random) -> str:
    """One to three edits: a letter dropped, doubled, swapped with the next or replaced."""
    s = list(name)
    for _ in range(rng.randint(1, 3)):
        if not s:
            break
        i = rng.randrange(len(s))
        edit = rng.choice("drop double swap replace".split())
        if edit == "drop":
            del s[i]
        elif edit == "double":
            s.insert(i, s[i])
        elif edit == "swap" and i + 1 < len(s):
            s[i], s[i + 1] = s[i + 1], s[i]
        else:
            s[i] = rng.choice("abcdefghijklmnopqrstuvwxyz_-")
    return "".join(s)


def test_misspelt_options_and_variables_of_a_real_release() -> None:
    """The pools the rules ask about: 0.33.0's long options and its variables, each
    name misspelt a few ways, with the rules' cutoff and n."""
    cat, _ = load("0.33.0")
    pools = {"options": sorted(cat.long_options()), "variables": sorted(v.name for v in cat.env_vars)}
    assert len(pools["options"]) > 300 and len(pools["variables"]) > 100
    rng = random.Random(20261204)
    checked = 0
    for pool in pools.values():
        for name in rng.sample(pool, 60):
            word = _misspelt(name, rng)
            for n in (1, 3):
                assert did_you_mean(word, pool, n=n) == _difflib(word, pool, n, 0.75), (word, n)
                checked += 1
    assert checked == 240
