"""VC025 config-value-choice: a JSON value outside a config field's choices."""

from __future__ import annotations

from typing import Any, Iterator, Optional

from vcfg.catalog.model import ConfigField
from vcfg.diagnostics import Diagnostic
from vcfg.launch.args.lax import field_accepts
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._config_json import (
    ROLE,
    ConfigObject,
    config_objects,
    connector_name,
    judged_field,
    judged_value,
    shown,
    value_span,
)  # fmt: skip
from vcfg.lint.rules._util import did_you_mean

RULE = Rule(
    code="VC025",
    name="config-value-choice",
    summary="a JSON value outside a config field's choices",
    severity="error",
    why=(
        "Fields such as KVTransferConfig.kv_role accept a fixed set of values "
        "(kv_producer, kv_consumer, kv_both). A misspelling, a different case or a "
        'word like "decode" stops the server when the JSON is read. Enum-typed keys '
        "(CompilationConfig's `mode` and `cudagraph_mode`) take a member's name in any "
        "case or its number; vcfg reads both from the release's source."
    ),
    when_vllm_fails=(
        "at parse time: vllm exits 2 with a literal_error listing the choices; an unknown "
        "`cudagraph_mode` name raises a KeyError there (a traceback)"
    ),
    example=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"decode"}\'\n'
    ),
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_consumer"}\'\n'
    ),
)


def _enums(lc: LaunchContext) -> dict[str, Any]:
    """The catalog's value sets of config fields (``KVTransferConfig.kv_role``), by
    dest: built once per catalog in a run, not per launch."""
    cat = lc.catalog
    run = lc.file.run
    memo = run.memo if run is not None else {}
    hit = memo.get("vc025.enums")
    if hit is None or hit[0] is not cat:
        hit = memo["vc025.enums"] = (cat, {vs.dest: vs for vs in cat.value_sets if "." in vs.dest})
    return hit[1]  # type: ignore[no-any-return]


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    objs = config_objects(lc)
    if not objs:
        return
    enums = _enums(lc)
    for obj in objs:
        for key, v in obj.value.items():
            vs = enums.get(f"{obj.cls.name}.{key}")
            if vs is not None:
                yield from _enum_member(lc, obj, key, v, vs)
                continue
            f = judged_field(obj.cls, key)
            if f is None or "Literal" not in f.hints or not f.choices:
                continue
            jv = judged_value(f, v)
            if not isinstance(jv, (str, int, float)) or isinstance(jv, bool) or field_accepts(f, jv) is not False:
                continue
            choices = ", ".join(f"`{c}`" for c in f.choices)
            near = _suggest(lc, obj, f, v)
            help = f"expected one of {choices}" + (f"; did you mean {near}?" if near else "")
            yield RULE.diag(value_span(lc, obj, key), f"`{shown(v).strip(chr(34))}` is not a valid `{key}`", help=help)


def _suggest(lc: LaunchContext, obj: ConfigObject, f: ConfigField, v: Any) -> Optional[str]:
    words = [c for c in f.choices or [] if isinstance(c, str)]
    if not isinstance(v, str) or not words:
        return None
    same = [c for c in words if c.lower() == v.strip().lower()]
    if same:
        return f"`{same[0]}`"
    near = did_you_mean(v, words, cutoff=0.6)
    if near:
        return f"`{near[0]}`"
    if f.name == ROLE:  # "prefill"/"decode": the roles the connector expects there
        name = connector_name(obj)
        facts = lc.target.knowledge.connector_facts(name, lc.target.version) if name else None
        roles = facts.roles[0] if facts is not None and facts.roles else None
        for side in ("prefill", "decode"):
            if roles is not None and side in v.lower() and getattr(roles, side):
                return " or ".join(f"`{r}`" for r in getattr(roles, side)) + f" (a {side} instance of {name})"
    return None


def _enum_member(lc: LaunchContext, obj: ConfigObject, key: str, v: Any, vs: Any) -> Iterator[Diagnostic]:
    """An enum-typed key whose validator looks text up by (upper-cased) name and leaves a
    number to pydantic's enum check (the catalog's value set for ``Class.field``)."""
    if isinstance(v, str):
        if (v.upper() if vs.case_insensitive else v) in vs.values:
            return
    elif type(v) is int:
        if v in vs.numbers:
            return
    else:
        return  # a float, a list (a tuple member's value), null: not judged
    near = did_you_mean(v.upper(), vs.values, cutoff=0.6) if isinstance(v, str) else []
    names = ", ".join(f"`{n}`" for n in vs.values)
    nums = ", ".join(str(n) for n in vs.numbers)
    help = (
        (f"did you mean `{near[0]}`? " if near else "")
        + f"expected one of {names}"
        + (f" or a number {nums}" if nums else "")
    )
    yield RULE.diag(
        value_span(lc, obj, key),
        f"`{shown(v).strip(chr(34))}` is not one of vllm's {vs.name} for `{key}`; vllm stops {vs.stage} ({vs.check})",
        help=help,
        notes=(f"the names are defined at {vs.loc}",),
    )
