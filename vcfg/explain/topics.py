"""What a topic names: a flag, a variable, a config field or class, a connector, a
plugin variable or a rule code.  Unknown topics get the nearest names as suggestions."""

from __future__ import annotations

import difflib
import re
from typing import Literal

from vcfg.catalog.model import Catalog
from vcfg.errors import VcfgError
from vcfg.records import record

Kind = Literal["flag", "env", "field", "config", "connector", "plugin_env", "rule"]


@record(frozen=True)
class Topic:
    kind: Kind
    key: str  # flag: the long option; field: "Class.field"; others: the name
    asked: str
    #: True when the thing does not exist in the asked release (found in another one)
    absent: bool = False


def normalise_flag(text: str) -> str:
    """vLLM's own normalisation: underscores become dashes before the first '.'."""
    if text.startswith("--"):
        head, dot, tail = text.partition(".")
        return head.replace("_", "-") + dot + tail
    return text


def _field_matches(cat: Catalog, name: str) -> list[str]:
    return [f"{c.name}.{f.name}" for c in cat.configs for f in c.fields if f.name == name]


def resolve(
    asked: str,
    cat: Catalog,
    history: list[Catalog],
    rule_codes: dict[str, str],
    plugin_envs: set[str],
    plugin_connectors: set[str] = frozenset(),  # type: ignore[assignment]
) -> Topic:
    text = asked.strip()
    if not text:
        raise VcfgError("empty topic", hint="e.g. vcfg explain --kv-transfer-config")
    if re.fullmatch(r"(?i)vc\d{3}", text) or text in rule_codes.values():
        code = (
            text.upper()
            if text.upper() in rule_codes
            else next((c for c, n in rule_codes.items() if n == text), text.upper())
        )
        if code in rule_codes:
            return Topic("rule", code, asked)
    if text.startswith("-"):
        flag = normalise_flag(text)
        head, dot, tail = flag.partition(".")
        f = cat.flag(head)
        if f is not None:
            if dot and f.config_class_of_value:
                return Topic("field", f"{f.config_class_of_value}.{tail.split('.')[0]}", asked)
            return Topic("flag", f.long_name, asked)
        for other in reversed(history):
            g = other.flag(head)
            if g is not None:
                return Topic("flag", g.long_name, asked, absent=True)
    else:
        if "." in text:
            cls, _, fname = text.partition(".")
            c = cat.config(cls)
            if c is not None and c.field(fname) is not None:
                return Topic("field", f"{cls}.{fname}", asked)
            for other in reversed(history):
                oc = other.config(cls)
                if oc is not None and oc.field(fname) is not None:
                    return Topic("field", f"{cls}.{fname}", asked, absent=True)
        if cat.env(text) is not None:
            return Topic("env", text, asked)
        if cat.config(text) is not None:
            return Topic("config", text, asked)
        if cat.connector(text) is not None:
            return Topic("connector", text, asked)
        if text in plugin_envs:
            return Topic("plugin_env", text, asked)
        if text in plugin_connectors:
            return Topic("connector", text, asked, absent=True)
        matches = _field_matches(cat, text)
        if len(matches) == 1:
            return Topic("field", matches[0], asked)
        if len(matches) > 1:
            # a bare field name shared by classes: KVTransferConfig first, as in the notes
            preferred = [m for m in matches if m.startswith("KVTransferConfig.")]
            if preferred:
                return Topic("field", preferred[0], asked)
            raise VcfgError(
                f"{text!r} is a field of several config classes",
                hint="one of: " + ", ".join(matches[:8]),
            )
        for other in reversed(history):
            if other.env(text) is not None:
                return Topic("env", text, asked, absent=True)
            if other.connector(text) is not None:
                return Topic("connector", text, asked, absent=True)
            if other.config(text) is not None:
                return Topic("config", text, asked, absent=True)
    suggestions = suggest(text, cat, history, rule_codes, plugin_envs)
    raise VcfgError(
        f"unknown topic {asked!r} for vllm {cat.vllm_version}",
        hint=("did you mean " + ", ".join(f"`{s}`" for s in suggestions) + "?")
        if suggestions
        else "try a flag (--kv-transfer-config), a variable (VLLM_HOST_IP), "
        "a field (KVTransferConfig.kv_role), a connector or a rule code (VC001)",
    )


def all_names(cat: Catalog) -> list[str]:
    names: list[str] = []
    for f in cat.flags:
        names += [s for s in f.option_strings if s.startswith("-")]
    names += [e.name for e in cat.env_vars]
    names += [c.name for c in cat.configs]
    names += [f"{c.name}.{f.name}" for c in cat.configs for f in c.fields]
    names += [k.name for k in cat.connectors]
    return names


def suggest(
    text: str,
    cat: Catalog,
    history: list[Catalog],
    rule_codes: dict[str, str],
    plugin_envs: set[str],
    n: int = 3,
) -> list[str]:
    pool = set(all_names(cat)) | set(rule_codes) | plugin_envs
    probe = normalise_flag(text) if text.startswith("-") else text
    if not text.startswith("-"):
        pool = {p for p in pool if not p.startswith("-")}
        by_lower = {p.lower(): p for p in pool}
        hits = difflib.get_close_matches(probe.lower(), list(by_lower), n=n, cutoff=0.6)
        return [by_lower[h] for h in hits]
    pool = {p for p in pool if p.startswith("-")}
    return difflib.get_close_matches(probe, sorted(pool), n=n, cutoff=0.6)
