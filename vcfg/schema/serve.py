"""The schema of a ``vllm serve --config FILE.yaml`` file.

Every long option of the release is a key, spelled with dashes (offered on
completion) and with underscores (accepted, not offered), see `vcfg.schema.loader`
for how vLLM reads the file.  Values follow the option's type; JSON-valued options
take a mapping with their config class's schema (from 0.16.0 on) or a string holding
JSON.  Keys of other releases are described and rejected (vLLM's parser rejects an
unknown option in every release).

Both schemas reject an unknown top-level key, as vLLM's parser does in every release
(argparse: "unrecognized arguments"): a misspelt option is flagged in the editor.  What
vLLM's parser does accept without being a key here is matched by patterns in the
default schema: argparse's unambiguous prefixes (`max-num-seq` for `max-num-seqs`, with a
warning to write the whole name; the strict schema rejects them, as lint warns) and, in
both, dotted keys of JSON-valued options (`kv-transfer-config.kv_role`).
A key of another release fails with vcfg's message alone (`removed_key`).  Bounds that
vLLM's config classes state (`Field(gt=0, le=1)` of `CacheConfig.gpu_memory_utilization`)
bound the option's number.
"""

from __future__ import annotations

from typing import Any, Optional

from vcfg.catalog.model import Flag
from vcfg.schema import describe as d
from vcfg.schema.common import removed_key
from vcfg.schema.configs import class_ref
from vcfg.schema.context import Context
from vcfg.schema.loader import mappings_work
from vcfg.schema.values import field_value, flag_value, is_switch, with_default

_TYPE_WORDS = {
    "int": "integer",
    "float": "number",
    "str": "text",
    "json": "JSON",
    "dict_or_str": "JSON object or text",
    "human_readable_int": "integer (`25.6k` = 25600, `2M` = 2000000, `1K` = 1024)",
    "human_readable_int_or_auto": "integer (`1k`, `1K` accepted) or `auto`",
    "bool": "switch, or a value",
    "lower_underscore": "text (case and `-`/`_` do not matter)",
}


def long_names(flag: Flag) -> list[str]:
    return [s[2:] for s in flag.option_strings if s.startswith("--")]


def _negative(flag: Flag, name: str) -> bool:
    """Whether ``--name`` is the generated "off" form of a boolean flag."""
    if flag.action not in ("boolean_optional", "enable_disable"):
        return False
    first = long_names(flag)[0]
    if name == first:
        return False
    if name.startswith("no-"):
        return True
    for a, b in (("enable-", "disable-"), ("disable-", "enable-")):
        if first.startswith(a) and name == b + first[len(a) :]:
            return True
    return False


def _json_target(ctx: Context, flag: Flag) -> tuple[Optional[dict[str, Any]], bool]:
    """The schema of a JSON-valued option's value, and whether that value is a list."""
    if flag.type == "config" and flag.config_class_of_value:
        ref = class_ref(ctx, flag.config_class_of_value)
        if ref is not None:
            return {"$ref": ref}, False
    if flag.type in ("json", "dict_or_str", "config") and flag.config_class and flag.config_field:
        cls = ctx.cat.config(flag.config_class)
        f = cls.field(flag.config_field) if cls is not None else None
        if f is not None:
            hints = [h for h in f.hints if h != "None"]
            if hints and all(h.startswith(("list[", "set[", "tuple[")) for h in hints):
                return None, True
            target = field_value(f, lambda n: class_ref(ctx, n), ctx.is_class)
            if target and ("type" in target or "anyOf" in target or "$ref" in target or "enum" in target):
                return target, False
    return None, False


