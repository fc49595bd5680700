"""VC240 mamba-rounding-needs-float16: stochastic rounding of the Mamba cache without a
float16 SSM cache."""

from __future__ import annotations

from typing import Any, Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._model import local_model

VERSIONS = ">=0.20.0"

RULE = Rule(
    code="VC240",
    name="mamba-rounding-needs-float16",
    summary="`--enable-mamba-cache-stochastic-rounding` without `--mamba-ssm-cache-dtype float16`",
    severity="error",
    versions=VERSIONS,
    why=(
        "Stochastic rounding writes the Mamba SSM state in float16; VllmConfig refuses it "
        "when the SSM cache has another dtype. With `--mamba-ssm-cache-dtype auto` (the "
        "default) a hybrid model's config.json may name float16 itself (`mamba_ssm_dtype`), "
        "which vLLM takes before the check: vcfg then reads the model's config.json when it "
        "can, and says nothing when it cannot."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --enable-mamba-cache-stochastic-rounding --mamba-ssm-cache-dtype float32\n",
    use_instead="vllm serve Qwen/Qwen3-8B --enable-mamba-cache-stochastic-rounding --mamba-ssm-cache-dtype float16\n",
    sources=(
        "vllm@0.20.0:vllm/config/vllm.py:732",
        "vllm@0.33.0:vllm/config/vllm.py:1595",
        "vllm@0.33.0:vllm/model_executor/models/config.py:824",
    ),
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(
        c.Operand("enable_mamba_cache_stochastic_rounding"),
        c.Operand("mamba_ssm_cache_dtype"),
        # a dict override may set the model's SSM dtype: undecided then
        c.Operand("hf_overrides", report=False, absent=None),
    ),
    violated=lambda v: v.enable_mamba_cache_stochastic_rounding is True and v.mamba_ssm_cache_dtype != "float16",
    unless=lambda v: v.hf_overrides not in (None, {}, "{}"),
    message=(
        "`{enable_mamba_cache_stochastic_rounding.name}` needs a float16 SSM cache, "
        "`{mamba_ssm_cache_dtype.name}` is {mamba_ssm_cache_dtype}"
    ),
    help="add `--mamba-ssm-cache-dtype float16`, or drop the stochastic rounding",
)


def _model_may_name_float16(lc: LaunchContext) -> bool:
    """Whether vLLM's model hooks may turn ``auto`` into float16 (they copy a
    ``mamba_ssm*`` dtype of config.json, 0.33.0 model_executor/models/config.py:824-832,
    :961-966): unknown model or any such key: they may."""
    m = local_model(lc)
    if m is None:
        return True

    def walk(x: Any, depth: int) -> bool:
        if depth > 4:
            return True
        if isinstance(x, dict):
            return any(("mamba_ssm" in str(k)) or walk(v, depth + 1) for k, v in x.items())
        return False

    return walk(m.raw, 0)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    values = c.evaluate(ENTRY, lc)
    if values is None:
        return
    if values["mamba_ssm_cache_dtype"].value == "auto" and _model_may_name_float16(lc):
        return
    yield from c.check(RULE, ENTRY, lc)
