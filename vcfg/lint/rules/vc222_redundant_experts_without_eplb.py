"""VC222 redundant-experts-without-eplb: redundant experts without the load balancer."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import UNKNOWN, option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import span, value_span_of

RULE = Rule(
    code="VC222",
    name="redundant-experts-without-eplb",
    summary="`num_redundant_experts` without `--enable-eplb`",
    severity="error",
    why=(
        "Redundant experts are extra copies of hot experts that the expert-parallel load "
        "balancer places and moves; without `--enable-eplb` nothing would use them, and "
        "vLLM refuses a non-zero count (given in `--eplb-config`, or as "
        "`--num-redundant-experts` before 0.15)."
    ),
    when_vllm_fails="when the parallel config is built, before any worker starts",
    example=(
        "vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --enable-expert-parallel \\\n"
        "  --eplb-config '{\"num_redundant_experts\": 32}'\n"
    ),
    use_instead=(
        "vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --enable-expert-parallel --enable-eplb \\\n"
        "  --eplb-config '{\"num_redundant_experts\": 32}'\n"
    ),
    sources=(
        "vllm@0.10.2:vllm/config/parallel.py:371",
        "vllm@0.10.2:vllm/engine/arg_utils.py:1303",
        "vllm@0.33.0:vllm/config/parallel.py:588",
    ),
)


def _count(lc: LaunchContext) -> Optional[tuple[int, Any]]:
    """(count, where it is written) of redundant experts the user gave."""
    o = option(lc, "num_redundant_experts", absent=None)
    n = o.value
    if isinstance(n, int) and not isinstance(n, bool) and o.ov is not None:  # the old flag wins
        return n, span(lc, o.ov.value_span or o.ov.span)
    eplb = option(lc, "eplb_config")
    doc, ov = eplb.value, eplb.ov
    if ov is None or not isinstance(doc, dict):
        return None
    n = doc.get("num_redundant_experts")
    if not isinstance(n, int) or isinstance(n, bool):
        return None
    return n, value_span_of(lc, ov, "num_redundant_experts")


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if lc.inv.kind != "serve" or lc.args is None:
        return
    got = _count(lc)
    eplb = option(lc, "enable_eplb", absent=False).value
    if got is None or got[0] == 0 or eplb is not False or eplb is UNKNOWN:
        return
    yield RULE.diag(
        got[1],
        f"{got[0]} redundant experts without `--enable-eplb`: only the load balancer places them",
        help="add `--enable-eplb` (with `--enable-expert-parallel`), or drop num_redundant_experts",
    )
