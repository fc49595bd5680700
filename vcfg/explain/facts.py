"""The explanation of a topic as a JSON-ready dict, built from catalog facts only.

Keys (a contract for ``--format json``): ``topic``, ``kind``, ``name``,
``vllm_version``, ``exists`` (in the asked release), ``facts`` (type, default, choices,
constraints, aliases, group, ...), ``defined_at`` ("file:line"), ``flow`` (stages:
``{"stage", "what", "where"}``), ``surfaces`` (when a mistake in it shows up),
``history`` (``present_in`` ranges, ``added_in``, ``removed_in``, ``changes``),
``related`` and, added by the caller, ``help_text``.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from vcfg.catalog.model import Catalog, ConfigClass, Flag

SEP = "."


def _site(cat: Catalog, name: str) -> Optional[str]:
    for s in cat.sites:
        if s.name == name:
            return str(s.loc)
    return None


def _sites(cat: Catalog, prefix: str) -> list[str]:
    return [str(s.loc) for s in cat.sites_named(prefix)]


# ------------------------------------------------------------------------- history


def _lookup(kind: str, key: str) -> Callable[[Catalog], Any]:
    def get(cat: Catalog) -> Any:
        if kind == "flag":
            f = cat.flag(key)
            return None if f is None else (f.option_strings, f.type, f.choices, f.default)
        if kind == "env":
            e = cat.env(key)
            return None if e is None else (e.type, e.default, e.choices)
        if kind == "field":
            cls, _, name = key.partition(SEP)
            c = cat.config(cls)
            fl = c.field(name) if c else None
            return None if fl is None else (fl.type, fl.default, fl.choices)
        if kind == "config":
            c = cat.config(key)
            return None if c is None else tuple(f.name for f in c.fields)
        if kind == "connector":
            k = cat.connector(key)
            return None if k is None else (k.module, k.class_name)
        return None

    return get


_ATTRS = {
    "flag": ("option_strings", "type", "choices", "default"),
    "env": ("type", "default", "choices"),
    "field": ("type", "default", "choices"),
    "config": ("fields",),
    "connector": ("module", "class"),
}


def history(kind: str, key: str, catalogs: list[Catalog]) -> dict[str, Any]:
    """Where the thing exists across the bundled releases, and what changed."""
    get = _lookup(kind, key)
    present: list[list[str]] = []
    changes: list[dict[str, Any]] = []
    prev: Any = None
    prev_present = False
    added_in = removed_in = None
    for cat in catalogs:
        v = get(cat)
        here = v is not None
        if here and not prev_present:
            present.append([cat.vllm_version, cat.vllm_version])
            if prev is None and present and len(present) >= 1 and cat is not catalogs[0]:
                added_in = added_in or cat.vllm_version
        elif here:
            present[-1][1] = cat.vllm_version
        if not here and prev_present:
            removed_in = cat.vllm_version
        if here and prev_present and v != prev:
            for attr, old, new in zip(_ATTRS[kind], prev, v):
                if old != new:
                    changes.append(
                        {
                            "version": cat.vllm_version,
                            "attribute": attr,
                            "old": old if attr != "fields" else None,
                            "new": new if attr != "fields" else None,
                        }
                    )
        prev = v if here else prev
        prev_present = here
    if present and catalogs and present[0][0] == catalogs[0].vllm_version:
        added_in = None  # exists in the oldest bundled release
    if prev_present:
        removed_in = None
    return {
        "present_in": [f"{a}..{b}" if a != b else a for a, b in present],
        "added_in": added_in,
        "removed_in": removed_in,
        "changes": changes,
        "checked": f"{catalogs[0].vllm_version}..{catalogs[-1].vllm_version}" if catalogs else "",
    }


# ------------------------------------------------------------------------- flows


def numbered(stages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stages with their numbers from 1, in order (a stage is "N. what")."""
    out = []
    for n, st in enumerate(stages, start=1):
        name = st["stage"].split(". ", 1)[-1] if st["stage"][:1].isdigit() else st["stage"]
        out.append({**st, "stage": f"{n}. {name}"})
    return out


def config_flow(cat: Catalog, f: Flag) -> list[dict[str, Any]]:
    """A flag whose value is a config class (JSON or dotted keys): parsed into that
    class, then handed to the VllmConfig field the flag names; for
    --kv-transfer-config the connector's path follows (`connector_stages`)."""
    value_class = f.config_class_of_value or ""
    cls = cat.config(value_class)
    target_cls = f.config_class or "VllmConfig"
    target_field = f.config_field or f.dest
    owner = cat.config(target_cls)
    fld = owner.field(target_field) if owner else None
    stages = [
        {
            "stage": "command line to config object",
            "what": f"argparse gives `{f.long_name}` a type hook that validates the JSON text "
            f"into {value_class} with pydantic's TypeAdapter(...).validate_json",
            "where": [x for x in [_site(cat, "cli.parse_dataclass"), str(cls.loc) if cls else None] if x],
        },
        {
            "stage": f"EngineArgs to {target_cls}",
            "what": "EngineArgs receives the parsed object; create_engine_config puts it "
            f"into {target_cls}.{target_field}",
            "where": [
                x
                for x in [
                    _site(cat, "engine.from_cli_args"),
                    _site(cat, "engine.create_engine_config"),
                    _site(cat, f"config.{target_cls}.{target_field}") or (str(fld.loc) if fld else None),
                ]
                if x
            ],
        },
    ]
    if value_class == "KVTransferConfig":
        stages += connector_stages(cat)
    return numbered(stages)


