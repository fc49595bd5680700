"""VC213 nnodes-needs-mp-backend: `--nnodes` > 1 with a data-parallel backend other than mp."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.11.2"

RULE = Rule(
    code="VC213",
    name="nnodes-needs-mp-backend",
    summary="`--nnodes` above 1 with `--data-parallel-backend` other than `mp`",
    severity="error",
    versions=VERSIONS,
    why=(
        "`--nnodes`/`--node-rank` describe nodes that each run their own `vllm serve` with "
        "the multiprocessing backend. With `--data-parallel-backend ray`, Ray places the "
        "ranks itself from one launch, and vLLM refuses the mix (an assertion before 0.27)."
    ),
    when_vllm_fails="when the engine arguments are turned into a config, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -tp 8 -dp 2 --nnodes 2 --data-parallel-backend ray\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -tp 8 -dp 2 --data-parallel-backend ray\n",
    sources=(
        "vllm@0.11.2:vllm/engine/arg_utils.py:1462",
        "vllm@0.27.1:vllm/engine/arg_utils.py:2026",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2390",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("nnodes", convert=c.positive_int),
        c.Operand("data_parallel_backend"),
    ),
    violated=lambda v: v.nnodes > 1 and v.data_parallel_backend != "mp",
    message="`{nnodes.name}` {nnodes} needs the `mp` data-parallel backend, not `{data_parallel_backend}`",
    help="use `--data-parallel-backend mp` with `--nnodes`, or drop `--nnodes` and let Ray place the ranks",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
