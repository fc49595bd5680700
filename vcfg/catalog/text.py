"""A catalog as plain text, for `vcfg catalog show`."""

from __future__ import annotations

import json
from typing import Any

from vcfg.catalog.model import Catalog


def _v(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 50 else text[:47] + "..."


def render_catalog(cat: Catalog) -> str:
    out = [
        f"vllm {cat.vllm_version}: {len(cat.flags)} flags, {len(cat.env_vars)} environment "
        f"variables, {len(cat.configs)} config classes, {len(cat.connectors)} KV connectors",
        "",
        "flags:",
    ]
    for f in cat.flags:
        extra = f" choices={_v(f.choices)}" if f.choices else ""
        where = f"  [{f.config_class}.{f.config_field}]" if f.config_class else ""
        dep = " (deprecated)" if f.deprecated else ""
        out.append(
            f"  {', '.join(f.option_strings) or f.dest}  type={f.type} default={_v(f.default)}{extra}{where}{dep}"
        )
    out += ["", "environment variables:"]
    for e in cat.env_vars:
        choices = f" choices={_v(e.choices)}" if e.choices else ""
        out.append(f"  {e.name}  {e.type} = {_v(e.default)}  ({e.parse}){choices}  {e.loc}")
    out += ["", "config classes:"]
    for c in cat.configs:
        out.append(f"  {c.name}  {len(c.fields)} fields  {c.loc}")
    out += ["", "KV connectors:"]
    for k in cat.connectors:
        keys = ", ".join(x.name for x in k.extra_keys)
        out.append(f"  {k.name}  {k.module}.{k.class_name}  {k.loc}")
        if keys:
            out.append(f"      extra-config keys: {keys}")
    return "\n".join(out)
