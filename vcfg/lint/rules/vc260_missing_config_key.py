"""VC260 missing-config-key: a JSON-valued option's object without a key its config
class requires."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._config_json import config_objects, value_span

RULE = Rule(
    code="VC260",
    name="missing-config-key",
    summary="a JSON-valued option without a key its config class requires",
    severity="error",
    why=(
        "A JSON-valued option becomes one of vLLM's config classes, and a field of that "
        "class without a default must be given: `--watermark-config` needs its secret "
        "`key`. vLLM builds the class with the JSON's keys when it builds the engine "
        'config and stops with "field required". The catalog records which fields have '
        "no default (`required`), per release."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example='vllm serve Qwen/Qwen3-8B --watermark-config \'{"algorithm": "gumbel"}\'\n',
    use_instead='vllm serve Qwen/Qwen3-8B --watermark-config \'{"key": 42, "algorithm": "gumbel"}\'\n',
    sources=(
        "vllm@0.33.0:vllm/config/watermarking.py:30",
        "vllm@0.33.0:vllm/engine/arg_utils.py:2196",
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for obj in config_objects(lc):
        missing = [f.name for f in obj.cls.fields if f.required and f.init and f.name not in obj.value]
        if not missing:
            continue
        shown = ", ".join(f"`{m}`" for m in missing)
        yield RULE.diag(
            value_span(lc, obj),
            f"{obj.where} has no {shown}, which {obj.cls.name} requires",
            help=f"add {shown}",
            notes=(f"{obj.cls.name} is defined at {obj.cls.loc}",),
        )
