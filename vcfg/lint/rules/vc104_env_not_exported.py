"""VC104 env-not-exported: a plain assignment the launched vLLM never sees."""

from __future__ import annotations

import re
from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._env import is_serve, vllm_reads
from vcfg.lint.rules._util import name_span

RULE = Rule(
    code="VC104",
    name="env-not-exported",
    summary="a variable assigned without export, so vLLM does not see it",
    severity="warning",
    why=(
        "`NAME=value` on a line of its own sets a shell variable; only exported "
        "variables reach the programs the script starts. vLLM then runs with its default "
        "and nothing says so."
    ),
    when_vllm_fails="never: the default applies silently",
    example="VLLM_NIXL_SIDE_CHANNEL_PORT=5601\nvllm serve m\n",
    use_instead="export VLLM_NIXL_SIDE_CHANNEL_PORT=5601\nvllm serve m\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc) or not lc.inv.inherits_env:
        return  # a container does not see the script's variables, exported or not
    for b in lc.inv.env.values():
        if b.source != "script" or b.exported or b.unset or not vllm_reads(lc, b.name):
            continue
        if _on_the_command_line(lc, b.name) or _in_the_arguments(lc, b.value):
            continue  # the script's own variable: `VLLM_PORT=$PORT; vllm serve m --port "$VLLM_PORT"`
        yield RULE.diag(
            name_span(lc.file, b.span, b.name),
            f"`{b.name}` is set but not exported: vllm does not see it",
            help=f"use `export {b.name}=...`, or put it before the command as a prefix",
        )


def _on_the_command_line(lc: LaunchContext, name: str) -> bool:
    """The launch's command, as written, expands ``$name``: the script uses the variable
    as its own (exporting it would also give vLLM a value it reads for another purpose)."""
    sp = lc.inv.span
    if sp.file not in ("", lc.path) or not 0 <= sp.start <= sp.end <= len(lc.file.text):
        return False
    return re.search(r"\$\{?" + re.escape(name) + r"(?![A-Za-z0-9_])", lc.file.text[sp.start : sp.end]) is not None


def _in_the_arguments(lc: LaunchContext, value: Any) -> bool:
    """The variable's value is in the launch's arguments, from where it was written
    (``ARGS=(--host "$VLLM_HOST")``): the script passes it as an option."""
    if value is None or not value.runs:
        return False
    mine = {r.span for r in value.runs}
    return any(r.span in mine for w in lc.inv.args for r in w.runs)
