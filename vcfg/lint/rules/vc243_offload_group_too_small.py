"""VC243 offload-group-too-small: prefetch offloading with more offloaded layers per group
than the group has."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.17.0"

RULE = Rule(
    code="VC243",
    name="offload-group-too-small",
    summary="prefetch offloading with `--offload-num-in-group` above `--offload-group-size`",
    severity="error",
    versions=VERSIONS,
    why=(
        "Prefetch offloading splits the layers into groups of `--offload-group-size` and "
        "offloads `--offload-num-in-group` of each; OffloadConfig refuses more offloaded "
        "layers than a group holds. `--offload-backend prefetch` alone keeps the default "
        "group size 0, below the default 1 offloaded layer."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --offload-backend prefetch\n",
    use_instead="vllm serve Qwen/Qwen3-8B --offload-backend prefetch --offload-group-size 4 --offload-num-in-group 1\n",
    sources=("vllm@0.17.0:vllm/config/offload.py:100", "vllm@0.33.0:vllm/config/offload.py:100"),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("offload_backend"),
        c.Operand("offload_group_size"),
        c.Operand("offload_num_in_group"),
    ),
    violated=lambda v: (
        (v.offload_backend == "prefetch" or v.offload_group_size > 0) and v.offload_num_in_group > v.offload_group_size
    ),
    message=(
        "`{offload_num_in_group.name}` {offload_num_in_group} is above `{offload_group_size.name}` {offload_group_size}"
    ),
    help="set `--offload-group-size` to at least `--offload-num-in-group`",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
