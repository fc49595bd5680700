"""Did-you-mean: the names nearest a misspelt one (difflib, with a cheap pre-filter).

The lint rules suggest with it, and the argv replay asks it how an unknown option
was most likely meant (`vcfg.launch.args.parser`)."""

from __future__ import annotations

from typing import Iterable


def did_you_mean(word: str, candidates: Iterable[str], n: int = 1, cutoff: float = 0.75) -> list[str]:
    """What ``difflib.get_close_matches(word, sorted(set(candidates)), n, cutoff)``
    answers, computing the costly ratio for fewer names: the names in the order of an
    upper bound of their ratio (`quick_ratio`), stopping once that bound is below the
    n-th best ratio found (no name after it can enter the answer, ties included)."""
    import difflib  # only when a name is unknown (a clean launch never needs it)
    import heapq

    bounded = _could_match(word, sorted(set(candidates)), cutoff)
    bounded.sort(key=lambda bx: bx[0], reverse=True)
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    found: list[tuple[float, str]] = []
    floor = -1.0  # the n-th best ratio so far, once there are n
    for bound, x in bounded:
        if bound < floor:
            break
        matcher.set_seq1(x)
        score = matcher.ratio()
        if score >= cutoff:
            found.append((score, x))
            if len(found) >= n:
                floor = heapq.nlargest(n, found)[-1][0]
    return [x for _score, x in heapq.nlargest(n, found)]


def _could_match(word: str, pool: list[str], cutoff: float) -> list[tuple[float, str]]:
    """The names of ``pool`` (in its order) that pass the two bounds
    `difflib.get_close_matches` tests before its costly ratio, computed the same way
    (``2.0 * matches / total`` of `SequenceMatcher.real_quick_ratio` and
    `quick_ratio`) but without a matcher per name: the lengths, then the characters in
    common; each with the second bound (which the ratio never exceeds: the characters
    of its matching blocks are characters in common).  A name that fails either cannot
    be among the answers; the ~600 variable names of a release then cost a few string
    counts each."""
    la = len(word)
    counts = [(ch, word.count(ch)) for ch in set(word)]
    out = []
    for x in pool:
        lx = len(x)
        total = la + lx
        bound = 1.0
        if total:
            if 2.0 * (la if la < lx else lx) / total < cutoff:
                continue
            m = 0
            for ch, k in counts:
                c = x.count(ch)
                m += c if c < k else k
            bound = 2.0 * m / total
            if bound < cutoff:
                continue
        out.append((bound, x))
    return out