def _words(ctx: Context, flag: Flag, name: str, json_class: Optional[str]) -> list[Optional[str]]:
    aliases = [
        s for s in flag.option_strings if s != f"--{name}" and not (s.startswith("--") and _negative(flag, s[2:]))
    ]
    head = ("also " + ", ".join(f"`{a}`" for a in aliases) + " · ") if aliases else ""
    lines: list[Optional[str]] = []
    if is_switch(flag):
        what = "switch: `true` sets it, `false` is ignored"
        neg = [a for a in long_names(flag) if _negative(flag, a)]
        if neg:
            what += f" (write `{neg[0]}: true`)"
        lines.append(f"{head}{what} · default {d.default_words(flag.default)}")
    else:
        kind = _TYPE_WORDS.get(flag.type or "str", "text")
        if flag.type == "config" and json_class:
            kind = f"JSON: `{json_class}`"
        if flag.nargs in ("+", "*"):
            kind = f"a list of {kind} values (or one value)"
        lines.append(f"{head}{kind} · default {d.default_words(flag.default)}")
        if flag.choices:
            lines.append("Choices: " + d.choices_words(flag.choices))
        elif flag.metavar_choices:
            lines.append("Suggested: " + d.choices_words(flag.metavar_choices))
        if flag.optional:
            lines.append("`null` (or an empty value) means not set.")
        if flag.type in ("json", "config", "dict_or_str") and not mappings_work(ctx.version):
            lines.append(
                "Write the JSON as a string: this release's `--config` loader passes a YAML "
                "mapping on as Python text, which vLLM cannot parse."
            )
    if flag.deprecated:
        lines.append("Deprecated in this release.")
    if flag.config_class and flag.config_field:
        lines.append(f"Sets `{flag.config_class}.{flag.config_field}`.")
    if flag.loc is not None:
        lines.append(f"At {flag.loc}")
    lines.append(ctx.history.span_words("flag", f"--{name}"))
    return lines


def _help(ctx: Context, flag: Flag) -> Optional[str]:
    if ctx.help is None:
        return None
    if flag.config_class and flag.config_field:
        cls = ctx.cat.config(flag.config_class)
        f = cls.field(flag.config_field) if cls is not None else None
        if f is not None:
            text = ctx.help.for_field(f)
            if text:
                return text
    return ctx.help.for_flag(flag)


def flag_property(ctx: Context, flag: Flag, name: str) -> dict[str, Any]:
    target, list_valued = _json_target(ctx, flag) if mappings_work(ctx.version) else (None, False)
    value = flag_value(flag, target, mappings=mappings_work(ctx.version), list_valued=list_valued)
    value = with_default(_bounded(ctx, flag, value), flag.default)
    json_class = flag.config_class_of_value if flag.type == "config" else None
    prop = {**value, "markdownDescription": d.compose(_words(ctx, flag, name, json_class), _help(ctx, flag))}
    if flag.deprecated:
        prop["deprecated"] = True
        prop["deprecationMessage"] = f"--{name} is deprecated in vLLM {ctx.version}."
    return prop


def _negative_property(flag: Flag, name: str, primary: str) -> dict[str, Any]:
    return {
        "type": "boolean",
        "markdownDescription": (f"`true` turns `{primary}` off; `false` does nothing."),
    }


def _absent_property(ctx: Context, name: str, note: str) -> dict[str, Any]:
    entry = ctx.knowledge.removed_flag(f"--{name}", ctx.version) if ctx.knowledge is not None else None
    known = entry.sentences() if entry is not None else None
    message = f"--{name}: {note}." + (f" {known}" if known else "")
    return removed_key(message)


def _bounded(ctx: Context, flag: Flag, value: dict[str, Any]) -> dict[str, Any]:
    """The value with the bounds of the config field behind the flag, where vLLM's
    source states them; numbers only (a quoted number is text to JSON Schema)."""
    if not (flag.config_class and flag.config_field) or "anyOf" in value:
        return value
    cls = ctx.cat.config(flag.config_class)
    fld = cls.field(flag.config_field) if cls is not None else None
    types = value.get("type")
    types = [types] if isinstance(types, str) else (types or [])
    if fld is None or fld.constraint is None or not {"integer", "number"} & set(types):
        return value
    if (getattr(cls, "built_when", None) or "").startswith("option:"):
        # vLLM builds the class only with another option (LoRAConfig: --enable-lora):
        # the bound holds only then, which a schema of one key cannot see (lint: VC006)
        return value
    from vcfg.schema.values import constrain

    return constrain(value, fld.constraint)


def _pattern_words(word: str) -> str:
    """A regex for ``word`` in which every dash may also be an underscore."""
    import re

    return "[-_]".join(re.escape(part) for part in word.split("-"))


