"""Did-you-mean: the names nearest a misspelt one (difflib, with a cheap pre-filter).

The lint rules suggest with it, and the argv replay asks it how an unknown option
was most likely meant (`vcfg.launch.args.parser`)."""

from __future__ import annotations

from typing import Iterable


def did_you_mean(word: str, candidates: Iterable[str], n: int = 1, cutoff: float = 0.75) -> list[str]:
    import difflib  # only when a name is unknown (a clean launch never needs it)

    pool = sorted(set(candidates))
    return difflib.get_close_matches(word, _could_match(word, pool, cutoff), n=n, cutoff=cutoff)


def _could_match(word: str, pool: list[str], cutoff: float) -> list[str]:
    """The names of ``pool`` (in its order) that pass the two bounds
    `difflib.get_close_matches` tests before its costly ratio, computed the same way
    (``2.0 * matches / total`` of `SequenceMatcher.real_quick_ratio` and
    `quick_ratio`) but without a matcher per name: the lengths, then the characters in
    common.  A name that fails either cannot be among its answers, so the answers are
    the same; the ~600 variable names of a release then cost a few string counts each."""
    la = len(word)
    counts = [(ch, word.count(ch)) for ch in set(word)]
    out = []
    for x in pool:
        lx = len(x)
        total = la + lx
        if total:
            if 2.0 * (la if la < lx else lx) / total < cutoff:
                continue
            m = 0
            for ch, k in counts:
                c = x.count(ch)
                m += c if c < k else k
            if 2.0 * m / total < cutoff:
                continue
        out.append(x)
    return out
