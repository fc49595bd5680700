"""VC214 headless-with-api-servers: `--headless` with `--api-server-count`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

RULE = Rule(
    code="VC214",
    name="headless-with-api-servers",
    summary="`--headless` with `--api-server-count`",
    severity="error",
    why=(
        "A headless node runs engines only; its API servers run on the head node. `vllm "
        "serve --headless` refuses an `--api-server-count` above 1, and from 0.15.1 any "
        'count at all (the default became "unset"): the count belongs on the head node\'s '
        "launch."
    ),
    when_vllm_fails="when `vllm serve` picks its mode, before the engine starts",
    example="vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \\\n"
    "  --headless --api-server-count 4\n",
    use_instead="vllm serve deepseek-ai/DeepSeek-V3 -dp 16 --data-parallel-size-local 8 --data-parallel-start-rank 8 \\\n"
    "  --headless\n",
    sources=(
        "vllm@0.10.2:vllm/entrypoints/cli/serve.py:77",
        "vllm@0.15.1:vllm/entrypoints/cli/serve.py:57",
        "vllm@0.33.0:vllm/entrypoints/cli/serve.py:73",
    ),
)


def _entry(versions: str, least: int) -> c.Constraint:
    return c.Constraint(
        code=RULE.code,
        versions=versions,
        operands=(c.Operand("headless"), c.Operand("api_server_count", given=True)),
        violated=lambda v: v.headless is True and isinstance(v.api_server_count, int) and v.api_server_count >= least,
        message="`{api_server_count.name}` {api_server_count} with `{headless.name}`: a headless node runs no API server",
        help="drop `--api-server-count` here; set it on the head node's launch",
    )


# before 0.15.1 only a count above 1 fails (serve.py:77, 0.10.2); from 0.15.1 any
ENTRIES = (_entry("<0.15.1", 2), _entry(">=0.15.1", 1))


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not lc.inv.entrypoint.endswith(" serve"):
        return  # the check is in `vllm serve` (entrypoints/cli/serve.py)
    for e in ENTRIES:
        yield from c.check(RULE, e, lc)
