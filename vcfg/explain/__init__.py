"""`vcfg explain TOPIC`: what a flag, variable, field, class, connector or rule is,
where vLLM defines it, how it flows, when a mistake in it surfaces, and its history."""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from vcfg.catalog import store
from vcfg.catalog.model import Catalog
from vcfg.explain import facts
from vcfg.explain.topics import Topic, resolve
from vcfg.records import dump

#: rule code -> docs, provided by vcfg.lint when it is importable (kept lazy)
RuleDocs = Callable[[], dict[str, dict[str, Any]]]


def _rule_docs() -> dict[str, dict[str, Any]]:
    try:
        from vcfg.lint.registry import rule_docs
    except ImportError:
        return {}
    return rule_docs()


def explain(
    asked: str,
    version: Optional[str] = None,
    *,
    with_help: bool = True,
    rule_docs: RuleDocs = _rule_docs,
    knowledge_dirs: Sequence[Any] = (),
    plugins: Sequence[str] = (),
) -> dict[str, Any]:
    """``knowledge_dirs``: the project's extra packs (its ``knowledge`` setting), so a
    plugin the project describes is explained as `vcfg lint` knows it.  ``plugins``:
    the plugins named (``--plugin``, the project's ``plugins``): their overlays are laid
    over the catalog, as `vcfg lint` does for a launch that names them."""
    from vcfg.catalog import plugins as pl
    from vcfg.catalog.knowledge import load_packs

    cat, note = store.load(version)
    named = [pl.find(p) for p in plugins]
    if named:
        cat = pl.overlay(cat, [(pc, None) for pc in named])
    history = store.history_between(store.bundled_versions()[0], store.bundled_versions()[-1])
    knowledge = load_packs(knowledge_dirs)
    rules = rule_docs()
    plugin_envs = {e.name for p in knowledge.plugins for e in p.env}
    plugin_connectors = {c for p in knowledge.plugins for c in p.connectors}
    # the variables of plugins not named: explained from their overlays, with how to name them
    unnamed = {pc.name: pc for pc in _overlays() if pc.name not in {n.name for n in named}}
    plugin_envs |= {e.name for pc in unnamed.values() for e in pc.env_vars if cat.env(e.name) is None}
    topic = resolve(asked, cat, history, {c: d["name"] for c, d in rules.items()}, plugin_envs, plugin_connectors)
    out: dict[str, Any] = {
        "topic": asked,
        "kind": topic.kind,
        "name": topic.key,
        "vllm_version": cat.vllm_version,
        "exists": not topic.absent,
    }
    if note:
        out["version_note"] = note
    builder = _BUILDERS[topic.kind]
    out.update(builder(topic, cat, history, knowledge, rules))
    owner = _owner(topic, cat, named) if named else None
    if owner is not None:  # a named plugin's own variable or connector
        with_help = False  # vLLM's prose does not describe it
        out["facts"] = {"plugin": owner.label, **out.get("facts", {})}
        out.pop("history", None)
        if topic.kind == "env":
            out["flow"] = [
                {
                    "stage": "read",
                    "where": out["flow"][0]["where"][:1],
                    "what": f"{owner.package}/envs.py parses it when the plugin's code reads it "
                    "(vLLM itself never does)",
                }
            ]
            out["surfaces"] = [
                "a value the plugin cannot parse: when its code first reads the variable"
                if out["facts"].get("can_raise")
                else "never: any text is accepted"
            ]
    elif topic.kind == "plugin_env" and knowledge.plugin_of_env(topic.key) is None:
        out.update(_overlay_env(topic.key, list(unnamed.values())))
    if with_help and topic.kind in ("flag", "env", "field") and not topic.absent:
        loc = out.pop("_doc_loc", None)
        text, how = _help(cat, loc, topic.kind)
        out["help_text"] = text
        if how:
            out["help_note"] = how
    out.pop("_doc_loc", None)
    return out


def _overlays() -> list[Any]:
    """The newest overlay of every plugin vcfg has one for (bundled or built)."""
    from vcfg.catalog import plugins as pl

    out = []
    for name in sorted({n for n, _, _ in pl.available()}):
        try:
            out.append(pl.find(name))
        except Exception:  # noqa: BLE001 - a broken user overlay: leave it out
            continue
    return out


def _owner(topic: Topic, cat: Catalog, named: list[Any]) -> Any:
    """The named plugin whose own file defines the topic, if any."""
    if topic.kind == "env":
        loc = getattr(cat.env(topic.key), "loc", None)
    elif topic.kind == "connector":
        loc = getattr(cat.connector(topic.key), "loc", None)
    else:
        return None
    for pc in named:
        if loc is not None and loc.file.startswith(pc.package + "/"):
            return pc
    return None


