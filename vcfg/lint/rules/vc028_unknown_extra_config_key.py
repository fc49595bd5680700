"""VC028 unknown-extra-config-key: a ``kv_connector_extra_config`` key the connector
does not read."""

from __future__ import annotations

from typing import Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._args import key_span_of
from vcfg.lint.rules._config_json import (
    EXTRA,
    ExtraKeys,
    extra_config,
    extra_key_history,
    extra_keys,
    judged_connector,
    kv_objects,
)  # fmt: skip
from vcfg.lint.rules._util import did_you_mean

RULE = Rule(
    code="VC028",
    name="unknown-extra-config-key",
    summary="a kv_connector_extra_config key the connector does not read",
    severity="warning",
    why=(
        "kv_connector_extra_config is an untyped dict: vLLM never checks its keys, so a "
        "misspelt or outdated key is silently ignored and the connector runs with its "
        "default. vcfg knows the keys each in-tree connector reads (from its source and "
        "the knowledge packs); keys read by an external package (LMCache's own, a "
        "plugin's, a custom offloading spec's) are not judged."
    ),
    when_vllm_fails="never: the key is ignored and the default applies",
    example=(
        "vllm serve facebook/opt-125m --kv-transfer-config \\\n"
        '  \'{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_connector_extra_config":{"backend":["UCX"]}}\'\n'
    ),
    use_instead=(
        "vllm serve facebook/opt-125m --kv-transfer-config \\\n"
        '  \'{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_connector_extra_config":{"backends":["UCX"]}}\'\n'
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for obj in kv_objects(lc):
        name, extra = judged_connector(lc, obj), extra_config(obj)
        if name is None or extra is None:
            continue
        keys = extra_keys(lc, name, extra)
        if keys is None or not keys.names:
            continue  # vcfg knows nothing this connector reads
        for key in extra:
            if keys.known(key):
                continue
            removed, added, gap = extra_key_history(lc, name, key)
            if gap:
                continue  # read before and after this release: a gap in vcfg's scan
            notes: tuple[str, ...] = ()
            if removed:
                message = f"{name} no longer reads `{key}` (since vllm {removed})"
            else:
                message = f"{name} does not read `{key}`"
                if added:
                    notes = (f"{name} reads it from vllm {added} on",)
            yield RULE.diag(
                key_span_of(lc, obj.ov, *obj.path, EXTRA, key), message, help=_help(lc, name, key, keys), notes=notes
            )


def _help(lc: LaunchContext, name: str, key: str, keys: ExtraKeys) -> Optional[str]:
    near = did_you_mean(key, keys.names, cutoff=0.7)
    if near:
        return f"did you mean `{near[0]}`?"
    kv = lc.catalog.config("KVTransferConfig")
    if kv is not None and kv.field(key) is not None:
        return f"`{key}` is a key of the option itself: move it out of `{EXTRA}`"
    others = [c.name for c in lc.catalog.connectors if c.name != name and any(k.name == key for k in c.extra_keys)]
    if others:
        return f"`{key}` is read by {', '.join(others[:3])}; {name} ignores it"
    shown = ", ".join(f"`{k}`" for k in sorted(keys.names)[:10]) + (", ..." if len(keys.names) > 10 else "")
    return f"{name} reads {shown}"
