"""VC106 pythonpath-not-paths: PYTHONPATH holding something that is not directories."""

from __future__ import annotations

import re
from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._env import script_bindings

RULE = Rule(
    code="VC106",
    name="pythonpath-not-paths",
    summary="PYTHONPATH set to something that is not a list of directories",
    severity="warning",
    why=(
        "PYTHONPATH is a ':'-separated list of directories Python searches for modules. "
        "A value like `1` or `true` (a flag, not a path) adds a relative directory of that "
        "name; it is almost always a mistake, often meant to clear the variable."
    ),
    when_vllm_fails="never: Python silently searches a directory that does not exist",
    example="export PYTHONPATH=1\nvllm serve m\n",
    use_instead="unset PYTHONPATH\nvllm serve m\n",
)

_NOT_A_DIR = re.compile(r"^(\d+|true|false|yes|no|on|off|none|null)$", re.IGNORECASE)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if lc.inv.kind != "serve":
        return
    for b in script_bindings(lc):
        if b.name != "PYTHONPATH" or b.value is None or b.value.text is None:
            continue
        bad = [e for e in b.value.text.split(":") if _NOT_A_DIR.match(e)]
        if bad:
            yield RULE.diag(
                b.value.span.for_finding(lc.path),
                f"PYTHONPATH={b.value.text} is not a list of directories",
                help="PYTHONPATH lists directories separated by ':'; `unset PYTHONPATH` clears it",
            )
