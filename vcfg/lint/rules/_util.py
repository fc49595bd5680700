"""Small helpers shared by rules: positions of names, suggestions, release history."""

from __future__ import annotations

import difflib
from typing import Any, Callable, Iterable, Optional

from vcfg.catalog.model import Catalog
from vcfg.diagnostics import Span
from vcfg.lint.context import FileContext, Target


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


def did_you_mean(word: str, candidates: Iterable[str], n: int = 1, cutoff: float = 0.75) -> list[str]:
    pool = sorted(set(candidates))
    return difflib.get_close_matches(word, pool, n=n, cutoff=cutoff)


def first_absent_since(target: Target, present: Callable[[Catalog], bool]) -> tuple[Optional[str], Optional[str]]:
    """(last release that had it, first release after that without it), both
    <= the target release; (None, None) if no bundled release up to the target had it."""
    from vcfg.catalog.store import version_key

    last = removed = None
    tk = version_key(target.version)
    for cat in target.history:
        if version_key(cat.vllm_version) > tk:
            break
        if present(cat):
            last, removed = cat.vllm_version, None
        elif last is not None and removed is None:
            removed = cat.vllm_version
    if last is not None and removed is None and version_key(last) < tk:
        removed = target.version
    return (last, removed) if removed else (None, None)


def first_present_after(target: Target, present: Callable[[Catalog], bool]) -> Optional[str]:
    """The first bundled release newer than the target that has it."""
    from vcfg.catalog.store import version_key

    tk = version_key(target.version)
    for cat in target.history:
        if version_key(cat.vllm_version) > tk and present(cat):
            return cat.vllm_version
    return None
