"""VC108 expandable-segments-with-connector: PyTorch's expandable segments with a KV
connector."""

from __future__ import annotations

from typing import Iterator

from vcfg.lint.constraints import script_binding
from vcfg.lint.options import UNKNOWN, option
from vcfg.lint.context import LaunchContext
from vcfg.diagnostics import Diagnostic
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _kv
from vcfg.lint.rules._env import is_serve

VERSIONS = ">=0.21.0"

RULE = Rule(
    code="VC108",
    name="expandable-segments-with-connector",
    summary="`PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` with a KV connector",
    severity="error",
    versions=VERSIONS,
    why=(
        "With expandable segments PyTorch may remap the GPU pages behind the KV cache, "
        "while a KV connector (NIXL, Mooncake, ...) has registered the old pages for RDMA: "
        "transfers then fail or, in older releases, silently crawl over TCP. From 0.21 "
        "vLLM refuses the combination unless the KV cache comes from its own memory pool "
        "(`--enable-cumem-allocator` from 0.22, or `--enable-sleep-mode`)."
    ),
    when_vllm_fails="when the engine config is built, before the model loads",
    example=(
        "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n"
        "vllm serve Qwen/Qwen3-8B --kv-transfer-config \\\n"
        "  '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_producer\"}'\n"
    ),
    use_instead=(
        "vllm serve Qwen/Qwen3-8B --kv-transfer-config \\\n"
        "  '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_producer\"}'\n"
    ),
)

_VAR = "PYTORCH_CUDA_ALLOC_CONF"
#: vLLM tests for this exact text (0.33 config/vllm.py:1284; 0.21.0 config/vllm.py:739).
_TEXT = "expandable_segments:True"
#: Options that exempt the launch: sleep mode (0.21.0 config/vllm.py:743) and the cumem
#: allocator, which sleep mode turns on (0.22.1 config/vllm.py:809, config/model.py:540).
_EXEMPT = ("enable_cumem_allocator", "enable_sleep_mode")


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc) or lc.args is None:
        return
    b = script_binding(lc, _VAR)
    if b is None or b.unset or not b.exported or b.value is None or b.value.text is None:
        return
    at = b.value.text.find(_TEXT)
    if at < 0:
        return
    k = _kv.kv(lc)
    if k is not None:
        what = f"the KV connector {k.name}"
    else:
        size = option(lc, "kv_offloading_size", absent=None).value
        if size is None or size is UNKNOWN:
            return
        what = "the KV offloading connector of `--kv-offloading-size`"  # config/vllm.py:1151
    exempt = [o for o in (option(lc, d) for d in _EXEMPT) if o.exists]
    if any(o.value is UNKNOWN for o in exempt) or any(o.value is True for o in exempt):
        return
    flags = " or ".join(f"`{o.catalog_name}`" for o in exempt)
    yield RULE.diag(
        (b.value.span_of(at, at + len(_TEXT)) if b.value.runs else b.value.span).for_finding(lc.path),
        f"`{_TEXT}` in {_VAR} is refused with {what} (line {lc.inv.span.line})",
        help=f"drop `{_TEXT}` for this launch" + (f", or pass {flags}" if flags else ""),
    )
