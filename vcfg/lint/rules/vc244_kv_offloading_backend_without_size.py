"""VC244 kv-offloading-backend-without-size: `--kv-offloading-backend` without
`--kv-offloading-size` (0.11.1-0.13)."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.11.1,<0.14.0"

RULE = Rule(
    code="VC244",
    name="kv-offloading-backend-without-size",
    summary="`--kv-offloading-backend` without `--kv-offloading-size`",
    severity="error",
    versions=VERSIONS,
    why=(
        "From 0.11.1 to 0.13 a KV offloading backend is configured from the two options "
        "together: the size of the CPU buffer is what the backend's connector is built "
        "with, and VllmConfig refuses a backend without it (later releases changed how "
        "offloading is set up)."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --kv-offloading-backend native\n",
    use_instead="vllm serve Qwen/Qwen3-8B --kv-offloading-backend native --kv-offloading-size 32\n",
    sources=("vllm@0.13.0:vllm/config/vllm.py:484",),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("kv_offloading_backend", given=True),
        c.Operand("kv_offloading_size", report=False),
    ),
    violated=lambda v: v.kv_offloading_backend is not None and v.kv_offloading_size is None,
    message="`{kv_offloading_backend.name}` needs `--kv-offloading-size`",
    help="add `--kv-offloading-size` (GiB of CPU memory for the offloaded KV cache)",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