def _overlay_env(name: str, overlays: list[Any]) -> dict[str, Any]:
    """A variable of a plugin that is not named: its facts, and how to name it."""
    for pc in overlays:
        e = pc.env(name)
        if e is None:
            continue
        platform = [x.name for x in pc.entry_points if x.group == "vllm.platform_plugins"]
        return {
            "facts": {
                "plugin": pc.label,
                "type": e.type,
                "default": e.default,
                "parse": e.parse,
                "can_raise": e.can_raise,
            },
            "defined_at": str(e.loc),
            "note": (
                f"not a vLLM variable: the {pc.name} plugin reads it. vcfg lint knows it when the "
                f'plugin is named: the project\'s `plugins = ["{pc.name}"]`'
                + (f" or VLLM_PLUGINS listing `{platform[0]}`" if platform else "")
                + f"; here: --plugin {pc.name}"
            ),
        }
    return {}


def _help(cat: Catalog, loc: Any, kind: str) -> tuple[Optional[str], Optional[str]]:
    from vcfg.explain.prose import help_text

    return help_text(cat, loc, kind)


def _absent(
    topic: Topic,
    cat: Catalog,
    hist: dict[str, Any],
    what: str,
    knowledge: Any = None,
    removed_kind: str | None = None,
) -> dict[str, Any]:
    """The answer for something the release does not have: since when, its history, and
    what the knowledge packs say replaced it (``removed_kind``: its kind there)."""
    gone = hist.get("removed_in")
    msg = f"{what} `{topic.key}` does not exist in vllm {cat.vllm_version}"
    if gone:
        msg += f": it was removed in {gone}"
    elif hist.get("added_in"):
        msg += f": it was added in {hist['added_in']}"
    out: dict[str, Any] = {"absent": msg, "history": hist}
    e = knowledge.removed(removed_kind, topic.key) if removed_kind else None
    if e is not None:
        note: dict[str, Any] = {"replacement": getattr(e, "replacement", None) or None}
        for attr in ("note", "removed_in"):
            v = getattr(e, attr, None)
            if v:
                note[attr] = v
        out["removed"] = note
    return out


def _flag(topic: Topic, cat: Catalog, history: list[Catalog], knowledge: Any, rules: Any) -> dict[str, Any]:
    hist = facts.history("flag", topic.key, history)
    f = cat.flag(topic.key)
    if f is None:
        return _absent(topic, cat, hist, "flag", knowledge, "flag")
    value_cls = cat.config(f.config_class_of_value) if f.config_class_of_value else None
    out: dict[str, Any] = {
        "facts": {
            "option_strings": f.option_strings,
            "dest": f.dest,
            "type": f.type,
            "nargs": f.nargs,
            "choices": f.choices,
            "suggested_values": f.metavar_choices,
            "default": f.default,
            "action": f.action,
            "group": f.group,
            "deprecated": f.deprecated,
            "config": f"{f.config_class}.{f.config_field}" if f.config_class else None,
            "value_class": f.config_class_of_value,
        },
        "defined_at": str(f.loc) if f.loc else None,
        "flow": facts.flag_flow(cat, f),
        "surfaces": facts.flag_surfaces(cat, f, value_cls),
        "history": hist,
    }
    if f.config_class and f.config_field:
        cls = cat.config(f.config_class)
        fld = cls.field(f.config_field) if cls else None
        if fld is not None:
            out["facts"]["constraint"] = dump(fld.constraint, exclude_none=True) if fld.constraint else None
            out["_doc_loc"] = fld.loc
    if value_cls is not None:
        out["related"] = {
            "fields": [
                {"name": x.name, "type": x.type, "default": x.default, "choices": x.choices}
                for x in value_cls.fields
                if x.init and not x.init_var and not x.name.startswith("_")
            ],
        }
        if value_cls.name == "KVTransferConfig":
            gone: list[dict[str, str]] = []
            current = {k.name for k in cat.connectors}
            for old in history:
                for k in old.connectors:
                    if k.name not in current and k.name not in [g["name"] for g in gone]:
                        h = facts.history("connector", k.name, history)
                        if h["removed_in"] and store.version_key(h["removed_in"]) <= store.version_key(
                            cat.vllm_version
                        ):
                            gone.append({"name": k.name, "removed_in": h["removed_in"]})
            out["related"]["removed_connectors"] = gone
    return out


def _env(topic: Topic, cat: Catalog, history: list[Catalog], knowledge: Any, rules: Any) -> dict[str, Any]:
    hist = facts.history("env", topic.key, history)
    e = cat.env(topic.key)
    if e is None:
        return _absent(topic, cat, hist, "variable", knowledge, "env")
    return {
        "facts": {
            "type": e.type,
            "default": e.default,
            "parse": e.parse,
            "choices": e.choices,
            "case_sensitive": e.case_sensitive if e.choices else None,
            "truthy": e.truthy,
            "can_raise": e.can_raise,
            "also_reads": e.reads,
        },
        "defined_at": str(e.loc),
        "flow": [
            {
                "stage": "read",
                "what": "vllm/envs.py parses the variable each time vllm.envs.<NAME> is read, until "
                "the engine caches every variable",
                "where": [str(e.loc)] + ([x] if (x := facts._site(cat, "envs.enable_envs_cache_call")) else []),
            }
        ],
        "surfaces": facts.env_surfaces(cat, e.can_raise),
        "history": hist,
        "_doc_loc": e.loc,
    }


