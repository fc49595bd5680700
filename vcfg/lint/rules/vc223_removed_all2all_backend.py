"""VC223 removed-all2all-backend: an all2all backend the release accepts but no longer has."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import span

VERSIONS = ">=0.17.1"

#: the backends 0.17.1+ still lists as choices but replaces (parallel.py:537, 0.33.0)
GONE = ("pplx", "naive")

RULE = Rule(
    code="VC223",
    name="removed-all2all-backend",
    summary="`--all2all-backend pplx` or `naive`, which vLLM replaces by `allgather_reducescatter`",
    severity="warning",
    versions=VERSIONS,
    why=(
        "From 0.17.1 the `pplx` and `naive` expert-parallel all2all backends are gone, "
        "though `--all2all-backend` still accepts the names: vLLM logs a warning and runs "
        "`allgather_reducescatter` instead, so a launch tuned for one of them runs with "
        "another kernel's performance."
    ),
    when_vllm_fails="never: a warning at start-up, then a different all2all backend",
    example="vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --all2all-backend pplx\n",
    use_instead=(
        "vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --enable-expert-parallel --all2all-backend deepep_high_throughput\n"
    ),
    sources=(
        "vllm@0.17.1:vllm/config/parallel.py:345",
        "vllm@0.33.0:vllm/config/parallel.py:539",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(c.Operand("all2all_backend", given=True),),
    violated=lambda v: v.all2all_backend in GONE,
    message="the `{all2all_backend}` all2all backend is gone: vLLM runs `allgather_reducescatter` instead",
    help="choose a backend this release has (e.g. deepep_high_throughput, deepep_low_latency, allgather_reducescatter)",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    values = c.evaluate(ENTRY, lc)
    ov = option(lc, "all2all_backend").ov
    if values is None or ov is None:
        return
    # a value finding points at the value word (tests/corpus/README.md)
    yield RULE.diag(span(lc, ov.value_span or ov.span), ENTRY.message.format(**values), help=ENTRY.help)
