"""VC226 dcp-not-dividing-tp: decode context parallelism that does not divide the
tensor-parallel group it reuses."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.13.0"

RULE = Rule(
    code="VC226",
    name="dcp-not-dividing-tp",
    summary="`--decode-context-parallel-size` does not divide `--tensor-parallel-size`",
    severity="error",
    versions=VERSIONS,
    why=(
        "Decode context parallelism splits the KV cache over the ranks of the "
        "tensor-parallel group (when prefill context parallelism is off), so the "
        "tensor-parallel size must be a multiple of the decode context-parallel size."
    ),
    when_vllm_fails="when the parallel config is built, before any worker starts",
    example="vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 2 -dcp 4\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 4 -dcp 4\n",
)

#: from 0.23.0 the sizes are ``Field(default=1, ge=1)`` (0.23.0 config/parallel.py),
#: so a size below 1 is VC006's; before, vLLM takes the modulo of whatever ints it is
#: given (``1 % -5`` is -4: the assert fails for a negative size too)
BOUNDED = ">=0.23.0"
UNBOUNDED = ">=0.13.0,<0.23.0"


def _nonzero_int(x: object) -> object:
    # 0 is a ZeroDivisionError in vLLM, not this assert: left to other checks
    if isinstance(x, bool) or not isinstance(x, int) or x == 0:
        return c.UNKNOWN
    return x


def _entry(versions: str, convert: object) -> c.Constraint:
    # 0.33.0 config/parallel.py:596-600 (0.27.1 parallel.py:531, 0.20.2 parallel.py:472,
    # 0.13.0 engine/arg_utils.py:1354 an assert, whatever the PCP size: checking only
    # PCP 1 stays on the safe side)
    return c.Constraint(
        code=RULE.code,
        versions=versions,
        operands=(
            c.Operand("decode_context_parallel_size", given=True, convert=convert),  # type: ignore[arg-type]
            c.Operand("tensor_parallel_size", convert=convert),  # type: ignore[arg-type]
            c.Operand("prefill_context_parallel_size", absent=1, report=False),
        ),
        violated=lambda v: v.tensor_parallel_size % v.decode_context_parallel_size != 0,
        unless=lambda v: v.prefill_context_parallel_size != 1,
        message=(
            "`{tensor_parallel_size.name}` {tensor_parallel_size} is not divisible by "
            "`{decode_context_parallel_size.name}` {decode_context_parallel_size}"
        ),
        help="use a decode context-parallel size that divides the tensor-parallel size",
    )


ENTRIES = (_entry(BOUNDED, c.positive_int), _entry(UNBOUNDED, _nonzero_int))


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for entry in ENTRIES:
        yield from c.check(RULE, entry, lc)
