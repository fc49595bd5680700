"""JSON Schemas for single values: a config field inside JSON, an option in a
``--config`` YAML file, an environment variable, a connector's extra-config key.

Each function returns the value part only (no description); the builders add the
words.  Where vLLM converts text (``int(...)``, pydantic's lax mode), the schema
accepts the text forms that convert, as patterns on strings.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from vcfg.catalog.model import ConfigField, Constraint, EnvVar, ExtraKey, Flag
from vcfg.schema import common as c
from vcfg.schema import describe as d

ANY: dict[str, Any] = {}

# --------------------------------------------------------------------------- members


class _Union:
    """Collects the members of a union and writes the smallest schema for them."""

    def __init__(self) -> None:
        self.types: list[str] = []
        self.text_pattern: Optional[str] = None  # strings allowed only as number text
        self.free_string = False
        self.enum: list[Any] = []
        self.others: list[dict[str, Any]] = []
        self.anything = False

    def add_type(self, t: str) -> None:
        if t not in self.types:
            self.types.append(t)

    def add_text(self, pattern: str) -> None:
        """Strings, but only those matching ``pattern`` (number text, JSON text)."""
        self.add_type("string")
        if self.text_pattern is None or pattern == c.FLOAT_TEXT:
            self.text_pattern = pattern

    def add_string(self) -> None:
        self.add_type("string")
        self.free_string = True

    def schema(self) -> dict[str, Any]:
        if self.anything:
            return {}
        others: list[dict[str, Any]] = []
        for o in self.others:  # splice nested unions, fold plain types into `types`
            for m in o["anyOf"] if list(o) == ["anyOf"] else [o]:
                if list(m) == ["type"] and isinstance(m["type"], str):
                    self.add_type(m["type"])
                elif m not in others:
                    others.append(m)
        self.others = others
        simple: dict[str, Any] = {}
        if self.types:
            simple["type"] = self.types[0] if len(self.types) == 1 else list(self.types)
            if "string" in self.types and not self.free_string and self.text_pattern:
                simple["pattern"] = self.text_pattern
        parts: list[dict[str, Any]] = []
        if self.enum:
            enum = list(self.enum)
            if "null" in self.types and None not in enum:
                enum.append(None)
                self.types.remove("null")
                if self.types:
                    simple["type"] = self.types[0] if len(self.types) == 1 else list(self.types)
                else:
                    simple = {}
            parts.append({"enum": enum})
        if simple:
            parts.append(simple)
        parts.extend(self.others)
        if not parts:
            return {}
        return parts[0] if len(parts) == 1 else {"anyOf": parts}


def constrain(schema: dict[str, Any], con: Optional[Constraint]) -> dict[str, Any]:
    if con is None:
        return schema
    out = dict(schema)
    for key, attr in (
        ("exclusiveMinimum", "gt"),
        ("minimum", "ge"),
        ("exclusiveMaximum", "lt"),
        ("maximum", "le"),
    ):
        v = getattr(con, attr)
        if v is not None:
            out[key] = int(v) if float(v).is_integer() else v
    return out


# --------------------------------------------------------------------------- config fields

_SEQ_PREFIXES = ("list[", "set[", "tuple[", "frozenset[", "Sequence[")


def _hint_into(u: _Union, hint: str, field_choices: Optional[list[Any]], ref: Callable[[str], Optional[str]]) -> None:
    """Add one flattened type hint (see `ConfigField.hints`) to ``u``."""
    h = hint.strip()
    if h == "int":
        u.add_type("integer")
        u.add_text(c.INT_TEXT)  # pydantic lax mode reads "8" as 8
    elif h == "float":
        u.add_type("number")
        u.add_text(c.FLOAT_TEXT)
    elif h == "str":
        u.add_string()
    elif h == "bool":
        u.add_type("boolean")
    elif h == "None":
        u.add_type("null")
    elif h in ("dict", "Mapping") or h.startswith("dict["):
        u.add_type("object")
    elif h.startswith("Literal"):
        if field_choices:
            for v in field_choices:
                if v is None:
                    u.add_type("null")
                elif v not in u.enum:
                    u.enum.append(v)
        else:
            u.anything = True
    elif h.startswith(_SEQ_PREFIXES) and h.endswith("]"):
        inner = h[h.index("[") + 1 : -1]
        u.others.append(_sequence(inner, ref))
    elif h in ("list", "set", "tuple"):
        u.add_type("array")
    else:
        target = ref(h)
        if target is not None:
            u.others.append({"$ref": target})
        else:  # a class vcfg does not model, Any, object: anything goes
            u.anything = True


def _sequence(inner: str, ref: Callable[[str], Optional[str]]) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array"}
    members = _split_top(inner)
    if len(members) == 1 and not inner.startswith(("tuple[", "Literal")):
        item = _Union()
        for m in _split_top(inner, "|"):
            _hint_into(item, m, None, ref)
        s = item.schema()
        if s:
            out["items"] = s
    elif inner.startswith("Literal[") and inner.endswith("]"):
        values = [_literal(x) for x in _split_top(inner[len("Literal[") : -1])]
        if all(v is not _NO for v in values):
            out["items"] = {"enum": values}
    return out


_NO = object()


def _literal(text: str) -> Any:
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    if t == "None":
        return None
    if t in ("True", "False"):
        return t == "True"
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return _NO


def _split_top(text: str, sep: str = ",") -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def field_value(
    f: ConfigField, ref: Callable[[str], Optional[str]], is_class: Callable[[str], bool] = lambda name: False
) -> dict[str, Any]:
    """A config field's value inside JSON, as pydantic's lax mode validates it.
    ``ref(name)`` gives the ``$ref`` of a config class (building its schema), or None
    if it has none; ``is_class(name)`` only tells whether there is one."""
    u = _Union()
    hints = f.hints or ["object"]
    if f.default is None and "None" not in hints and any(is_class(h) for h in hints):
        # `x: SomeConfig = None`: vLLM fills it itself and does not validate a given
        # value (0.33.0 config/speculative.py: the target_/draft_*_config fields)
        return {}
    for h in hints:
        _hint_into(u, h, f.choices, ref)
    if f.choices and not any(h.startswith("Literal") for h in hints):
        for v in f.choices:  # choices from an Enum or a validator: suggest, do not bind
            if v is not None and v not in u.enum:
                u.enum.append(v)
    return constrain(u.schema(), f.constraint)


# --------------------------------------------------------------------------- flags

BOOLEAN_ACTIONS = ("store_true", "store_false", "store_const", "boolean_optional", "enable_disable")


def is_switch(flag: Flag) -> bool:
    """An option that takes no value: in YAML, ``true`` sets it and ``false`` does nothing."""
    return flag.action in BOOLEAN_ACTIONS or (flag.nargs == 0 and flag.action != "help")


def _scalar(
    flag: Flag, json_target: Optional[dict[str, Any]], mappings: bool, list_valued: bool, nullable: bool = True
) -> dict[str, Any]:
    """One argument's value, as YAML writes it (the loader passes ``str(value)``)."""
    t = flag.type or "str"
    u = _Union()
    then: Optional[dict[str, Any]] = None
    if t == "int":
        u.add_type("integer")
        u.add_text(c.INT_TEXT)
    elif t == "float":
        u.add_type("number")
        u.add_text(c.FLOAT_TEXT)
    elif t == "human_readable_int":
        u.add_type("integer")
        u.add_text(c.HUMAN_INT_TEXT)
    elif t == "human_readable_int_or_auto":
        u.add_type("integer")
        u.add_text(c.HUMAN_INT_OR_AUTO_TEXT)
    elif t in ("json", "config", "dict_or_str"):
        if mappings and not list_valued:
            u.add_type("object")
            then = _object_part(json_target)
        elif not list_valued:
            # before 0.16 the loader passes str(mapping): Python text vLLM cannot read as
            # JSON, except for an empty mapping ("{}")
            u.others.append({"type": "object", "maxProperties": 0})
        if t == "config":  # the text must be a JSON object (or "None" when optional)
            u.add_text(c.OPTIONAL_OBJECT_TEXT if flag.optional else c.OBJECT_TEXT)
        else:
            u.add_string()  # JSON text (dict_or_str: any text)
    elif t == "bool":  # nargs="?": a bare flag, or a value
        u.add_type("boolean")
        u.add_string()
    elif t == "lower_underscore" and flag.choices:
        # vLLM lower-cases and turns "-" into "_" before checking the choices
        # (0.33.0 engine/arg_utils.py:1844)
        words = [str(x) for x in flag.choices if x is not None]
        u.enum.extend(words)
        pat = c.choice_pattern([w.replace("_", "\x00") for w in words], case_sensitive=False)
        u.others.append({"type": "string", "pattern": pat.replace("\x00", "[_-]")})
    else:  # str, custom:*, lower_underscore without choices: the text as given
        u.add_string()
        if not flag.choices:
            u.add_type("number")
    if flag.choices and t != "lower_underscore":
        u = _Union()
        for v in flag.choices:
            if v is not None and v not in u.enum:
                u.enum.append(v)
    if nullable and (flag.optional or (flag.choices and None in flag.choices)):
        u.add_type("null")  # the loader writes null as "None", read as None
    out = u.schema()
    if then:
        # a mapping is checked against the class; `if`/`then` (not `anyOf`) so that
        # validators report the key inside the mapping, not "matches no alternative"
        out = {**out, "if": {"type": "object"}, "then": then}
    if flag.metavar_choices and not flag.choices:
        return {**out, "examples": list(flag.metavar_choices)}
    return out


