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

    out = []
    for name in RULE_MODULES:
        operands = OPERANDS.get(name)
        if operands is not None:
            if not launches:
                continue
            from vcfg.lint.constraints import gives_any

            if not any(gives_any(lc, operands) for lc in launches):
                continue
        out.append(module(name))
    return out