#: the schemas every dotted key refers to (vcfg.schema.serve.dotted_patterns)
DOTTED, DOTTED_UNKNOWN = "_dotted", "_dotted_unknown"
#: the one schema every abbreviation pattern refers to (a message per option would
#: add ~90 KiB to each serve schema)
ABBREVIATION = "_abbreviation"
ABBREVIATION_SCHEMA = {
    "doNotSuggest": True,
    "deprecationMessage": "an abbreviation: vLLM's parser takes the start of an option's "
    "name while it is the only option that starts so; write the whole name (it breaks "
    "when a release adds an option with the same start)",
}


def abbreviation_patterns(names: list[str]) -> dict[str, dict[str, Any]]:
    """argparse's allow_abbrev: a key that is the start of exactly one option string
    (and not itself one) is that option (vcfg.launch.args.ArgResolver.lookup does the
    same on a command line).  One pattern per option: its shortest unique prefix, then
    each further character optional, stopping one short of the whole name."""
    import re

    out: dict[str, dict[str, Any]] = {}
    ordered = sorted(set(names))

    def common(a: str, b: str) -> int:
        k = 0
        for x, y in zip(a, b):
            if x != y:
                break
            k += 1
        return k

    for i, name in enumerate(ordered):
        # in sorted order the names that start with a prefix of ``name`` are its
        # neighbours: the shortest prefix no neighbour shares is the unique one
        shared = max(
            common(name, ordered[i - 1]) if i > 0 else 0,
            common(name, ordered[i + 1]) if i + 1 < len(ordered) else 0,
        )
        n = max(1, shared + 1)
        if n >= len(name):
            continue  # every proper prefix is shared: no abbreviation
        head, rest = name[:n], name[n:-1]
        pattern = _pattern_words(head)
        tail = ""
        for ch in reversed(rest):
            part = "[-_]" if ch == "-" else re.escape(ch)
            tail = f"({part}{tail})?"
        out[f"^{pattern}{tail}$"] = {"$ref": f"#/$defs/{ABBREVIATION}"}
    return out


def dotted_patterns(ctx: Context) -> dict[str, dict[str, Any]]:
    """``kv-transfer-config.kv_role: kv_both``: vLLM merges dotted keys of a
    JSON-valued option into its JSON (`vcfg lint` checks the merged value).  For an
    option whose value is a config class, the first key after the dot must be one of the
    class's fields where the class forbids unknown keys (both schemas; strict: in every
    class, as lint warns), and a `true` is refused: the loader writes the key as a bare
    option with no value (vLLM fails, VC004; strict also refuses the `false` it drops).
    The values themselves are checked by lint after the merge, not here."""
    import re

    from vcfg.lint.rules._args import value_class

    plain: list[str] = []
    out: dict[str, dict[str, Any]] = {}
    # shared by every option (one message per schema, not one per class: 24 releases x
    # 30 classes of repeated words would be ~100 KiB of the committed schemas)
    ctx.defs[DOTTED] = {
        "doNotSuggest": True,
        "description": "a dotted key: merged into the option's JSON value",
        **({"not": {"type": "boolean"}} if ctx.strict else {"not": {"const": True}}),
    }
    for f in ctx.cat.flags:
        if f.type not in ("json", "config", "dict_or_str") or not long_names(f):
            continue
        names = "|".join(_pattern_words(n) for n in long_names(f))
        cls_name = value_class(ctx.cat, f)
        cls = ctx.cat.config(cls_name) if cls_name else None
        if cls is None:
            plain.extend(long_names(f))
            continue
        if not (cls.extra_forbid or ctx.strict):  # the class ignores unknown keys
            out[f"^({names})\\."] = {"$ref": f"#/$defs/{DOTTED}"}
            continue
        fields = "|".join(re.escape(x.name) for x in cls.fields if x.init)
        out[f"^({names})\\.({fields})(\\.|$)"] = {"$ref": f"#/$defs/{DOTTED}"}
        out[f"^({names})\\.(?!({fields})(\\.|$))"] = {"$ref": f"#/$defs/{DOTTED_UNKNOWN}"}
        ctx.defs[DOTTED_UNKNOWN] = removed_key(
            f"not a key of the option's config class in vLLM {ctx.version}: vLLM merges a "
            "dotted key into the option's JSON value, whose class has no such field"
        )
    if plain:
        alt = "|".join(_pattern_words(n) for n in sorted(plain))
        out[f"^({alt})\\."] = {
            "doNotSuggest": True,
            "description": "a dotted key: merged into the option's JSON value",
        }
    return out


