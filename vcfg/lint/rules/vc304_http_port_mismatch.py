"""VC304 http-port-mismatch: the connector's `http_port` is not the instance's `--port`."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.options import option
from vcfg.lint.rule import Rule
from vcfg.lint.rules import _kv
from vcfg.lint.rules._args import value_span_of

RULE = Rule(
    code="VC304",
    name="http-port-mismatch",
    summary="P2pNcclConnector's (or MoRIIOConnector's) `http_port` differs from the instance's `--port`",
    severity="error",
    why=(
        "P2pNcclConnector (and MoRIIOConnector) announce `kv_connector_extra_config."
        "http_port` to the proxy as the address of the instance's API server; the proxy "
        "then sends requests there. A value other than the instance's own `--port` "
        "sends them to another instance, or nowhere."
    ),
    when_vllm_fails="at the first request the proxy routes (connection refused, or the wrong instance)",
    example=(
        "vllm serve Qwen/Qwen3-8B --port 20002 --kv-transfer-config \\\n"
        '  \'{"kv_connector":"MoRIIOConnector","kv_role":"kv_consumer",'
        '"kv_connector_extra_config":{"http_port":"20001"}}\'\n'
    ),
    use_instead=(
        "vllm serve Qwen/Qwen3-8B --port 20002 --kv-transfer-config \\\n"
        '  \'{"kv_connector":"MoRIIOConnector","kv_role":"kv_consumer",'
        '"kv_connector_extra_config":{"http_port":"20002"}}\'\n'
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    """Each extra-config key whose knowledge fact says ``equals_option = "port"``
    (P2pNcclConnector's and MoRIIOConnector's ``http_port``, in connectors.toml)."""
    if lc.inv.kind != "serve":
        return
    for k in _kv.kv_all(lc):
        f = _kv.facts(lc, k.name)
        extra = k.doc.get("kv_connector_extra_config")
        if f is None or not isinstance(extra, dict):
            continue
        for fact in f.keys:
            key = fact.name
            if fact.equals_option != "port" or key not in extra:
                continue
            announced = _kv.port_number(extra[key])
            port = option(lc, "port")
            actual = _kv.port_number(port.value) if port.known else None
            if announced is None or actual is None or announced == actual:
                continue
            given = f"`{port.catalog_name}` {actual}" if port.given else f"the default `{port.catalog_name}` {actual}"
            yield RULE.diag(
                value_span_of(lc, k.ov, *k.path, "kv_connector_extra_config", key),
                f"`{key}` {announced} is not this instance's port: it listens on {given}",
                help=f"set `{key}` to {actual}: the proxy sends this instance's requests to `{key}`",
            )
