"""Hover: what `vcfg explain` says of the word under the cursor (a flag, a variable, a
JSON key, an extra-config key, a connector, a rule code), in short, with the vLLM
file:line.  Built from the target's catalog, the knowledge packs and the bundled
history index (vcfg/catalog/history.py): no other release is loaded."""

from __future__ import annotations

import json
import re
from typing import Any, Optional, Sequence

from vcfg.lsp import completion
from vcfg.lsp.context import NAME_CHARS, at, word_at
from vcfg.schema.kvtransfer import CONNECTOR

_RULE = re.compile(r"VC\d{3}")


def _v(value: Any) -> str:
    if isinstance(value, dict) and "$dynamic" in value:
        return f"({value['$dynamic']})"
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) or not value else value


def _at(loc: Any) -> str:
    s = str(loc)
    return f"`{s if s.startswith('vllm/') else 'vllm/' + s}`"


def history_line(kind: str, name: str, version: str) -> Optional[str]:
    """When ``name`` appeared or went, across the bundled releases."""
    from vcfg.catalog.history import load_index
    from vcfg.catalog.store import version_key

    index = load_index()
    bits = index.get(kind, {}).get(name)
    versions = index.get("versions", [])
    if not bits or not versions:
        return None
    present = [v for v, b in zip(versions, bits) if b == "1"]
    if not present:
        return None
    first, last = present[0], present[-1]
    parts = []
    if first != versions[0]:
        parts.append(f"added in {first}")
    if last != versions[-1]:
        later = [v for v in versions if version_key(v) > version_key(last)]
        if later:
            parts.append(f"removed in {later[0]}")
    gaps = len(present) != versions.index(last) - versions.index(first) + 1
    if gaps:
        parts.append("absent from some releases in between")
    if not parts:
        return f"in every bundled release ({versions[0]} to {versions[-1]})"
    return "; ".join(parts)


def _footer(topic: str, version: str) -> str:
    return f"vllm {version} · `vcfg explain {topic}`"


def hover(lines: Sequence[str], line: int, col: int, style: str, target: Any) -> Optional[tuple[str, int, int]]:
    """Markdown for the word at (``line``, ``col``) and the word's columns, or None."""
    text = lines[line] if 0 <= line < len(lines) else ""
    if col > len(text) or (
        col < len(text) and not NAME_CHARS.match(text[col]) and (col == 0 or not NAME_CHARS.match(text[col - 1]))
    ):
        return None
    a, b = word_at(text, col)
    word = text[a:b]
    if not word or len(word) > 200:
        return None
    cat = target.catalog
    c = at(lines, line, b, style, completion.json_flags(cat))
    md: Optional[str] = None
    if c.kind == "flag":
        md = flag_md(target, c.prefix if not c.bare_keys else "--" + c.prefix)
    elif c.kind in ("env_name",):
        md = env_md(target, c.prefix)
    elif c.kind == "env_value" and word == (c.env or ""):
        md = env_md(target, word)
    elif c.kind == "flag_value":
        if cat.connector(word) is not None:
            md = connector_md(target, word)
        else:
            md = flag_md(target, c.flag or "")
    elif c.kind == "json_key":
        md = json_key_md(target, c.flag or "", c.path, c.prefix, lines, line, c.json_text)
    elif c.kind == "json_value":
        if c.key == CONNECTOR or cat.connector(word) is not None:
            md = connector_md(target, word)
        elif c.key:
            md = json_key_md(target, c.flag or "", c.path, c.key, lines, line, c.json_text)
    if md is None:
        md = _by_shape(target, word)
    return (md, a, b) if md else None


def _by_shape(target: Any, word: str) -> Optional[str]:
    cat = target.catalog
    if _RULE.fullmatch(word):
        return rule_md(word)
    if word.startswith("--"):
        return flag_md(target, word)
    if cat.env(word) is not None or word.startswith("VLLM_"):
        return env_md(target, word)
    if cat.connector(word) is not None or target.knowledge.plugin_of_connector(word) is not None:
        return connector_md(target, word)
    return None


