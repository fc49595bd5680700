"""VC107 plugin-env-unset: a variable a plugin connector needs is unset before the
launch that uses it."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.constraints import script_binding
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _kv
from vcfg.lint.rules._env import is_serve
from vcfg.lint.rules._util import name_span

RULE = Rule(
    code="VC107",
    name="plugin-env-unset",
    summary="a variable a plugin connector needs is unset before the launch that uses it",
    severity="error",
    why=(
        "A connector from a plugin can depend on environment variables vLLM itself never "
        "reads: FlagCXConnector (vllm-plugin-FL) finds FlagCX's Python wrapper and library "
        "through FLAGCX_PATH or FLAGCX_LIB_PATH. A script that unsets them (often a "
        "clean-up line copied from another setup) and sets none of them again starts an "
        "instance whose connector cannot load. The variables each connector needs come from "
        "the knowledge packs."
    ),
    when_vllm_fails="when the connector is imported or its workers start, after the engine config is built",
    example=(
        "unset FLAGCX_PATH FLAGCX_LIB_PATH\n"
        "vllm serve Qwen/Qwen3-8B --kv-transfer-config \\\n"
        '  \'{"kv_connector":"FlagCXConnector","kv_role":"kv_producer"}\'\n'
    ),
    use_instead=(
        "export FLAGCX_PATH=/opt/FlagCX\n"
        "vllm serve Qwen/Qwen3-8B --kv-transfer-config \\\n"
        '  \'{"kv_connector":"FlagCXConnector","kv_role":"kv_producer"}\'\n'
    ),
)


def _names(names: list[str]) -> str:
    return " or ".join(f"`{n}`" for n in names)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc):
        return
    for k in _kv.kv_all(lc):
        cf = _kv.facts(lc, k.name)
        if cf is None:
            continue
        for group in cf.env_any_of:
            binds = [script_binding(lc, n) for n in group]
            if any(b is not None and b.exported and not b.unset for b in binds):
                continue
            unset = [b for b in binds if b is not None and b.unset]
            if not unset:
                continue
            spots = {x.name: name_span(lc.file, x.span, x.name) for x in unset}
            b = max(unset, key=lambda x: (spots[x.name].line, spots[x.name].col))
            rest = [n for n in group if n != b.name]
            if len(unset) == len(group):
                message = f"`{b.name}` is unset here, and {k.name} needs {_names(group)} at launch"
            else:
                message = (
                    f"`{b.name}` is unset here and the script sets none of {_names(rest)}; "
                    f"{k.name} needs one of them at launch"
                )
            yield RULE.diag(
                spots[b.name],
                message,
                help=f"export {_names(group)} before the launch at line {lc.inv.span.line}",
                notes=(cf.note,) if cf.note else (),
            )
        # a VLLM_PLUGINS list that leaves the plugin out is VC027's: the connector is
        # then not registered at all
