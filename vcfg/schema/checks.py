"""What the serve schema says about single options beyond their type, from the same
data `vcfg lint` judges them by:

* the release's value sets (`Catalog.value_sets`: parser registries, quantization
  methods, KV cache dtypes, attention backends, read from vLLM's source with
  file:line), as `VC014` checks them: case rules, the names vLLM maps away first
  (``auto``, ``none``), the names a known plugin registers, the switch that must be
  on (``--tool-call-parser`` is looked up only with ``--enable-auto-tool-choice``) and
  the plugin options that make the check stand down (``--tool-parser-plugin``);
* single-option constraints of lint rules that state the values they accept as a
  JSON Schema (`vcfg.lint.constraints.Constraint.schema`, e.g. VC230's "not 0"), for
  the releases the rule applies to.

Unconditional checks go into the option's own property (editors complete the enum);
conditional ones into ``if``/``then`` blocks at the root, over every spelling of the
option (dashes, underscores, aliases).
"""

from __future__ import annotations

from typing import Any, Optional

from vcfg.catalog.model import Flag, ValueSet
from vcfg.schema import common as c
from vcfg.schema.context import Context


def spellings(flag: Flag) -> list[str]:
    """Every YAML key that means ``flag`` (long names and their underscore forms);
    the generated off forms are switches and never carry a value."""
    out: list[str] = []
    for s in flag.option_strings:
        if not s.startswith("--"):
            continue
        for k in (s[2:], s[2:].replace("-", "_")):
            if k not in out:
                out.append(k)
    return out


def _names(ctx: Context, vs: ValueSet) -> list[str]:
    names = list(vs.values)
    if ctx.knowledge is not None:  # names a known out-of-tree plugin registers (VC014)
        for p in getattr(ctx.knowledge, "plugins", ()) or ():
            for n in (getattr(p, "names", {}) or {}).get(vs.dest, ()):
                if n not in names:
                    names.append(n)
    return names


def value_set_schema(ctx: Context, vs: ValueSet, flag: Flag) -> dict[str, Any]:
    """The values VC014 accepts for ``flag``: one of the names (in the set's case
    rules) or a name vLLM maps away, or null where the option may be unset."""
    names = _names(ctx, vs)
    nullable = bool(flag.optional or (flag.choices and None in flag.choices))
    plain: list[Any] = [*names, None] if nullable else list(names)
    if not vs.case_insensitive and not vs.also:
        return {"enum": plain}
    # VC014: value.upper() in the names (case-insensitive sets), value.lower() in `also`
    alts = [c.any_case(n) for n in names] if vs.case_insensitive else [_escape(n) for n in names]
    alts += [c.any_case(a) for a in vs.also]
    pattern = "^(" + "|".join(alts) + ")$"
    text = {"type": "string", "pattern": pattern}
    return {"anyOf": [{"enum": plain}, text]}


def _escape(word: str) -> str:
    import re

    return re.escape(word)


def _given(keys: list[str]) -> dict[str, Any]:
    """Some spelling of an option is given a value that counts (not null, not empty)."""
    set_ = {"not": {"enum": [None, "", False]}}
    alts = [{"required": [k], "properties": {k: set_}} for k in keys]
    return alts[0] if len(alts) == 1 else {"anyOf": alts}


def _on(keys: list[str]) -> dict[str, Any]:
    alts = [{"required": [k], "properties": {k: {"const": True}}} for k in keys]
    return alts[0] if len(alts) == 1 else {"anyOf": alts}


def _flag_by_dest(ctx: Context, dest: str) -> Optional[Flag]:
    for f in ctx.cat.flags:
        if f.dest == dest and not f.positional and any(s.startswith("--") for s in f.option_strings):
            return f
    return None


def _merge(prop: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``prop`` also holding ``extra`` (side by side where no keyword clashes)."""
    if not any(k in prop for k in extra):
        return {**prop, **extra}
    return {**prop, "allOf": [*prop.get("allOf", []), extra]}


def add_option_checks(ctx: Context, props: dict[str, Any], body: dict[str, Any]) -> None:
    """Put the value sets and the rules' single-option schemas into the serve schema:
    into ``props`` (the option's own property) or ``body["allOf"]``."""
    blocks: list[dict[str, Any]] = []
    for vs in ctx.cat.value_sets:
        flag = _flag_by_dest(ctx, vs.dest)
        if flag is None:
            continue
        keys = [k for k in spellings(flag) if k in props]
        if not keys:
            continue
        value = value_set_schema(ctx, vs, flag)
        primary = keys[0]
        if vs.when is None and not vs.plugins:
            props[primary] = _merge(props[primary], value)
            continue
        props[primary] = {**props[primary], "examples": _names(ctx, vs)}
        cond: list[dict[str, Any]] = []
        if vs.when is not None:
            on = _flag_by_dest(ctx, vs.when)
            if on is None:
                continue
            cond.append(_on([k for k in spellings(on) if k in props] or [on.long_name[2:]]))
        for dest in vs.plugins:
            plug = _flag_by_dest(ctx, dest)
            if plug is not None:
                cond.append({"not": _given([k for k in spellings(plug) if k in props] or [plug.long_name[2:]])})
        then = {"properties": {k: value for k in keys}}
        if not cond:
            blocks.append(then)
        else:
            blocks.append({"if": cond[0] if len(cond) == 1 else {"allOf": cond}, "then": then})
    for dest, value in rule_schemas(ctx.version):
        flag = _flag_by_dest(ctx, dest)
        if flag is None:
            continue
        keys = [k for k in spellings(flag) if k in props]
        if keys:
            props[keys[0]] = _merge(props[keys[0]], value)
    if blocks:
        body["allOf"] = [*body.get("allOf", []), *blocks]


def rule_schemas(version: str) -> list[tuple[str, dict[str, Any]]]:
    """(dest, schema) of every lint rule whose one-option constraint states the values
    it accepts, for the rules that apply to ``version``."""
    from vcfg.lint.engine import applies
    from vcfg.lint.registry import rule_modules

    out: list[tuple[str, dict[str, Any]]] = []
    for mod in rule_modules():
        entry = getattr(mod, "ENTRY", None)
        schema = getattr(entry, "schema", None)
        if entry is None or not schema or not applies(mod.RULE, version):
            continue
        if entry.versions and not _in(entry.versions, version):
            continue
        out.append((entry.operands[0].key, schema))
    return out


def _in(versions: str, version: str) -> bool:
    from vcfg.catalog.versions import parse_range, parse_version
    from vcfg.errors import VcfgError

    try:
        return parse_version(version) in parse_range(versions)
    except VcfgError:  # as the engine: a release it cannot read, the rule stays silent
        return False