def _absent_md(what: str, name: str, v: str, hist: Optional[str], gone: Any) -> Optional[str]:
    """A name the release does not have: its history and the removed-name entry, or
    None when vcfg knows nothing of it."""
    if hist is None and gone is None:
        return None
    out = [f"**{name}**: not {what} of vllm {v}"]
    if hist:
        out.append(hist)
    if gone is not None:
        out.append(gone.sentences())
    out.append(_footer(name, v))
    return "\n\n".join(out)


def flag_md(target: Any, name: str) -> Optional[str]:
    cat = target.catalog
    from vcfg.explain.topics import normalise_flag

    name = normalise_flag(name.split("=", 1)[0])
    f = completion._flag(cat, name)
    v = cat.vllm_version
    if f is None:
        return _absent_md("an option", name, v, history_line("flag", name, v), target.knowledge.removed_flag(name))
    out = [f"**{f.long_name}** `{completion.flag_detail(f)}`"]
    facts = []
    if f.config_class and f.config_field:
        facts.append(f"sets `{f.config_class}.{f.config_field}`")
    if f.choices:
        facts.append("choices: " + ", ".join(f"`{_v(x)}`" for x in f.choices[:20]))
    if f.deprecated:
        facts.append("deprecated")
    if len(f.option_strings) > 1:
        facts.append("also " + ", ".join(f"`{s}`" for s in f.option_strings if s != f.long_name))
    if facts:
        out.append(" · ".join(facts))
    if f.loc:
        out.append(f"defined at {_at(f.loc)}")
    hist = history_line("flag", f.long_name, v)
    if hist:
        out.append(hist)
    out.append(_footer(f.long_name, v))
    return "\n\n".join(out)


def env_md(target: Any, name: str) -> Optional[str]:
    cat = target.catalog
    v = cat.vllm_version
    # vLLM's own variable, else one of the plugins the document loads (the catalog of a
    # `vcfg.lsp.plugins.PluginView` has their overlays; its base catalog is vLLM's)
    e = getattr(target, "base_catalog", cat).env(name)
    if e is None:
        for pc in getattr(target, "plugins", ()):  # the project's plugins (vcfg/catalog/plugins.py)
            pe = pc.env(name)
            if pe is not None:
                detail = pe.type + (f" = {_v(pe.default)}" if pe.default is not None else "")
                return "\n\n".join(
                    [
                        f"**{name}** `{detail}`: read by the {pc.label} plugin, not by vLLM",
                        f"defined at `{pe.loc}` ({pc.name})",
                        _footer(name, v),
                    ]
                )
        plugin = target.knowledge.plugin_of_env(name)
        if plugin is not None:
            pe = plugin.env_var(name)
            return "\n\n".join(
                [
                    f"**{name}**: read by the {plugin.name} plugin, not by vLLM",
                    pe.meaning if pe else "",
                    _footer(name, v),
                ]
            )
        return _absent_md("a variable", name, v, history_line("env", name, v), target.knowledge.removed_env(name))
    detail = e.type + (f" = {_v(e.default)}" if e.default is not None else "")
    out = [f"**{name}** `{detail}`"]
    if e.choices:
        out.append("choices: " + ", ".join(f"`{x}`" for x in e.choices))
    if e.can_raise:
        out.append("a bad value makes vLLM raise when it reads the variable")
    out.append(f"defined at {_at(e.loc)}")
    hist = history_line("env", name, v)
    if hist:
        out.append(hist)
    out.append(_footer(name, v))
    return "\n\n".join(out)


