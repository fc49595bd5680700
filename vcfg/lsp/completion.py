"""Completion items for a `Cursor`, from the release's catalog and the knowledge packs:
flags with their types and defaults, the values of a flag or a variable that has
choices, variable names, the keys and values of a JSON-valued flag (connector names,
roles, the extra-config keys of the chosen connector), serve-config keys.

Items per release are built once (`_flag_items`, `_env_items`) and filtered by the
typed prefix on each request; at most `MAX_ITEMS` go back, marked incomplete when cut.
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional, Sequence

from vcfg.lsp.context import Cursor
from vcfg.records import record
from vcfg.schema.kvtransfer import CONNECTOR, EXTRA

MAX_ITEMS = 200
#: lines around the cursor searched for the chosen ``kv_connector``
CONNECTOR_WINDOW = 40


@record(frozen=True)
class Item:
    label: str
    #: "flag", "value", "env", "key", "connector"
    kind: str
    detail: str = ""
    doc: str = ""
    insert: Optional[str] = None
    deprecated: bool = False
    #: sorts before the others (the default value, the flag's main spelling)
    preferred: bool = False


def _show(v: Any) -> str:
    if isinstance(v, dict) and "$dynamic" in v:
        return f"({v['$dynamic']})"
    return v if isinstance(v, str) and v else json.dumps(v, ensure_ascii=False)


def _default(v: Any) -> str:
    """`` = value`` for a detail line; nothing for no default (None, argparse's SUPPRESS)."""
    if v is None or v == "==SUPPRESS==":
        return ""
    d = _show(v)
    return f" = {d if len(d) <= 40 else d[:37] + '...'}"


def flag_type(f: Any) -> str:
    """A flag's value in a few words: ``int``, ``{auto,half,...}``, ``no value``."""
    if f.action in ("store_true", "store_false", "store_const", "count", "help", "version"):
        return "no value"
    if f.action == "enable_disable":
        return "switch, no value"
    if f.choices:
        shown = ",".join(_show(c) for c in f.choices[:8])
        return "{" + shown + (",..." if len(f.choices) > 8 else "") + "}"
    if f.type == "config" and f.config_class_of_value:
        return f"JSON ({f.config_class_of_value})"
    base = f.type or "str"
    if f.nargs in ("+", "*"):
        base += " ..."
    return base


def flag_detail(f: Any) -> str:
    if f.action in ("store_true", "store_false", "help"):
        return flag_type(f)
    if f.action == "enable_disable":
        return flag_type(f) + ("" if not isinstance(f.default, bool) else " (on)" if f.default else " (off)")
    return flag_type(f) + _default(f.default)


def _loc(x: Any) -> str:
    return f"`vllm/{x}`" if x and not str(x).startswith("vllm/") else f"`{x}`"


#: id(catalog or knowledge) and a name -> (the object, what was built from it)
_BUILT: dict[tuple[Any, ...], tuple[Any, Any]] = {}


def per_release(name: str, *objs: Any) -> Any:
    """A decorator-free cache of what is built once per catalog (records are not
    hashable by value, and hashing a catalog would cost more than building)."""
    key = (name, *(id(o) for o in objs))
    hit = _BUILT.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], objs)):
        return hit[1]
    return None


def _keep(name: str, objs: tuple[Any, ...], value: Any) -> Any:
    _BUILT[(name,) + tuple(id(o) for o in objs)] = (objs, value)
    while len(_BUILT) > 48:
        del _BUILT[next(iter(_BUILT))]
    return value


def _flag_items(cat: Any, bare: bool) -> tuple[Item, ...]:
    """Every option of the release (``bare``: as serve-config keys, without ``--``)."""
    hit = per_release(f"flags:{bare}", cat)
    if hit is not None:
        return hit
    out = []
    for f in cat.flags:
        if f.positional:
            continue
        longs = [s for s in f.option_strings if s.startswith("--")]
        if not longs:
            continue
        main = f.long_name
        lines = [f"**{main}** ({flag_detail(f)})"]
        if f.config_class and f.config_field:
            lines.append(f"sets `{f.config_class}.{f.config_field}`")
        if f.choices:
            lines.append("choices: " + ", ".join(f"`{_show(c)}`" for c in f.choices[:30]))
        if f.loc:
            lines.append(f"defined at {_loc(f.loc)}")
        if f.deprecated:
            lines.append("deprecated")
        lines.append(f"vllm {cat.vllm_version}; more: `vcfg explain {main}`")
        doc = "\n\n".join(lines)
        for s in longs:
            if bare and (s.startswith("--no-") and s != main):
                continue
            label = s[2:] if bare else s
            out.append(Item(label, "flag", flag_detail(f), doc, deprecated=f.deprecated, preferred=s == main))
    return _keep(f"flags:{bare}", (cat,), tuple(out))


def _plugin_of(plugins: Sequence[Any], name: str) -> Any:
    """The plugin (of a `vcfg.lsp.plugins.PluginView`) that reads variable ``name``."""
    return next((pc for pc in plugins if pc.env(name) is not None), None)


