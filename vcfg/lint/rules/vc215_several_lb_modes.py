"""VC215 several-lb-modes: two data-parallel load-balancing modes in one launch."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.launch.args import since, version_tuple
from vcfg.lint.constraints import launch_span
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import Option, option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import span

VERSIONS = ">=0.11.2"

RULE = Rule(
    code="VC215",
    name="several-lb-modes",
    summary="two data-parallel load-balancing modes at once (external, hybrid, multi-port)",
    severity="error",
    versions=VERSIONS,
    why=(
        "A data-parallel launch balances requests in one way: internally (one API server "
        "for all ranks), externally (`--data-parallel-external-lb`, or an explicit "
        "`--data-parallel-rank`: one rank per launch behind your own balancer), hybrid "
        "(`--data-parallel-hybrid-lb`, or a `--data-parallel-start-rank`: one API server per "
        "node) or multi-port (`--data-parallel-multi-port-external-lb`, 0.22.0+). vLLM "
        "refuses both the hybrid and the external switches from 0.11.2, and from 0.22.0 "
        "`vllm serve` refuses any two modes, the implied ones included."
    ),
    when_vllm_fails="when `vllm serve` picks its mode (0.22.0+), else when the engine config is built",
    example="vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-rank 3 --data-parallel-start-rank 0\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-rank 3\n",
    sources=(
        "vllm@0.11.2:vllm/engine/arg_utils.py:1459",
        "vllm@0.22.0:vllm/entrypoints/cli/serve.py:91",
        "vllm@0.33.0:vllm/entrypoints/cli/serve.py:101",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2383",
    ),
)


def _given(lc: LaunchContext, dest: str) -> Optional[Option]:
    """The option when the user gave it (with a known value), else None."""
    o = option(lc, dest)
    return o if o.ov is not None and o.ov.known else None


def _modes(lc: LaunchContext, serve_rules: bool) -> Optional[list[tuple[str, Any]]]:
    """(mode, the word that asks for it) for each mode the launch asks for."""
    names = (
        "data_parallel_external_lb",
        "data_parallel_hybrid_lb",
        "data_parallel_multi_port_external_lb",
        "data_parallel_rank",
        "data_parallel_start_rank",
    )
    vals = {n: option(lc, n, absent=None).value for n in names}
    if any(v is not None and not isinstance(v, (bool, int)) for v in vals.values()):
        return None  # unknown
    out: list[tuple[str, Any]] = []
    if not serve_rules:  # arg_utils: the two switches
        for n, mode in (("data_parallel_external_lb", "external"), ("data_parallel_hybrid_lb", "hybrid")):
            if vals[n] is True:
                out.append((mode, _given(lc, n)))
        return out
    ext = _given(lc, "data_parallel_external_lb") if vals["data_parallel_external_lb"] is True else None
    ext = ext or (_given(lc, "data_parallel_rank") if vals["data_parallel_rank"] is not None else None)
    if ext is not None:
        out.append(("external", ext))
    if vals["data_parallel_hybrid_lb"] is not True and vals["data_parallel_multi_port_external_lb"] is not True:
        if vals["data_parallel_start_rank"] is not None:  # serve.py:88-91 (0.33.0)
            out.append(("hybrid", _given(lc, "data_parallel_start_rank")))
    else:
        if vals["data_parallel_hybrid_lb"] is True:
            out.append(("hybrid", _given(lc, "data_parallel_hybrid_lb")))
        if vals["data_parallel_multi_port_external_lb"] is True:
            out.append(("multi-port", _given(lc, "data_parallel_multi_port_external_lb")))
    return out


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if lc.inv.kind != "serve" or lc.args is None:
        return
    serve_rules = lc.inv.entrypoint.endswith(" serve") and version_tuple(lc.target.version) >= since(
        "serve-one-dp-lb-mode"
    )
    modes = _modes(lc, serve_rules)
    if not modes or len(modes) < 2:
        return
    words = [w for _, w in modes if w is not None]
    last = max(words, key=lambda o: (o.ov.name_span.line, o.ov.name_span.col)) if words else None
    at = span(lc, last.ov.name_span) if last is not None else launch_span(lc)
    asked = ", ".join(f"{m} (`{w.name}`)" if w is not None else m for m, w in modes)
    yield RULE.diag(
        at,
        f"more than one data-parallel load-balancing mode: {asked}",
        help="choose one: an explicit rank per launch (external), a start rank with a local size per node "
        "(hybrid), or neither (internal)",
    )
