"""VC230 max-model-len-zero: `--max-model-len 0` where the field's bound lets it through."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint import constraints as c
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule

VERSIONS = ">=0.27.1"

RULE = Rule(
    code="VC230",
    name="max-model-len-zero",
    summary="`--max-model-len 0`: neither a length nor `-1`/`auto`",
    severity="error",
    versions=VERSIONS,
    why=(
        "Since `-1` (or `auto`) asks vLLM to fit the length to the memory, the field's "
        "bound is `>= -1`, so 0 passes it; `ModelConfig`'s model validator then refuses "
        "any length below 1 (0.33.0 config/model.py:1070, 0.27.1 model.py:888). Releases "
        "whose bound is `> 0` report 0 as VC006."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example="vllm serve Qwen/Qwen3-8B --max-model-len 0\n",
    use_instead="vllm serve Qwen/Qwen3-8B --max-model-len auto\n",
)

ENTRY = c.Constraint(
    code=RULE.code,
    versions=VERSIONS,
    operands=(c.Operand("max_model_len", given=True),),
    violated=lambda v: v.max_model_len == 0 and not isinstance(v.max_model_len, bool),
    message="`{max_model_len.name}` 0 is not a length",
    help="give a length of at least 1, or `auto` (-1) to fit it to the GPU memory",
    schema={"not": {"anyOf": [{"const": 0}, {"type": "string", "pattern": r"^\s*[+-]?0+\s*$"}]}},
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    cls = lc.catalog.config("ModelConfig")
    fld = cls.field("max_model_len") if cls is not None else None
    bound = fld.constraint if fld is not None else None
    if bound is None or (bound.gt is not None and bound.gt >= 0) or (bound.ge is not None and bound.ge > 0):
        return  # VC006 reports 0 from the field's own bound
    yield from c.check(RULE, ENTRY, lc)