def _env_items(cat: Any, knowledge: Any, base: Any = None, plugins: Sequence[Any] = ()) -> tuple[Item, ...]:
    """Every variable of ``cat``; ``base``: vLLM's own catalog when ``cat`` has the
    overlays of ``plugins`` (their variables say which plugin reads them)."""
    hit = per_release("env", cat, knowledge)
    if hit is not None:
        return hit
    out = []
    for e in cat.env_vars:
        detail = e.type + _default(e.default)
        pc = _plugin_of(plugins, e.name) if base is not None and base.env(e.name) is None else None
        if pc is not None:
            doc = [f"**{e.name}** ({detail}): read by the {pc.label} plugin, not by vLLM", f"defined at `{e.loc}`"]
            out.append(Item(e.name, "env", f"{detail} (plugin {pc.name})", "\n\n".join(doc)))
            continue
        doc = [f"**{e.name}** ({detail})"]
        if e.choices:
            doc.append("choices: " + ", ".join(f"`{c}`" for c in e.choices))
        doc.append(f"defined at {_loc(e.loc)}")
        doc.append(f"vllm {cat.vllm_version}; more: `vcfg explain {e.name}`")
        out.append(Item(e.name, "env", detail, "\n\n".join(doc)))
    known = {e.name for e in cat.env_vars}
    for p in knowledge.plugins:
        for pe in p.env:
            if pe.name not in known:
                out.append(
                    Item(
                        pe.name,
                        "env",
                        f"{pe.type or 'str'} (plugin {p.name})",
                        f"**{pe.name}**: read by the {p.name} plugin, not by vLLM itself; {pe.meaning}",
                    )
                )
    return _keep("env", (cat, knowledge), tuple(out))


def _filter(items: Sequence[Item], prefix: str, fold: bool = False) -> tuple[list[Item], bool]:
    if fold:
        p = prefix.lower()
        hits = [i for i in items if i.label.lower().startswith(p)]
    else:
        hits = [i for i in items if i.label.startswith(prefix)]
    if not hits and prefix:
        # a typo or a middle part: names that contain it
        p = prefix.lower().lstrip("-")
        hits = [i for i in items if p in i.label.lower()]
    return hits[:MAX_ITEMS], len(hits) > MAX_ITEMS


def _flag(cat: Any, name: str) -> Any:
    if not name.startswith("-"):
        name = "--" + name
    head = name.split(".", 1)[0]
    return cat.flag(head) or cat.flag(head.replace("_", "-"))


def json_flags(cat: Any) -> frozenset[str]:
    """Option strings whose value is JSON of a config class."""
    hit = per_release("json", cat)
    if hit is not None:
        return hit
    out = set()
    for f in cat.flags:
        if f.config_class_of_value or f.type in ("json", "config"):
            out.update(f.option_strings)
    return _keep("json", (cat,), frozenset(out))


def config_class_at(cat: Any, flag: str, path: Sequence[str]) -> tuple[Any, Optional[str]]:
    """The config class of the object at ``path`` in the flag's JSON value, or (None,
    "extra") for the extra config of a connector."""
    f = _flag(cat, flag)
    if f is None or not f.config_class_of_value:
        return None, None
    cls = cat.config(f.config_class_of_value)
    for i, key in enumerate(path):
        if cls is None:
            return None, None
        if key == EXTRA and i == len(path) - 1:
            return cls, "extra"
        fld = cls.field(key)
        if fld is None or not fld.nested:
            return None, None
        cls = cat.config(fld.nested)
    return cls, None


def connector_near(lines: Sequence[str], line: int, json_text: str) -> Optional[str]:
    """The ``kv_connector`` chosen in the JSON (or YAML) around the cursor."""
    pat = re.compile(r"""kv_connector\\?["']?\s*:\s*\\?["']?([A-Za-z0-9_.]+)""")
    m = pat.search(json_text)
    if m:
        return m.group(1)
    best: Optional[tuple[int, str]] = None
    for i in range(max(0, line - CONNECTOR_WINDOW), min(len(lines), line + CONNECTOR_WINDOW)):
        for m in pat.finditer(lines[i][:4096]):
            d = abs(i - line)
            if best is None or d < best[0]:
                best = (d, m.group(1))
    return best[1] if best else None


def complete(c: Cursor, target: Any, lines: Sequence[str], line: int) -> tuple[list[Item], bool]:
    """The items for cursor ``c`` and whether the list was cut."""
    cat = target.catalog
    if c.kind == "flag":
        prefix = c.prefix if not c.bare_keys else c.prefix.replace("_", "-")
        return _filter(_flag_items(cat, c.bare_keys), prefix)
    if c.kind == "flag_value":
        return _filter(_flag_values(cat, c), c.prefix, fold=True)
    if c.kind == "env_name":
        base = getattr(target, "base_catalog", None)
        return _filter(_env_items(cat, target.knowledge, base, getattr(target, "plugins", ())), c.prefix)
    if c.kind == "env_value":
        return _filter(_env_values(cat, c.env or ""), c.prefix, fold=True)
    if c.kind == "json_key":
        return _filter(_json_keys(target, c, lines, line), c.prefix)
    if c.kind == "json_value":
        return _filter(_json_values(target, c, lines, line), c.prefix, fold=True)
    return [], False