def _object_part(target: Optional[dict[str, Any]]) -> Optional[dict[str, Any]]:
    """The part of a JSON value's schema that applies to a mapping (None: any mapping)."""
    if not target:
        return None
    members = target["anyOf"] if list(target) == ["anyOf"] else [target]
    keep = []
    for m in members:
        if "$ref" in m:
            keep.append(m)
        elif m.get("type") in ("object", ["object"]) or "object" in (m.get("type") or []):
            return None  # a free mapping is one of the choices
    if not keep:
        return None
    return keep[0] if len(keep) == 1 else {"anyOf": keep}


def flag_value(
    flag: Flag, json_target: Optional[dict[str, Any]] = None, *, mappings: bool = True, list_valued: bool = False
) -> dict[str, Any]:
    """The value of ``flag``'s key in a ``--config`` YAML file.

    ``json_target``: the schema of the JSON value for type "config"/"json" flags;
    ``mappings``: whether this release's loader passes a YAML mapping on as JSON;
    ``list_valued``: the JSON value is a list (a mapping would be the wrong shape)."""
    if is_switch(flag):
        return {"type": "boolean"}
    one = _scalar(flag, json_target, mappings, list_valued)
    n = flag.nargs
    if n in ("+", "*") or isinstance(n, int) and n > 1:
        item = _scalar(flag, json_target, mappings, list_valued, nullable=False)
        arr: dict[str, Any] = {"type": "array"}
        if item:
            arr["items"] = item
        if isinstance(n, int):
            arr["minItems"] = arr["maxItems"] = n
        elif n == "+":
            arr["minItems"] = 1
        return {"anyOf": [arr, one]} if one else {}
    if n == "?":  # `key: true` gives the bare option, i.e. its const
        if one.get("type") == "boolean" or "boolean" in (one.get("type") or []):
            return one
        return {"anyOf": [one, {"type": "boolean", "const": True}]} if one else {}
    return one


