"""VC224 unknown-dp-backend: a `--data-parallel-backend` other than `mp` or `ray`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import span

VERSIONS = ">=0.11.2"
BACKENDS = ("mp", "ray")

RULE = Rule(
    code="VC224",
    name="unknown-dp-backend",
    summary="`--data-parallel-backend` other than `mp` or `ray`",
    severity="error",
    why=(
        "`--data-parallel-backend` is a plain string on the command line (no choices), so "
        "a typo passes argument parsing; the parallel config only knows `mp` and `ray` and "
        "refuses anything else."
    ),
    versions=VERSIONS,
    when_vllm_fails="when the parallel config is built, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --data-parallel-backend multiprocessing\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -dp 8 --data-parallel-backend mp\n",
    sources=(
        "vllm@0.11.2:vllm/config/parallel.py:91",
        "vllm@0.33.0:vllm/config/parallel.py:167",
        "vllm@0.33.0:vllm/engine/arg_utils.py:1278",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(c.Operand("data_parallel_backend", given=True),),
    violated=lambda v: isinstance(v.data_parallel_backend, str) and v.data_parallel_backend not in BACKENDS,
    message="`{data_parallel_backend.name}` `{data_parallel_backend}` is not a data-parallel backend",
    help="expected one of: mp, ray",
    schema={"enum": list(BACKENDS)},
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    values = c.evaluate(ENTRY, lc)
    ov = option(lc, "data_parallel_backend").ov
    if values is None or ov is None:
        return
    # a value finding points at the value word (tests/corpus/README.md)
    yield RULE.diag(span(lc, ov.value_span or ov.span), ENTRY.message.format(**values), help=ENTRY.help)
