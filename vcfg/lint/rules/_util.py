"""Small helpers shared by rules: positions of names, suggestions, release history."""

from __future__ import annotations

from typing import Any, Callable, Optional

from vcfg.catalog.model import Catalog
from vcfg.diagnostics import Span
from vcfg.lint.context import FileContext, Target
from vcfg.suggest import did_you_mean

__all__ = ["did_you_mean"]  # the rules import it from here


def name_span(fc: FileContext, span: Any, name: str) -> Span:
    """The span of ``name`` written at or after ``span``'s start (e.g. the variable
    name inside ``export NAME=value``); the whole span if it cannot be found."""
    lines = fc.lines
    if 1 <= span.line <= len(lines):
        line = lines[span.line - 1]
        i = line.find(name, max(0, span.col - 1))
        if i >= 0:
            return Span.at(fc.path, span.line, i + 1, span.line, i + 1 + len(name))
    return span.for_finding(fc.path)


#: (target release, the history index) -> (that index; how many bundled releases,
#: oldest first, are at or before the release; whether the last of those is the
#: release itself): the history's release order is bundled data, so this is computed
#: once per release, not per name asked about
_UPTO: dict[tuple[str, int], tuple[Any, int, bool]] = {}


def _upto(target: Target) -> tuple[int, bool]:
    hist = target.history
    index = hist[0]._index if hist else None
    key = (target.version, id(index))
    hit = _UPTO.get(key)
    if hit is None or hit[0] is not index:  # the index object itself checked on a hit
        from vcfg.catalog.store import version_key

        tk = version_key(target.version)
        j = 0
        while j < len(hist) and not version_key(hist[j].vllm_version) > tk:
            j += 1
        hit = _UPTO[key] = (index, j, j > 0 and not version_key(hist[j - 1].vllm_version) < tk)
    return hit[1], hit[2]


def first_absent_since(target: Target, present: Callable[[Catalog], bool]) -> tuple[Optional[str], Optional[str]]:
    """(last release that had it, first release after that without it), both
    <= the target release; (None, None) if no bundled release up to the target had it."""
    hist = target.history
    j, at_target = _upto(target)
    last = -1
    for k in range(j - 1, -1, -1):  # the newest release that had it
        if present(hist[k]):
            last = k
            break
    return _absent(target, hist, last, j, at_target)


def _absent(target: Target, hist: list[Any], last: int, j: int, at_target: bool) -> tuple[Optional[str], Optional[str]]:
    if last < 0:
        return None, None
    if last < j - 1:
        return hist[last].vllm_version, hist[last + 1].vllm_version
    if at_target:  # the target has it
        return None, None
    return hist[last].vllm_version, target.version


def name_absent_since(target: Target, kind: str, name: str) -> tuple[Optional[str], Optional[str]]:
    """`first_absent_since` for a name of one kind of the history index (``flag``,
    ``env``, ``connector``, ...; vcfg/catalog/history.py): read from the name's
    presence string, without a lookup per release."""
    hist = target.history
    if not hist:
        return None, None
    mask = hist[0]._index[kind].get(name)
    if mask is None:
        return None, None
    j, at_target = _upto(target)
    return _absent(target, hist, mask.rfind("1", 0, j), j, at_target)


def name_present_after(target: Target, kind: str, name: str) -> Optional[str]:
    """`first_present_after` for a name of the history index (see `name_absent_since`)."""
    hist = target.history
    if not hist:
        return None
    mask = hist[0]._index[kind].get(name)
    if mask is None:
        return None
    k = mask.find("1", _upto(target)[0])
    return hist[k].vllm_version if k >= 0 else None


def first_present_after(target: Target, present: Callable[[Catalog], bool]) -> Optional[str]:
    """The first bundled release newer than the target that has it."""
    hist = target.history
    for k in range(_upto(target)[0], len(hist)):
        if present(hist[k]):
            return hist[k].vllm_version
    return None
