"""VC027 unknown-connector: a ``kv_connector`` the release does not register."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import FixInfo, Rule
from vcfg.lint.rules._config_json import (
    CONNECTOR,
    MODULE_PATH,
    ConfigObject,
    connector_name,
    has_module_path,
    kv_objects,
    offloading_override,
    plugin_of,
    value_span,
)  # fmt: skip
from vcfg.lint.rules._util import did_you_mean, first_absent_since, first_present_after

RULE = Rule(
    code="VC027",
    name="unknown-connector",
    summary="a kv_connector the release does not register",
    severity="error",
    why=(
        "vLLM looks the connector name up in its registry; a name it does not have "
        "(removed in this release, misspelt, or registered by a plugin that is not "
        "installed or not enabled) fails with 'Unsupported connector type'. Connectors "
        "come and go: SharedStorageConnector became ExampleConnector in 0.13 and "
        "P2pNcclConnector is gone from 0.24. A plugin's connector is a warning (vcfg "
        "cannot see installed packages) unless the script sets the plugin's own variables, "
        "and an error when VLLM_PLUGINS leaves the plugin out."
    ),
    when_vllm_fails=(
        "during start-up, before the model loads from 0.33; when the connector is built in older releases"
    ),
    example=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConector","kv_role":"kv_both"}\'\n'
    ),
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both"}\'\n'
    ),
    fixes=(FixInfo("safe", 'a connector the knowledge packs call renamed (`migrate = "rename"`) gets its new name'),),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    # KVConnectorFactory.get_connector_class (factory.py:96-129 @0.33.0)
    for obj in kv_objects(lc):
        name = connector_name(obj)
        if name is None or has_module_path(obj.value) or offloading_override(lc, obj):
            continue
        if lc.catalog.connector(name) is not None:
            continue
        plugin = plugin_of(lc, name)
        if plugin is not None and plugin.holds_for(lc.target.version):
            d = _plugin(lc, obj, name, plugin)
        else:
            d = _removed(lc, obj, name) or _added_later(lc, obj, name) or _unknown(lc, obj, name)
        if d is not None:
            yield d


def _plugin(lc: LaunchContext, obj: ConfigObject, name: str, plugin: Any) -> Optional[Diagnostic]:
    names = plugin.plugin_names
    install = f"pip install {plugin.pip}" if plugin.pip else f"install the `{plugin.package}` package"
    listed = _vllm_plugins(lc)
    if listed is not None and names and not set(names) & set(listed):
        return RULE.diag(
            value_span(lc, obj, CONNECTOR),
            f"`{name}` comes from the {plugin.name} plugin, which VLLM_PLUGINS={','.join(listed)} leaves out",
            help=f"add `{names[0]}` to VLLM_PLUGINS, or unset it to load every installed plugin",
        )
    if (listed is not None and set(names) & set(listed)) or _sets_plugin_env(lc, plugin):
        return None  # the script sets the plugin up: vcfg has nothing to add
    enable = f"and leave VLLM_PLUGINS unset or list `{names[0]}` in it" if names else ""
    return RULE.diag(
        value_span(lc, obj, CONNECTOR),
        f"`{name}` is not a vllm connector: the {plugin.name} plugin registers it",
        help=f"{install} {enable}".strip() + "; vcfg cannot see installed plugins",
        severity="warning",
    )


def _sets_plugin_env(lc: LaunchContext, plugin: Any) -> bool:
    """The launch gets one of the plugin's own variables from the script."""
    for b in lc.inv.env.values():
        if b.source in ("script", "prefix") and b.exported and not b.unset and plugin.env_var(b.name) is not None:
            return True
    return False


def _vllm_plugins(lc: LaunchContext) -> Optional[list[str]]:
    """VLLM_PLUGINS as this launch sees it, when the script sets it (envs.py:1170 @0.33.0:
    a comma split, no stripping); None when it is unset or not known."""
    b = lc.inv.env.get("VLLM_PLUGINS")
    if b is None or b.unset or not b.exported or b.value is None or b.value.text is None:
        return None
    return b.value.text.split(",")


def _removed(lc: LaunchContext, obj: ConfigObject, name: str) -> Optional[Diagnostic]:
    target = lc.target
    entry = target.knowledge.removed_connector(name, target.version)
    _, since = first_absent_since(target, lambda c: c.connector(name) is not None)
    since = since or (entry.removed_in if entry is not None else None)
    if since is None:
        return None
    notes: tuple[str, ...] = ()
    if entry is not None and entry.replacement:
        help = f"use {entry.replacement_text()}"
        notes = (entry.note,)
    elif entry is not None:
        help = entry.note
    else:
        help = "pick a connector this release registers"
    fx = None
    if entry is not None and entry.migrate == "rename" and lc.catalog.connector(entry.replacement[0]) is not None:
        from vcfg.lint.rules._fix import fix, replace_json_string

        new = entry.replacement[0]
        fx = fix([replace_json_string(lc, obj.ov, (*obj.path, CONNECTOR), new)], "safe", f"rename to `{new}`")
    elif entry is not None and entry.alternatives:
        notes = (*notes, "in-tree alternatives: " + ", ".join(f"`{a}`" for a in entry.alternatives))
    return RULE.diag(
        value_span(lc, obj, CONNECTOR), f"`{name}` was removed in vllm {since}", help=help, notes=notes, fix=fx
    )


def _added_later(lc: LaunchContext, obj: ConfigObject, name: str) -> Optional[Diagnostic]:
    added = first_present_after(lc.target, lambda c: c.connector(name) is not None)
    if added is None:
        return None
    return RULE.diag(
        value_span(lc, obj, CONNECTOR),
        f"`{name}` is not in vllm {lc.target.version}: it arrived in {added}",
        help=f"use vllm {added} or later, or a connector this release registers",
    )


def _unknown(lc: LaunchContext, obj: ConfigObject, name: str) -> Diagnostic:
    registered = [c.name for c in lc.catalog.connectors]
    pool: list[str] = registered + [c for p in lc.target.knowledge.plugins for c in p.connectors]
    same = [c for c in pool if c.lower() == name.lower()]
    # every name ends in "Connector", which inflates similarity: ask for a close match
    near = same or did_you_mean(name, pool, cutoff=0.9)
    if near:
        help: Any = f"did you mean `{near[0]}`?"
    else:
        shown = ", ".join(f"`{c}`" for c in registered[:10]) + (", ..." if len(registered) > 10 else "")
        help = f"vllm {lc.target.version} registers {shown}; a class of your own needs `{MODULE_PATH}`"
    return RULE.diag(
        value_span(lc, obj, CONNECTOR), f"`{name}` is not a connector vllm {lc.target.version} registers", help=help
    )
