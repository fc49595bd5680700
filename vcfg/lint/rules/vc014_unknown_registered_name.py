"""VC014 unknown-registered-name: a name vLLM's registry, Literal or enum for the
option does not hold (argparse took it as any string)."""

from __future__ import annotations

from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import parsed, span
from vcfg.lint.rules._util import did_you_mean

RULE = Rule(
    code="VC014",
    name="unknown-registered-name",
    summary="a parser, quantization method, attention backend or KV cache dtype vLLM does not have",
    severity="error",
    why=(
        "Options such as --reasoning-parser, --tool-call-parser, --quantization, "
        "--attention-backend and (from 0.33) --kv-cache-dtype take any string at parse "
        "time; vLLM looks the name up later in a registry, a Literal or an enum and "
        "stops when it is not there. vcfg reads those names from each release's source "
        "(the catalog's value sets, each with file:line). A --tool-parser-plugin or "
        "--reasoning-parser-plugin may add names, so vcfg stays silent when one is given, "
        "and for the names a known plugin registers (vllm-ascend's `ascend` quantization)."
    ),
    when_vllm_fails=(
        "parsers: at start-up, before the engine is built; the others when the engine "
        "config is built (the message names the stage and the check in vLLM's source)"
    ),
    example="vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice --tool-call-parser hermess\n",
    use_instead="vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice --tool-call-parser hermes\n",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    pa = parsed(lc)
    if pa is None or not lc.catalog.value_sets:
        return
    for vs in lc.catalog.value_sets:
        ov = option(lc, vs.dest).ov
        if ov is None or not ov.known or not isinstance(ov.value, str) or not ov.value:
            continue
        if any(_given(lc, d) for d in vs.plugins):
            continue
        if vs.when is not None:
            on = option(lc, vs.when).value
            if on is not True:
                continue
        if _accepted(vs, ov.value) or _plugin_name(lc, vs.dest, ov.value):
            continue
        near = did_you_mean(ov.value, vs.values, cutoff=0.6) or (
            did_you_mean(ov.value.upper(), vs.values, cutoff=0.6) if vs.case_insensitive else []
        )
        shown = ", ".join(vs.values[:20]) + (", ..." if len(vs.values) > 20 else "")
        help = (f"did you mean `{near[0]}`? " if near else "") + f"vllm {lc.target.version} has: {shown}"
        yield RULE.diag(
            span(lc, ov.value_span or ov.span),
            f"`{ov.value}` is not one of vllm's {vs.name} for `{ov.written_name}`; vllm stops {vs.stage} ({vs.check})",
            help=help,
            notes=(f"the names are defined at {vs.loc}",),
        )


def _given(lc: LaunchContext, dest: str) -> bool:
    ov = option(lc, dest).ov
    return ov is not None and (not ov.known or bool(ov.value))


def _plugin_name(lc: LaunchContext, dest: str, value: str) -> bool:
    """A name a known out-of-tree plugin registers (knowledge packs: ``names``)."""
    return any(value in p.names.get(dest, ()) for p in lc.target.knowledge.plugins)


def _accepted(vs: Any, value: str) -> bool:
    if vs.case_insensitive:
        return value.upper() in vs.values or value.lower() in vs.also
    return value in vs.values or value.lower() in vs.also
