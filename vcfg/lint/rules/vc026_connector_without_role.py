"""VC026 connector-without-role: ``kv_connector`` set without ``kv_role``."""

from __future__ import annotations

from typing import Iterator

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._config_json import CONNECTOR, ROLE, connector_name, key_span, kv_objects

RULE = Rule(
    code="VC026",
    name="connector-without-role",
    summary="kv_connector set without kv_role",
    severity="error",
    why=(
        "KVTransferConfig refuses a connector without a role: it checks this when the "
        "JSON is read, in every release. Each child of a MultiConnector is a "
        "KVTransferConfig of its own and needs its own kv_role too."
    ),
    when_vllm_fails=(
        "at parse time for the option itself (vllm exits 2); for a MultiConnector child, when the connector is built"
    ),
    example='vllm serve facebook/opt-125m --kv-transfer-config \'{"kv_connector":"NixlConnector"}\'\n',
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both"}\'\n'
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    # KVTransferConfig.__post_init__ (config/kv_transfer.py:120-124 @0.33.0, :91 @0.10.2)
    kv = lc.catalog.config("KVTransferConfig")
    role = kv.field(ROLE) if kv is not None else None
    choices = [c for c in (role.choices or []) if isinstance(c, str)] if role is not None else []
    for obj in kv_objects(lc):
        name = connector_name(obj)
        if obj.value.get(CONNECTOR) is None or obj.value.get(ROLE) is not None:
            continue
        help = f'add "{ROLE}": one of ' + ", ".join(f"`{c}`" for c in choices) if choices else f'add "{ROLE}"'
        facts = lc.target.knowledge.connector_facts(name, lc.target.version) if name else None
        roles = facts.roles[0] if facts is not None and facts.roles else None
        if roles is not None and roles.prefill and roles.decode:
            help += (
                f"; with {name}: "
                + "/".join(f"`{r}`" for r in roles.prefill)
                + " on prefill, "
                + "/".join(f"`{r}`" for r in roles.decode)
                + " on decode"
            )
        yield RULE.diag(key_span(lc, obj, CONNECTOR), f"{obj.where} sets `{CONNECTOR}` but no `{ROLE}`", help=help)