def connector_stages(cat: Catalog, name: Optional[str] = None) -> list[dict[str, Any]]:
    """From kv_transfer_config to a running connector: the scheduler's and the workers'
    instances, and the factory lookup by name (for one connector when ``name`` is given)."""
    sched = _sites(cat, "kv.create_connector_call.scheduler")
    worker = _sites(cat, "kv.create_connector_call.worker") + _sites(cat, "kv.ensure_initialized_call")
    lookup: dict[str, Any] = {
        "stage": "factory lookup",
        "what": "KVConnectorFactory looks the kv_connector name up in its registry "
        "(module path and class name only) and imports the module on first use; "
        "kv_connector_module_path loads an out-of-tree class instead",
        "where": [x for x in [_site(cat, "kv.get_connector_class"), _site(cat, "kv.create_connector")] if x],
    }
    if name is None:
        lookup["registry"] = [
            {
                "name": k.name,
                "module": k.module,
                "class": k.class_name,
                "registered_at": str(k.loc),
                "class_at": _site(cat, f"connector.{k.name}"),
            }
            for k in cat.connectors
        ]
    stages = [
        {
            "stage": "scheduler side",
            "what": "the scheduler creates the connector with role SCHEDULER when kv_transfer_config is set",
            "where": sched,
        },
        {
            "stage": "worker side",
            "what": "each worker creates the connector with role WORKER",
            "where": worker,
        },
    ]
    if name is None:
        return stages + [lookup]
    k = cat.connector(name)
    named = {
        "stage": "named in kv_transfer_config",
        "what": f'--kv-transfer-config \'{{"kv_connector": "{name}", "kv_role": ...}}\' '
        "selects it, on every node of the deployment",
        "where": [x for x in [_site(cat, "config.VllmConfig.kv_transfer_config")] if x],
    }
    if k is not None:
        lookup["what"] = (
            f"KVConnectorFactory finds {name} in its registry ({k.module}.{k.class_name}, "
            "registered without importing it) and imports the module when the connector "
            "is first created"
        )
        lookup["where"] = [str(k.loc)] + lookup["where"]
    return [named, lookup] + stages


def flag_flow(cat: Catalog, f: Flag) -> list[dict[str, Any]]:
    if f.type == "config" and f.config_class_of_value:
        return config_flow(cat, f)
    stages = [
        {
            "stage": "1. command line",
            "what": f"argparse stores it as `{f.dest}`" + (f" (type {f.type})" if f.type else ""),
            "where": [str(f.loc)] if f.loc else [],
        }
    ]
    if f.config_class and f.config_field:
        cls = cat.config(f.config_class)
        fld = cls.field(f.config_field) if cls else None
        stages.append(
            {
                "stage": "2. config",
                "what": f"create_engine_config builds {f.config_class}({f.config_field}=...)",
                "where": [x for x in [_site(cat, "engine.create_engine_config"), str(fld.loc) if fld else None] if x],
            }
        )
    return stages


# ------------------------------------------------------------------------- when it fails


def flag_surfaces(cat: Catalog, f: Flag, value_cls: Optional[ConfigClass]) -> list[str]:
    out = [
        "a misspelt flag, a value of the wrong type or outside the choices: at parse "
        "time, before anything loads (vllm exits 2)"
    ]
    if f.config_class and f.config_field:
        cls = cat.config(f.config_class)
        fld = cls.field(f.config_field) if cls else None
        if fld and fld.constraint:
            out.append(
                "a value outside its bounds: when the engine config is built, after argparse and before the model loads"
            )
    if value_cls is not None:
        extra = "an error at parse time" if value_cls.extra_forbid else "silently ignored in this release"
        out.append(f"invalid JSON or a bad field value: at parse time; an unknown key: {extra}")
    if f.config_class_of_value == "KVTransferConfig":
        out.append(
            "an unknown kv_connector name: when the connector class is first looked up "
            "(engine config in recent releases, connector creation in older ones)"
        )
        out.append(
            "kv_connector_extra_config is an untyped dict: wrong keys or value types "
            "surface only when the connector is built, after the model loaded, or "
            "at the first request"
        )
    return out


def env_surfaces(cat: Catalog, can_raise: bool) -> list[str]:
    at = _site(cat, "envs.enable_envs_cache_call")
    out = []
    if can_raise:
        out.append(
            "a value vLLM cannot parse: when the variable is first read, and at the "
            "latest when the engine core evaluates every variable, after the model "
            "loaded" + (f" ({at})" if at else "")
        )
    else:
        out.append("any text is accepted; a wrong value is not reported by vLLM")
    return out
