"""`vcfg connectors`: the KV connector registry of a release, as rows, with the
extra-config keys vLLM's code reads and what the knowledge packs add (roles,
plugins)."""

from __future__ import annotations

import json
from typing import Any, Sequence

from vcfg.catalog.knowledge import Knowledge
from vcfg.catalog.model import Catalog


def connector_rows(cat: Catalog, knowledge: Knowledge, plugins: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """``plugins``: the overlays of the plugins named (vcfg/catalog/plugins.py): their
    connectors are listed from the plugin's source, file:line inside it, and replace
    vLLM's of the same name where the plugin replaces them."""
    rows: list[dict[str, Any]] = []
    version = cat.vllm_version
    from vcfg.catalog.plugins import loaded_connectors

    mine = {c.name: pc for pc in plugins for c in loaded_connectors(pc, None, cat)}
    for k in cat.connectors:
        if k.name in mine:
            continue
        facts = knowledge.connector_facts(k.name, version)
        rows.append(
            {
                "name": k.name,
                "module": k.module,
                "class": k.class_name,
                "registered_at": str(k.loc),
                "source": "vllm",
                "roles": _roles(facts),
                "extra_config_keys": [
                    {
                        "name": x.name,
                        "default": x.default if x.has_default else None,
                        "required": not x.has_default,
                        "type": x.type,
                    }
                    for x in k.extra_keys
                ]
                + [  # keys the packs know that vLLM's own code does not show (read elsewhere)
                    {"name": kf.name, "default": None, "required": kf.required, "type": None}
                    for kf in (facts.keys if facts else [])
                    if all(kf.name != x.name for x in k.extra_keys)
                ],
                "needs_packages": [p.import_name for p in facts.python_packages] if facts else [],
            }
        )
    for pc in plugins:
        for k in loaded_connectors(pc, None, cat):
            facts = knowledge.connector_facts(k.name, version)
            entry = pc.registered_by.get(k.name)
            rows.append(
                {
                    "name": k.name,
                    "module": k.module,
                    "class": k.class_name,
                    "registered_at": str(k.loc),
                    "source": f"plugin {pc.label}" + (" (replaces vLLM's)" if k.name in pc.replaces else ""),
                    "roles": _roles(facts),
                    "extra_config_keys": [
                        {
                            "name": x.name,
                            "default": x.default if x.has_default else None,
                            "required": not x.has_default,
                            "type": x.type,
                        }
                        for x in k.extra_keys
                    ],
                    "enable_with": f"VLLM_PLUGINS listing {entry}" if entry else None,
                }
            )
    for p in knowledge.plugins:
        if not p.holds_for(version) or any(p.name == pc.name for pc in plugins):
            continue
        for name in p.connectors:
            facts = knowledge.connector_facts(name, version)
            rows.append(
                {
                    "name": name,
                    "module": p.package,
                    "class": name,
                    "registered_at": None,
                    "source": f"plugin {p.name}",
                    "roles": _roles(facts),
                    "extra_config_keys": [
                        {"name": x.name, "default": None, "required": x.required, "type": None}
                        for x in (facts.keys if facts else [])
                    ],
                    "needs_env": [" or ".join(group) for group in (facts.env_any_of if facts else [])],
                    "enable_with": f"VLLM_PLUGINS={','.join(p.plugin_names)}" if p.plugin_names else None,
                }
            )
    return rows


def _roles(facts: Any) -> dict[str, list[str]] | None:
    if facts is None or not facts.roles:
        return None
    r = facts.roles[-1]
    if not r.reads_role:
        return {"any": ["kv_producer", "kv_consumer", "kv_both"]}
    return {"prefill": list(r.prefill), "decode": list(r.decode)}


def render_text(cat: Catalog, rows: list[dict[str, Any]], markdown: bool = False) -> str:
    def keys(r: dict[str, Any]) -> str:
        out = []
        for x in r["extra_config_keys"]:
            if x["required"]:
                out.append(f"{x['name']} (required)")
            elif x["default"] is not None:
                out.append(f"{x['name']}={json.dumps(x['default'])}")
            else:
                out.append(x["name"])
        return ", ".join(out) or "-"

    def roles(r: dict[str, Any]) -> str:
        ro = r.get("roles")
        if not ro:
            return "-"
        if "any" in ro:
            return "any (per request)"
        return f"P: {'/'.join(ro['prefill'])}; D: {'/'.join(ro['decode'])}"

    if markdown:
        lines = [
            f"# KV connectors of vllm {cat.vllm_version}",
            "",
            "| connector | class | source | roles | extra-config keys |",
            "|---|---|---|---|---|",
        ]
        for r in rows:
            lines.append(f"| {r['name']} | `{r['module']}.{r['class']}` | {r['source']} | {roles(r)} | {keys(r)} |")
        return "\n".join(lines)
    lines = [f"KV connectors of vllm {cat.vllm_version} ({len(rows)})", ""]
    for r in rows:
        where = r["registered_at"] or r.get("enable_with") or ""
        lines.append(f"{r['name']}  [{r['source']}]  {r['module']}.{r['class']}  {where}")
        lines.append(f"    roles: {roles(r)}")
        lines.append(f"    extra-config keys: {keys(r)}")
        if r.get("needs_env"):
            lines.append(f"    needs: {', '.join(r['needs_env'])}")
        if r.get("needs_packages"):
            lines.append(f"    python packages: {', '.join(r['needs_packages'])}")
    return "\n".join(lines)
