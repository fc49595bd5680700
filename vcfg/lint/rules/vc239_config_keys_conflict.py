"""VC239 config-keys-conflict: keys of one config JSON value that its class's validator
refuses together (`vcfg.lint.key_constraints`)."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.constraints import holds
from vcfg.lint.context import LaunchContext
from vcfg.lint.key_constraints import ENTRIES, PROTON, PROTON_SOURCE, effective, proton_keys
from vcfg.lint.rule import Rule
from vcfg.lint.rules._config_json import config_objects, key_span

RULE = Rule(
    code="VC239",
    name="config-keys-conflict",
    summary="keys of a config JSON value that its class refuses together",
    severity="error",
    versions=">=0.24.0",
    why=(
        "Some config classes check their keys against each other once they are built: the "
        'Proton options of `--profiler-config` apply only with `"profiler": "proton"`, '
        "which needs a trace directory; async EPLB (the default from 0.23) refuses the NCCL "
        "communicators; `draft_lm_head_quantization` applies "
        "only to EAGLE and MTP drafts. vLLM refuses the value when it parses the option or "
        "builds the engine config."
    ),
    when_vllm_fails="when the option is parsed or the engine config is built, before the model loads",
    example='vllm serve Qwen/Qwen3-8B --profiler-config \'{"proton_context": "python"}\'\n',
    use_instead=(
        "vllm serve Qwen/Qwen3-8B \\\n"
        '  --profiler-config \'{"profiler": "proton", "proton_profiler_dir": "/tmp/proton", '
        '"proton_context": "python"}\'\n'
    ),
    sources=(PROTON_SOURCE, *dict.fromkeys(e.source for e in ENTRIES)),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    version = lc.target.version
    for obj in config_objects(lc):
        name = obj.cls.name
        if name == "ProfilerConfig" and lc.target.knowledge.setting(PROTON, version) is not None:
            yield from _proton(lc, obj)
        for e in ENTRIES:
            if e.cls != name or e.at not in obj.value or not holds(e.versions, version):
                continue
            v = effective(obj.cls, obj.value, e.keys)
            try:
                if v is None or not e.violated(v):
                    continue
                message = e.message.format(**vars(v))
            except (TypeError, ValueError, AttributeError, KeyError):
                continue
            yield RULE.diag(key_span(lc, obj, e.at), message, help=e.help)


def _proton(lc: LaunchContext, obj) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
    v = effective(obj.cls, obj.value, ("profiler",))
    if v is None or v.profiler == "proton":
        return
    for key in proton_keys(obj.cls):
        if key not in obj.value:
            continue
        f = obj.cls.field(key)
        if f is None or obj.value[key] == f.default:
            continue
        yield RULE.diag(
            key_span(lc, obj, key),
            f'`{key}` applies only with `"profiler": "proton"`',
            help='add "profiler": "proton" (with "proton_profiler_dir"), or drop the key',
        )
