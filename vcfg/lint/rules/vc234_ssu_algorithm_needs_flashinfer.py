"""VC234 ssu-algorithm-needs-flashinfer: `--mamba-ssu-algorithm` without the FlashInfer
Mamba backend."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.27.0"

RULE = Rule(
    code="VC234",
    name="ssu-algorithm-needs-flashinfer",
    summary="`--mamba-ssu-algorithm` without `--mamba-backend flashinfer`",
    severity="error",
    versions=VERSIONS,
    why=(
        "The selective-state-update algorithm is a choice of the FlashInfer Mamba kernels "
        "only; MambaConfig's validator refuses it with any other backend (the default is "
        "`triton`)."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve ibm-granite/granite-4.0-h-small --mamba-ssu-algorithm horizontal\n",
    use_instead=(
        "vllm serve ibm-granite/granite-4.0-h-small --mamba-backend flashinfer --mamba-ssu-algorithm horizontal\n"
    ),
    sources=("vllm@0.33.0:vllm/config/mamba.py:76",),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("mamba_ssu_algorithm", given=True),
        c.Operand("mamba_backend", report=False),
    ),
    violated=lambda v: v.mamba_ssu_algorithm is not None,
    unless=lambda v: str(v.mamba_backend).lower() == "flashinfer",
    message="`{mamba_ssu_algorithm.name}` needs the FlashInfer Mamba backend (`--mamba-backend` is `{mamba_backend}`)",
    help="add `--mamba-backend flashinfer`, or drop `{mamba_ssu_algorithm.name}`",
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    yield from c.check(RULE, ENTRY, lc)