def json_key_md(
    target: Any, flag: str, path: Sequence[str], key: str, lines: Sequence[str], line: int, json_text: str
) -> Optional[str]:
    cat = target.catalog
    v = cat.vllm_version
    cls, special = completion.config_class_at(cat, flag, path)
    if special == "extra":
        name = completion.connector_near(lines, line, json_text)
        if not name:
            return None
        k = cat.connector(name)
        x = next((x for x in (k.extra_keys if k else []) if x.name == key), None)
        facts = target.knowledge.connector_facts(name, target.version)
        kf = facts.key(key) if facts is not None else None
        if x is None and kf is None:
            return f"**{key}**: {name} does not read this extra-config key in vllm {v}\n\n{_footer(name, v)}"
        out = [f"**{name}** extra-config key **{key}**"]
        if x is not None:
            out.append(f"`{x.type or 'any'}`" + (f" = `{_v(x.default)}`" if x.has_default else ", required"))
            out.append(f"read at {_at(x.loc)}")
        if kf is not None:
            if kf.required or kf.required_when:
                out.append("required" + (f" {kf.required_when}" if kf.required_when else ""))
            if kf.note:
                out.append(kf.note)
        out.append(_footer(name, v))
        return "\n\n".join(out)
    if cls is None:
        return None
    fld = cls.field(key)
    if fld is None:
        hist = history_line("field", f"{cls.name}.{key}", v)
        return "\n\n".join(
            x
            for x in [f"**{key}**: not a field of `{cls.name}` in vllm {v}", hist, _footer(f"{cls.name}.{key}", v)]
            if x
        )
    detail = fld.type + (f" = {_v(fld.default)}" if fld.default is not None else "")
    out = [f"**{cls.name}.{fld.name}** `{detail}`"]
    if fld.choices:
        out.append("choices: " + ", ".join(f"`{_v(x)}`" for x in fld.choices))
    if fld.constraint is not None:
        bounds = [
            f"{op} {getattr(fld.constraint, op)}"
            for op in ("gt", "ge", "lt", "le")
            if getattr(fld.constraint, op) is not None
        ]
        if bounds:
            out.append("must be " + ", ".join(bounds))
    out.append(f"defined at {_at(fld.loc)}")
    hist = history_line("field", f"{cls.name}.{fld.name}", v)
    if hist:
        out.append(hist)
    out.append(_footer(f"{cls.name}.{fld.name}", v))
    return "\n\n".join(out)


def connector_md(target: Any, name: str) -> Optional[str]:
    cat = target.catalog
    v = cat.vllm_version
    k = cat.connector(name)
    facts = target.knowledge.connector_facts(name, target.version)
    if k is None:
        plugin = target.knowledge.plugin_of_connector(name)
        if plugin is not None:
            return f"**{name}**: registered by the {plugin.name} plugin (`{plugin.package}`)\n\n{_footer(name, v)}"
        hist = history_line("connector", name, v)
        if hist is None:
            return None
        gone = target.knowledge.removed_connector(name)
        return "\n\n".join(
            x
            for x in [
                f"**{name}**: not a connector of vllm {v}",
                hist,
                gone.sentences() if gone else None,
                _footer(name, v),
            ]
            if x
        )
    owner = next((pc for pc in getattr(target, "plugins", ()) if any(c is k for c in pc.connectors)), None)
    where = f"`{k.loc}` ({owner.label} plugin)" if owner is not None else _at(k.loc)
    out = [f"**{name}** KV connector: `{k.module}.{k.class_name}`", f"registered at {where}"]
    if k.extra_keys:
        out.append("extra-config keys: " + ", ".join(f"`{x.name}`" for x in k.extra_keys))
    if facts is not None:
        for r in facts.roles:
            roles = [
                f"{side} {'/'.join(names)}" for side, names in (("prefill", r.prefill), ("decode", r.decode)) if names
            ]
            if roles:
                out.append("roles: " + ", ".join(roles))
        if facts.proxy:
            out.append(f"proxy: {facts.proxy}")
    hist = history_line("connector", name, v)
    if hist:
        out.append(hist)
    out.append(_footer(name, v))
    return "\n\n".join(out)


def rule_md(code: str) -> Optional[str]:
    from vcfg.lint.registry import all_rules

    r = next((r for r in all_rules() if r.code == code), None)
    if r is None:
        return None
    return (
        f"**{r.code} {r.name}** ({r.severity}): {r.summary}\n\n"
        f"`vcfg explain {r.code}` · docs/rules/{r.code}-{r.name}.md"
    )
