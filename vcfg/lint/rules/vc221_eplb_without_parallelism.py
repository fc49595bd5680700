"""VC221 eplb-without-parallelism: the expert-parallel load balancer on one GPU."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC221",
    name="eplb-without-parallelism",
    summary="`--enable-eplb` with tensor x data (x prefill-context) parallel size 1",
    severity="error",
    why=(
        "The expert-parallel group spans the tensor x data parallel ranks (x prefill-context "
        "parallel from 0.26); with one rank there is nothing to balance between, and vLLM "
        "refuses `--enable-eplb`."
    ),
    when_vllm_fails="when the parallel config is built, before any worker starts",
    example="vllm serve Qwen/Qwen3-30B-A3B --enable-expert-parallel --enable-eplb\n",
    use_instead="vllm serve Qwen/Qwen3-30B-A3B -dp 2 --enable-expert-parallel --enable-eplb\n",
    sources=(
        "vllm@0.10.2:vllm/config/parallel.py:364",
        "vllm@0.26.0:vllm/config/parallel.py:491",
        "vllm@0.33.0:vllm/config/parallel.py:580",
    ),
)


def _entry(versions: str, pcp: bool) -> c.Constraint:
    def ranks(v):  # type: ignore[no-untyped-def]
        n = v.tensor_parallel_size * v.data_parallel_size
        return n * v.prefill_context_parallel_size if pcp else n

    return c.Constraint(
        code=RULE.code,
        versions=versions,
        operands=(
            c.Operand("enable_eplb"),
            c.Operand("enable_expert_parallel", report=False),
            c.Operand("tensor_parallel_size", convert=c.positive_int, report=False),
            c.Operand("data_parallel_size", convert=c.positive_int, report=False),
            c.Operand("prefill_context_parallel_size", absent=1, convert=c.positive_int, report=False),
        ),
        violated=lambda v: v.enable_eplb is True and v.enable_expert_parallel is True and ranks(v) <= 1,
        message="`{enable_eplb.name}` on a single expert-parallel rank (tensor x data parallel size 1)",
        help="run more than one rank (`-tp`, `-dp`), or drop `--enable-eplb`",
    )


# prefill-context parallelism counts from 0.26.0 (parallel.py:491)
ENTRIES = (_entry("<0.26.0", False), _entry(">=0.26.0", True))


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for e in ENTRIES:
        yield from c.check(RULE, e, lc)