def _field(topic: Topic, cat: Catalog, history: list[Catalog], knowledge: Any, rules: Any) -> dict[str, Any]:
    hist = facts.history("field", topic.key, history)
    cls_name, _, name = topic.key.partition(".")
    cls = cat.config(cls_name)
    fld = cls.field(name) if cls else None
    if cls is None or fld is None:
        return _absent(topic, cat, hist, "config field", knowledge, "config_field")
    flags = [f.long_name for f in cat.flags if f.config_class == cls_name and f.config_field == name]
    parents = [f.long_name for f in cat.flags if f.config_class_of_value == cls_name]
    return {
        "facts": {
            "type": fld.type,
            "default": fld.default,
            "choices": fld.choices,
            "constraint": dump(fld.constraint, exclude_none=True) if fld.constraint else None,
            "required": fld.required,
            "settable": fld.init and not fld.init_var,
            "nested": fld.nested,
            "class_forbids_unknown_keys": cls.extra_forbid,
        },
        "defined_at": str(fld.loc),
        "related": {"flags": flags, "inside": [f"{p} '{{\"{name}\": ...}}'" for p in parents]},
        "history": hist,
        "_doc_loc": fld.loc,
    }


def _config(topic: Topic, cat: Catalog, history: list[Catalog], knowledge: Any, rules: Any) -> dict[str, Any]:
    hist = facts.history("config", topic.key, history)
    cls = cat.config(topic.key)
    if cls is None:
        return _absent(topic, cat, hist, "config class")
    return {
        "facts": {"fields": len(cls.fields), "bases": cls.bases, "forbids_unknown_keys": cls.extra_forbid},
        "defined_at": str(cls.loc),
        "related": {
            "fields": [
                {"name": f.name, "type": f.type, "default": f.default}
                for f in cls.fields
                if f.init and not f.name.startswith("_")
            ],
            "flags": sorted(
                {f.long_name for f in cat.flags if f.config_class == cls.name or f.config_class_of_value == cls.name}
            ),
        },
        "history": {k: v for k, v in hist.items() if k != "changes"},
    }


def _connector(topic: Topic, cat: Catalog, history: list[Catalog], knowledge: Any, rules: Any) -> dict[str, Any]:
    hist = facts.history("connector", topic.key, history)
    k = cat.connector(topic.key)
    plugin = knowledge.plugin_of_connector(topic.key)
    cf = knowledge.connector_facts(topic.key, cat.vllm_version)
    kfacts = dump(cf, exclude_none=True) if cf is not None else None
    if k is None:
        if plugin is not None:
            return {
                "facts": {
                    "plugin": plugin.name,
                    "package": plugin.package,
                    "enable_with": f"VLLM_PLUGINS={','.join(plugin.plugin_names)}" if plugin.plugin_names else None,
                },
                "knowledge": kfacts,
                "history": hist,
                "exists": True,
            }
        return _absent(topic, cat, hist, "connector", knowledge, "connector")
    return {
        "facts": {"module": k.module, "class": k.class_name, "source_file": k.source_file},
        "defined_at": str(k.loc),
        "class_at": facts._site(cat, f"connector.{k.name}"),
        "flow": facts.numbered(facts.connector_stages(cat, k.name)),
        "related": {
            "extra_config_keys": [
                {
                    "name": x.name,
                    "default": x.default if x.has_default else None,
                    "required": not x.has_default,
                    "type": x.type,
                    "read_at": str(x.loc),
                }
                for x in k.extra_keys
            ]
        },
        "knowledge": kfacts,
        "history": hist,
    }


def _plugin_env(topic: Topic, cat: Catalog, history: list[Catalog], knowledge: Any, rules: Any) -> dict[str, Any]:
    p = knowledge.plugin_of_env(topic.key)
    e = p.env_var(topic.key) if p else None
    return {
        "facts": {
            "plugin": p.name if p else None,
            "type": e.type if e else None,
            "default": e.default if e else None,
            "meaning": e.meaning if e else None,
        },
        "sources": e.sources if e else [],
        "note": "not a vLLM variable: a plugin reads it; vLLM itself never does",
    }


def _rule(topic: Topic, cat: Catalog, history: list[Catalog], knowledge: Any, rules: Any) -> dict[str, Any]:
    return {"rule": rules[topic.key]}


_BUILDERS = {
    "flag": _flag,
    "env": _env,
    "field": _field,
    "config": _config,
    "connector": _connector,
    "plugin_env": _plugin_env,
    "rule": _rule,
}
