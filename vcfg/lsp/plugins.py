"""The plugins a document loads, for completion and hover: lint lays a plugin's overlay
(its variables and connectors, vcfg/catalog/plugins.py) over the release's catalog when
the project config names the plugin or a launch's ``VLLM_PLUGINS`` lists one of its
entry points (vcfg/lint/plugin_view.py); completion and hover see the same catalog.

A request reads only the lines around the cursor, not the launch's environment, so
``VLLM_PLUGINS`` is the value of its last assignment before the cursor's line (``export
VLLM_PLUGINS=a,b``, a ``VLLM_PLUGINS=a cmd`` prefix, a manifest's ``name:
VLLM_PLUGINS`` / ``value:`` pair or a compose ``VLLM_PLUGINS: a`` / ``VLLM_PLUGINS=a``
entry); none: unset, as for a launch that does not set it.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Sequence

_VALUE = r"""(?:"([^"\n]*)"|'([^'\n]*)'|([^\s;&|)'"#]*))"""
#: a shell assignment or a compose/list entry on one line
_ONE_LINE = re.compile(r"""(?:^|[\s;&|(\-"'])VLLM_PLUGINS["']?\s*(?:=|:\s)\s*""" + _VALUE)
#: a Kubernetes env entry: ``- name: VLLM_PLUGINS`` then ``value: ...``
_K8S_NAME = re.compile(r"""^\s*-?\s*name:\s*["']?VLLM_PLUGINS["']?\s*$""")
_K8S_VALUE = re.compile(r"""^\s*value:\s*""" + _VALUE)


def assignments(lines: Sequence[str]) -> list[tuple[int, list[str]]]:
    """(0-based line, the entry names) of each ``VLLM_PLUGINS`` value the lines set."""
    out: list[tuple[int, list[str]]] = []
    for i, s in enumerate(lines):
        if "VLLM_PLUGINS" not in s:
            continue
        m = None
        if _K8S_NAME.match(s) and i + 1 < len(lines):
            m = _K8S_VALUE.match(lines[i + 1])
        else:
            found = list(_ONE_LINE.finditer(s))
            m = found[-1] if found else None
        if m is not None:
            value = next((g for g in m.groups() if g is not None), "")
            out.append((i, value.split(",")))
    return out


class PluginView:
    """A `Target` seen with the plugins one document loads: ``catalog`` has their
    overlays, ``plugins`` lists them, ``base_catalog`` is the release's own; every
    other attribute is the target's."""

    def __init__(self, target: Any, catalog: Any, plugins: list[Any]) -> None:
        self._target = target
        self.catalog = catalog
        self.plugins = tuple(plugins)
        self.base_catalog = target.catalog

    @property
    def version(self) -> str:
        return str(self._target.version)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target, name)


def view_for(target: Any, assigned: Sequence[tuple[int, list[str]]], line: int) -> Any:
    """``target``, or its `PluginView` when a plugin loads at ``line`` (0-based).  Not
    kept between requests: the overlays are found as lint finds them (an overlay
    rebuilt while the server runs is read again), and `overlay` keeps the merged
    catalog per catalog and plugin set."""
    listed: Optional[list[str]] = None
    for at, names in assigned:
        if at <= line:
            listed = names
    if not target.plugins and listed is None:
        return target
    from vcfg.catalog import plugins as pl
    from vcfg.lint.plugin_view import loaded_plugins

    chosen = loaded_plugins(target, listed)
    if not chosen:
        return target
    return PluginView(target, pl.overlay(target.catalog, chosen), [pc for pc, _ in chosen])
