"""Which rule modules a lint runs: every listed one (`vcfg.lint.registry`) but those
the generated index (`vcfg.lint.rule_index`) says cannot report on any of the run's
launches, which are not even imported.

A module the index names is a bare cross-option constraint (VC201-VC245 have 23): it
is left out when no launch gives one of its operands with a known value
(`vcfg.lint.constraints.gives_any`), since the entry then reads only its release's
defaults, on which tests/test_rule_index.py checks that it is silent for every bundled
release.  The seed script's cold lint leaves 20 of the 23 out (docs/performance.md).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Sequence

from vcfg.lint.registry import RULE_MODULES, module, rule_modules

#: tests switch the index off to compare (tests/test_rule_index.py)
USE_INDEX = True


def modules_for(launches: Sequence[Any]) -> list[ModuleType]:
    """The rule modules a lint of ``launches`` (its `LaunchContext`s, argv resolved)
    runs, in `RULE_MODULES` order."""
    if not USE_INDEX:
        return list(rule_modules())
    from vcfg.lint.rule_index import OPERANDS

    wanted: set[str] = set()
    for lc in launches:
        wanted |= _indexed_for(lc, OPERANDS)
    return [module(name) for name in RULE_MODULES if name not in OPERANDS or name in wanted]


def _indexed_for(lc: Any, operands: dict[str, Any]) -> frozenset[str]:
    """The indexed modules that could report on ``lc`` (`gives_any`), once per launch
    (kept in its memo: the language server gives it to an equal launch of the next
    lint, `vcfg.lint.rule_reuse`)."""
    hit = lc.memo.get("rule_select")
    if hit is None:
        from vcfg.lint.constraints import gives_any

        hit = lc.memo["rule_select"] = frozenset(n for n, ops in operands.items() if gives_any(lc, ops))
    return hit  # type: ignore[no-any-return]
