"""Serve configs generated from a release's catalog, for the lint-vs-schema equivalence
test (tests/test_schema_strict_equivalence.py): one valid config per option, and one
per class of error a schema can state (unknown key, wrong type, out of range, wrong
choice or registered name), at the top level and inside the mapping of every
JSON-valued option whose value is a config class.

Every config holds a few valid options (so that vcfg reads it as a serve config) and at
most one mistake, named by the case's ``kind`` and ``key`` (the top-level key it sits
under)."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.catalog.model import Catalog, ConfigClass, ConfigField, Flag
from vcfg.records import record
from vcfg.schema.loader import mappings_work

#: valid options every generated config holds (telling enough to be read as a serve
#: config, far from every bound and cross-field check)
BASE: dict[str, Any] = {
    "model": "Qwen/Qwen3-8B",
    "max-num-seqs": 64,
    "gpu-memory-utilization": 0.85,
    "seed": 0,
}

#: options a generated value would make vcfg (rightly) read something else or run
#: the launch differently: not generated (they are not values a schema checks)
SKIP_OPTIONS = frozenset(
    {
        "config",  # reads another file
        "help",
        "model",  # the base config names the model
        "headless",  # a headless launch has no API server: another set of rules
    }
)


@record(frozen=True)
class Case:
    name: str  # a stable test id
    kind: str  # valid, unknown-key, wrong-type, out-of-range, wrong-choice
    key: str  # the top-level key the case is about
    doc: dict[str, Any]
    bad: bool  # whether the case holds a mistake


def long_names(flag: Flag) -> list[str]:
    return [s[2:] for s in flag.option_strings if s.startswith("--")]


def _is_switch(flag: Flag) -> bool:
    return (
        flag.action in ("store_true", "store_false", "store_const", "boolean_optional", "enable_disable")
        or flag.nargs == 0
    )


def _in_bounds(con: Any, kind: str) -> Any:
    """A number inside the bounds (``kind``: int or float)."""
    lo = con.ge if con.ge is not None else (con.gt + (1 if kind == "int" else 0.5) if con.gt is not None else None)
    hi = con.le if con.le is not None else (con.lt - (1 if kind == "int" else 0.5) if con.lt is not None else None)
    if lo is not None and hi is not None:
        v = (lo + hi) / 2
    elif lo is not None:
        v = lo + 1
    elif hi is not None:
        v = hi - 1
    else:
        v = 1
    return int(v) if kind == "int" else float(v)


def _outside(con: Any, kind: str) -> Optional[Any]:
    if con is None:
        return None
    if con.ge is not None:
        v = con.ge - 1
    elif con.gt is not None:
        v = con.gt
    elif con.le is not None:
        v = con.le + 1
    elif con.lt is not None:
        v = con.lt
    else:
        return None
    return int(v) if kind == "int" else float(v)


def _field_of(cat: Catalog, flag: Flag) -> Optional[ConfigField]:
    if not (flag.config_class and flag.config_field):
        return None
    cls = cat.config(flag.config_class)
    return cls.field(flag.config_field) if cls is not None else None


def _number_kind(flag: Flag) -> Optional[str]:
    if flag.type in ("int", "human_readable_int", "human_readable_int_or_auto"):
        return "int"
    if flag.type == "float":
        return "float"
    return None


def flag_cases(cat: Catalog, flag: Flag, value_class: Optional[str]) -> Iterator[Case]:
    names = long_names(flag)
    if flag.positional or not names or names[0] in SKIP_OPTIONS or flag.deprecated:
        return
    key = names[0]
    vs = cat.value_set(flag.dest)
    fld = _field_of(cat, flag)
    con = fld.constraint if fld is not None else None
    cls = cat.config(flag.config_class) if flag.config_class else None
    if cls is not None and (cls.built_when or "").startswith("option:"):
        con = None  # LoRAConfig's bounds hold only with --enable-lora (ConfigClass.built_when)
    num = _number_kind(flag)

    def case(kind: str, value: Any, bad: bool) -> Case:
        return Case(f"{kind}:{key}", kind, key, {**BASE, key: value}, bad)

    if _is_switch(flag):
        yield case("valid", True, False)
        # `false` is dropped by the loader: a mistake (VC011) where the option may be on
        from vcfg.launch.args.argv import false_matters

        yield case("false", False, false_matters(cat, "--" + key))
        return
    if flag.nargs in ("+", "*") or isinstance(flag.nargs, int):
        return  # lists: a value of each item type is below
    if vs is not None and vs.values and vs.when is None and not vs.plugins:
        yield case("valid", vs.values[0], False)
        yield case("wrong-choice", vs.values[0] + "x", True)
    elif flag.choices:
        first = next((c for c in flag.choices if c is not None), None)
        if first is not None:
            yield case("valid", first, False)
            if isinstance(first, str):
                yield case("wrong-choice", first + "x", True)
    elif num is not None:
        good = _in_bounds(con, num) if con is not None else 1
        yield case("valid", good, False)
        yield case("wrong-type", "abc", True)
        bad = _outside(con, num)
        if bad is not None:
            yield case("out-of-range", bad, True)
    elif flag.type in ("json", "config", "dict_or_str") and value_class:
        yield case("valid", {}, False)
    elif flag.type in (None, "str") and flag.dest != "model":
        yield case("valid", "x", False)


def field_cases(cat: Catalog, key: str, cls: ConfigClass, path: tuple[str, ...] = (), depth: int = 0) -> Iterator[Case]:
    """Cases for the keys of config class ``cls`` under the top-level ``key``."""
    from vcfg.lint.rules._config_json import judged_field

    def nest(value: dict[str, Any]) -> dict[str, Any]:
        for p in reversed(path):
            value = {p: value}
        return value

    def case(kind: str, name: str, inner: dict[str, Any], bad: bool) -> Case:
        where = ".".join((key, *path, name))
        return Case(f"{kind}:{where}", kind, key, {**BASE, key: nest(inner)}, bad)

    if cls.extra_forbid:
        yield case("unknown-key", "no_such_key", {"no_such_key": 1}, True)
    from vcfg.lint.rules._config_json import nested_only

    for f in cls.fields:
        if not f.init or f.name.startswith("_") or judged_field(cls, f.name) is None or f.required:
            continue
        sub = cat.config(f.nested) if f.nested and nested_only(f) else None
        if sub is not None and depth < 2:
            yield from field_cases(cat, key, sub, (*path, f.name), depth + 1)
            continue
        hints = [h for h in f.hints if h != "None"]
        if len(hints) != 1:
            continue
        h = hints[0]
        if h in ("int", "float"):
            good = _in_bounds(f.constraint, h) if f.constraint is not None else 1
            yield case("valid", f.name, {f.name: good}, False)
            yield case("wrong-type", f.name, {f.name: "abc"}, True)
            bad = _outside(f.constraint, h)
            if bad is not None:
                yield case("out-of-range", f.name, {f.name: bad}, True)
        elif h == "bool":
            yield case("valid", f.name, {f.name: True}, False)
            yield case("wrong-type", f.name, {f.name: "abc"}, True)
        elif h == "Literal" and f.choices and all(isinstance(c, str) for c in f.choices if c is not None):
            first = next(c for c in f.choices if c is not None)
            yield case("valid", f.name, {f.name: first}, False)
            yield case("wrong-choice", f.name, {f.name: first + "x"}, True)
        elif h == "str":
            yield case("valid", f.name, {f.name: "x"}, False)
            yield case("wrong-type", f.name, {f.name: [1]}, True)


def cases(cat: Catalog) -> list[Case]:
    """Every generated case of the release, valid ones first per option."""
    from vcfg.lint.rules._args import value_class

    out: list[Case] = [Case("valid:base", "valid", "model", dict(BASE), False)]
    seen: set[str] = set()
    for flag in cat.flags:
        vc = value_class(cat, flag)
        for c in flag_cases(cat, flag, vc):
            if c.name not in seen:
                seen.add(c.name)
                out.append(c)
        names = long_names(flag)
        if vc and names and cat.config(vc) is not None and not flag.deprecated:
            if not mappings_work(cat.vllm_version):
                # before 0.16 the loader passes a mapping on as Python text, which vLLM
                # cannot read: every non-empty mapping is a mistake (JSON text in a
                # string is the way; what is inside a string no schema can see)
                out.append(
                    Case(f"mapping:{names[0]}", "python-text", names[0], {**BASE, names[0]: {"no_such_key": 1}}, True)
                )
                continue
            for c in field_cases(cat, names[0], cat.config(vc)):
                if c.name not in seen:
                    seen.add(c.name)
                    out.append(c)
    # dotted keys (`kv-transfer-config.kv_port: 5601`): merged into the option's JSON
    for flag in cat.flags:
        vc = value_class(cat, flag)
        names = long_names(flag)
        cls = cat.config(vc) if vc else None
        if cls is None or not names or flag.deprecated or names[0] in SKIP_OPTIONS:
            continue
        base = names[0]
        out.append(
            Case(
                f"unknown-key:{base}.no_such_key",
                "unknown-key",
                f"{base}.no_such_key",
                {**BASE, f"{base}.no_such_key": 1},
                True,
            )
        )
        num = next(
            (
                f
                for f in cls.fields
                if f.init and not f.name.startswith("_") and f.hints == ["int"] and f.constraint is None
            ),
            None,
        )
        if num is not None:
            key = f"{base}.{num.name}"
            out.append(Case(f"valid:{key}", "valid", key, {**BASE, key: 2}, False))
            out.append(Case(f"dotted-true:{key}", "wrong-type", key, {**BASE, key: True}, True))
    # misspelt options: vLLM's parser stops ("unrecognized arguments")
    for wrong in ("max-num-seqz", "gpu-memory-utilisation", "tensor_paralel_size"):
        out.append(Case(f"unknown-key:{wrong}", "unknown-key", wrong, {**BASE, wrong: 1}, True))
    return out
