"""VC212 node-rank-out-of-range: `--node-rank` not below `--nnodes`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.11.2"

RULE = Rule(
    code="VC212",
    name="node-rank-out-of-range",
    summary="`--node-rank` not below `--nnodes`",
    severity="error",
    versions=VERSIONS,
    why=(
        "Nodes are numbered from 0 to `--nnodes` - 1; vLLM derives a node's data-parallel "
        "ranks from its `--node-rank` and refuses one outside that range (an assertion "
        "before 0.27). The usual slip is counting nodes from 1."
    ),
    when_vllm_fails="when the engine arguments are turned into a config, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -tp 8 -dp 2 --nnodes 2 --node-rank 2 --headless\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -tp 8 -dp 2 --nnodes 2 --node-rank 1 --headless\n",
    sources=(
        "vllm@0.11.2:vllm/engine/arg_utils.py:1479",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2414",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("node_rank"),
        c.Operand("nnodes", convert=c.positive_int),
    ),
    violated=lambda v: v.nnodes > 1 and not 0 <= v.node_rank < v.nnodes,
    message="`{node_rank.name}` {node_rank} is not a node of `{nnodes.name}` {nnodes} (nodes count from 0)",
    help="number the nodes 0 to {last}",
    derive=lambda vals: {"last": vals["nnodes"].value - 1},
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
