"""VC108 expandable-segments-with-connector: PyTorch's expandable segments with a KV
connector."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.constraints import script_binding
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import UNKNOWN, option
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
        '  \'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\'\n'
    ),
    use_instead=(
        "vllm serve Qwen/Qwen3-8B --kv-transfer-config \\\n"
        '  \'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\'\n'
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    if not is_serve(lc) or lc.args is None:
        return
    # the variable, the exact text vLLM tests for and the options that exempt a launch
    # (knowledge: settings.toml, with vLLM's sources)
    kb, version = lc.target.knowledge, lc.target.version
    var, text, exempt_by = (
        kb.setting(f"expandable-segments.{n}", version) for n in ("variable", "text", "exempt-options")
    )
    if var is None or text is None or exempt_by is None:
        return
    name, want = var.value, text.value
    b = script_binding(lc, name)
    if b is None or b.unset or not b.exported or b.value is None or b.value.text is None:
        return
    at = b.value.text.find(want)
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
    exempt = [o for o in (option(lc, d) for d in exempt_by.values) if o.exists]
    if any(o.value is UNKNOWN for o in exempt) or any(o.value is True for o in exempt):
        return
    flags = " or ".join(f"`{o.catalog_name}`" for o in exempt)
    yield RULE.diag(
        (b.value.span_of(at, at + len(want)) if b.value.runs else b.value.span).for_finding(lc.path),
        f"`{want}` in {name} is refused with {what} (line {lc.inv.span.line})",
        help=f"drop `{want}` for this launch" + (f", or pass {flags}" if flags else ""),
    )