# --------------------------------------------------------------------------- env vars


def env_value(var: EnvVar) -> dict[str, Any]:
    """An environment variable's value: text, as vLLM reads it (``EnvVar.parse``).
    Numbers and booleans are allowed where a YAML ``env`` map would write them as the
    text vLLM accepts (compose turns ``1`` into ``"1"``, ``true`` into ``"true"``)."""
    p = var.parse
    if p in ("int", "bool_int", "port"):
        out: dict[str, Any] = {"type": ["string", "integer"], "pattern": c.INT_TEXT}
        return out
    if p == "float":
        return {"type": ["string", "number"], "pattern": c.FLOAT_TEXT}
    if p == "bool_word":
        out = {"type": ["string", "boolean", "integer"]}
        if var.truthy:
            out["examples"] = list(var.truthy)
        return out
    if p == "choices" and var.choices:
        return {
            "type": "string",
            "pattern": c.choice_pattern(var.choices, var.case_sensitive),
            "examples": list(var.choices),
        }
    if p == "set_choices" and var.choices:
        return {
            "type": "string",
            "pattern": c.choice_pattern(var.choices, var.case_sensitive, sep=True),
            "examples": list(var.choices),
        }
    if p in ("str", "list", "json", "choices", "set_choices"):
        return {"type": "string"}
    return {"type": ["string", "number", "boolean"]}  # "other": vcfg does not judge


# --------------------------------------------------------------------------- extra keys

_COERCED: dict[str, dict[str, Any]] = {
    # vLLM converts the value with int()/float()/str()/bool() (ExtraKey.type)
    "int": {"type": ["integer", "string"], "pattern": c.INT_TEXT},
    "float": {"type": ["number", "string"], "pattern": c.FLOAT_TEXT},
    "str": {"type": ["string", "number", "boolean"]},
    "bool": {"type": ["boolean", "integer"]},
}


def extra_key_value(
    key: ExtraKey, json_types: Optional[Sequence[str]] = None, choices: Optional[list[Any]] = None
) -> dict[str, Any]:
    """A ``kv_connector_extra_config`` value.  ``json_types``/``choices`` come from a
    knowledge pack and win over the scan; without them, a key vLLM reads as given
    is not constrained."""
    if choices:
        return {"enum": list(choices)}
    if json_types:
        return {"type": json_types[0] if len(json_types) == 1 else list(json_types)}
    if key.type in _COERCED:
        return dict(_COERCED[key.type])
    return {}


def with_default(schema: dict[str, Any], value: Any) -> dict[str, Any]:
    """``schema`` plus ``default`` when the default is a JSON value the schema accepts
    (editors insert it on completion)."""
    if not d.is_plain(value):
        return schema
    if not _accepts(schema, value):
        return schema
    return {**schema, "default": value}


def _accepts(schema: dict[str, Any], value: Any) -> bool:
    if not schema:
        return True
    if "$ref" in str(schema):
        return isinstance(value, dict) and not value
    import jsonschema

    try:
        return jsonschema.Draft202012Validator(schema).is_valid(value)
    except Exception:  # a schema this check cannot compile: leave the default out
        return False