def _flag_values(cat: Any, c: Cursor) -> list[Item]:
    f = _flag(cat, c.flag or "")
    if f is None:
        return []
    values = f.choices or f.metavar_choices
    if not values:
        if c.bare_keys and f.type is None:
            values = [True, False]
        elif f.type == "bool":
            values = ["true", "false"]
        else:
            return []
    return [
        Item(_show(v), "value", "default" if v == f.default else f"choice of {f.long_name}", preferred=v == f.default)
        for v in values
    ]


def _env_values(cat: Any, name: str) -> list[Item]:
    e = cat.env(name)
    if e is None:
        return []
    values = list(e.choices or [])
    if not values and (e.parse == "bool_int" or e.type == "bool"):
        values = ["1", "0"]
    return [
        Item(str(v), "value", "default" if v == e.default else f"choice of {name}", preferred=v == e.default)
        for v in values
    ]


def _quoted(c: Cursor, name: str) -> Optional[str]:
    """The text to insert for a JSON key or string value typed without its quote."""
    if c.in_string or c.quote == "yaml":
        return None
    q = '\\"' if c.quote == '"' else '"'
    return f"{q}{name}{q}"


def _json_keys(target: Any, c: Cursor, lines: Sequence[str], line: int) -> list[Item]:
    cat = target.catalog
    cls, special = config_class_at(cat, c.flag or "", c.path)
    if special == "extra":
        return _extra_keys(target, c, lines, line)
    if cls is None:
        return []
    out = []
    for fld in cls.fields:
        if not fld.init or fld.init_var or fld.name.startswith("_"):
            continue
        detail = fld.type + _default(fld.default)
        doc = f"**{cls.name}.{fld.name}** ({detail})\n\ndefined at {_loc(fld.loc)}"
        out.append(Item(fld.name, "key", detail, doc, insert=_quoted(c, fld.name)))
    return out


def _extra_keys(target: Any, c: Cursor, lines: Sequence[str], line: int) -> list[Item]:
    name = connector_near(lines, line, c.json_text)
    if not name:
        return []
    cat = target.catalog
    k = cat.connector(name)
    facts = target.knowledge.connector_facts(name, target.version)
    out: dict[str, Item] = {}
    for x in k.extra_keys if k is not None else []:
        detail = (x.type or "any") + (_default(x.default) if x.has_default else " (required)")
        doc = f"**{name}** extra-config key `{x.name}` ({detail})\n\nread at {_loc(x.loc)}"
        out[x.name] = Item(x.name, "key", detail, doc, insert=_quoted(c, x.name))
    for kf in facts.keys if facts is not None else []:
        if kf.name in out:
            continue
        detail = ("required" if kf.required else "optional") + (f"; {kf.required_when}" if kf.required_when else "")
        out[kf.name] = Item(kf.name, "key", detail, kf.note or "", insert=_quoted(c, kf.name))
    return list(out.values())


def _json_values(target: Any, c: Cursor, lines: Sequence[str], line: int) -> list[Item]:
    cat = target.catalog
    cls, special = config_class_at(cat, c.flag or "", c.path)
    key = c.key or ""
    if special == "extra":
        facts = target.knowledge.connector_facts(connector_near(lines, line, c.json_text) or "", target.version)
        kf = facts.key(key) if facts is not None else None
        if kf is None or not kf.choices:
            return []
        return [
            Item(_show(v), "value", f"choice of {key}", insert=_quoted(c, _show(v)) if isinstance(v, str) else None)
            for v in kf.choices
        ]
    if cls is None:
        return []
    if key == CONNECTOR and cls.field(CONNECTOR) is not None:
        out = []
        plugins = getattr(target, "plugins", ()) if getattr(target, "base_catalog", None) is not None else ()
        for k in cat.connectors:
            pc = next((p for p in plugins if any(x is k for x in p.connectors)), None)
            where = f"`{k.loc}` ({pc.label} plugin)" if pc is not None else _loc(k.loc)
            out.append(
                Item(
                    k.name,
                    "connector",
                    f"KV connector ({k.class_name})" + (f", plugin {pc.name}" if pc is not None else ""),
                    f"**{k.name}**: `{k.module}.{k.class_name}`\n\nregistered at {where}",
                    insert=_quoted(c, k.name),
                )
            )
        known = {k.name for k in cat.connectors}
        for p in target.knowledge.plugins:
            for name in p.connectors:
                if name not in known:
                    out.append(Item(name, "connector", f"plugin {p.name}", insert=_quoted(c, name)))
        return out
    fld = cls.field(key)
    if fld is None:
        return []
    values = list(fld.choices or [])
    if not values and fld.type == "bool":
        values = [True, False]
    out = []
    for v in values:
        if v is None:
            continue
        text = _show(v)
        out.append(
            Item(
                text,
                "value",
                "default" if v == fld.default else f"choice of {cls.name}.{key}",
                insert=_quoted(c, text) if isinstance(v, str) else None,
                preferred=v == fld.default,
            )
        )
    return out
