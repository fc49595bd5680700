"""The catalog a launch is checked against when it names a vLLM plugin: the release's
catalog with the plugin's overlay laid over it (vcfg/catalog/plugins.py).

A plugin is named by the project config (``plugins = ["vllm-ascend"]``: every entry
point loads, as vLLM does with ``VLLM_PLUGINS`` unset) or by the launch's own
``VLLM_PLUGINS``, a comma-separated list of entry-point names (vllm/plugins/__init__.py
@0.23.0: ``plugin.name in allowed_plugins``; envs.py splits on commas): a plugin loads
when the list names one of its entries, and only the connectors the listed entries
register exist (vllm-ascend's connectors come from ``ascend_kv_connector``, not from
its platform entry ``ascend``).  A list that leaves a configured plugin out leaves it
out.  Only reached when the project names a plugin or the launch sets ``VLLM_PLUGINS``.
"""

from __future__ import annotations

from typing import Any, Optional

from vcfg.catalog.model import Catalog


def listed_plugins(inv: Any) -> Optional[list[str]]:
    """``VLLM_PLUGINS`` as the launch receives it, split as vLLM splits it; None when
    it is unset, not exported or not known."""
    b = inv.env.get("VLLM_PLUGINS")
    if b is None or b.unset or not b.exported or b.value is None or b.value.text is None:
        return None
    return b.value.text.split(",")


def launch_catalog(lc: Any, target: Any) -> Catalog:
    """The release's catalog, with the overlays of the plugins this launch loads."""
    memo = lc.memo
    hit = memo.get("plugin_catalog")
    if hit is not None and hit[0] is target:
        return hit[1]
    from vcfg.catalog import plugins as pl

    problems: list[str] = []
    chosen = loaded_plugins(target, listed_plugins(lc.inv), problems)
    run = lc.file.run
    for p in problems:  # said once per run (vcfg lint prints them as notes)
        note = f"{p}; left out for the launches that set VLLM_PLUGINS"
        if run is not None and note not in run.notes:
            run.notes.append(note)
    cat = pl.overlay(target.catalog, chosen) if chosen else target.catalog
    memo["plugin_catalog"] = (target, cat, [pc for pc, _ in chosen])
    return cat


def loaded_plugins(
    target: Any, listed: Optional[list[str]], problems: Optional[list[str]] = None
) -> list[tuple[Any, Optional[list[str]]]]:
    """(overlay, the entries it loads or None for all) of each plugin that loads with
    ``VLLM_PLUGINS`` set to ``listed`` (None: unset) under ``target``'s project config;
    the language server's completion and hover use it too (vcfg/lsp/plugins.py).  An
    overlay that cannot be read is left out, and why is added to ``problems``."""
    from vcfg.catalog import plugins as pl

    chosen: list[tuple[Any, Optional[list[str]]]] = []
    for pc in target.plugins:
        if listed is None:
            chosen.append((pc, None))
        elif set(listed) & set(pc.entry_names):
            chosen.append((pc, listed))
    if listed is not None:
        have = {pc.name for pc, _ in chosen}
        try:
            found = pl.named_by_entries(listed, problems)
        except Exception as e:  # noqa: BLE001 - a broken user overlay must not stop the lint
            found = []
            if problems is not None:
                problems.append(f"the plugin overlays could not be read ({type(e).__name__}: {e})")
        chosen += [(pc, listed) for pc in found if pc.name not in have]
    return chosen


def named_plugins(lc: Any) -> list[Any]:
    """The overlays this launch loads."""
    lc.catalog  # noqa: B018 - fills the memo
    hit = lc.memo.get("plugin_catalog")
    return list(hit[2]) if hit is not None else []