def serve_properties(ctx: Context) -> dict[str, Any]:
    props: dict[str, Any] = {}
    aliases: dict[str, str] = {}
    for flag in ctx.cat.flags:
        if flag.positional or flag.action == "help":
            continue
        names = long_names(flag)
        if not names:
            continue
        primary = names[0]
        if primary in props:
            continue
        props[primary] = flag_property(ctx, flag, primary)
        for other in names[1:]:
            if other in props:
                continue
            if _negative(flag, other):
                props[other] = _negative_property(flag, other, primary)
            else:
                props[other] = {"$ref": f"#/properties/{primary}"}
    if ctx.strict:
        _strict_switches(ctx, props)
    for name in list(props):
        under = name.replace("-", "_")
        if under != name and under not in props:
            aliases[under] = name
    for under, name in aliases.items():
        # `allOf` keeps `doNotSuggest` beside the reference: next to a bare `$ref` it is
        # ignored in draft-07, and yaml-language-server drops it
        props[under] = {"allOf": [{"$ref": f"#/properties/{name}"}], "doNotSuggest": True}
    # options of other releases: vLLM rejects them here (unless one is the start of
    # exactly one option of this release: then argparse takes it as that option)
    options = [s[2:] for f in ctx.cat.flags for s in f.option_strings if s.startswith("--")]
    for opt in ctx.history.names("flag"):
        name = opt[2:]
        if name in props or sum(1 for o in options if o.startswith(name)) == 1:
            continue
        note = ctx.history.absent_note("flag", opt, ctx.version)
        if note is None:
            continue
        props[name] = _absent_property(ctx, name, note)
    return props


def _strict_switches(ctx: Context, props: dict[str, Any]) -> None:
    """Strict: ``key: false`` only where dropping it changes nothing.  vLLM's loader
    drops a ``false`` (loader.py), which leaves an option that is on by default (or
    decided at run time) on: `vcfg lint` warns (VC011) from the same rule."""
    from vcfg.launch.args.argv import false_matters

    for name, prop in props.items():
        if prop.get("type") != "boolean" or not false_matters(ctx.cat, "--" + name):
            continue
        flag = ctx.cat.flag("--" + name)
        if flag is None or not is_switch(flag):
            continue
        neg = [a for a in long_names(flag) if _negative(flag, a)]
        hint = f" (write `{neg[0]}: true` to turn it off)" if neg and neg[0] != name else ""
        props[name] = {
            **prop,
            "enum": [True],
            "errorMessage": f"`{name}: false` is ignored by vLLM's --config loader{hint}",
        }


def serve_schema_body(ctx: Context) -> dict[str, Any]:
    props = serve_properties(ctx)
    body: dict[str, Any] = {"type": "object", "properties": props}
    from vcfg.schema.checks import add_option_checks

    add_option_checks(ctx, props, body)
    # dotted keys in both (vLLM merges them; `vcfg lint` checks the merged value);
    # abbreviations only in the default schema (strict: lint warns about them, VC012)
    body["patternProperties"] = dotted_patterns(ctx)
    if not ctx.strict:
        options = [s[2:] for f in ctx.cat.flags for s in f.option_strings if s.startswith("--")]
        body["patternProperties"].update(abbreviation_patterns(options))
        ctx.defs[ABBREVIATION] = dict(ABBREVIATION_SCHEMA)
    # a schema, not `false`: with `false` and the patterns above, validators list every
    # pattern in the message; this way the path names the key and the message is ours
    body["additionalProperties"] = removed_key(
        f"not an option of `vllm serve` in vLLM {ctx.version}: vLLM stops with "
        '"unrecognized arguments" (`vcfg lint` names the nearest option)'
    )
    return body
