"""VC022 unknown-config-key: a key the option's config class does not have."""

from __future__ import annotations

from typing import Iterator, Optional

from vcfg.diagnostics import Diagnostic
from vcfg.lint.context import LaunchContext
from vcfg.lint.rule import Rule
from vcfg.lint.rules._config_json import (
    EXTRA,
    KV_CLASS,
    ConfigObject,
    config_objects,
    connector_name,
    field_added_in,
    ignored_note,
    key_severity,
    key_span,
    removed_key,
    settable,
)  # fmt: skip
from vcfg.lint.rules._util import did_you_mean

RULE = Rule(
    code="VC022",
    name="unknown-config-key",
    summary="a key the option's config class does not have",
    severity="error",
    why=(
        "JSON-valued options such as --kv-transfer-config become one of vLLM's config "
        "classes. From vLLM 0.16 every such class forbids unknown keys, so a typo stops "
        "the server at once; before 0.16 the key was silently dropped and the setting "
        "never applied (a warning then)."
    ),
    when_vllm_fails="at parse time from 0.16 (vllm exits 2); never before: the key is ignored",
    example=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_prot":21001}\'\n'
    ),
    use_instead=(
        "vllm serve facebook/opt-125m \\\n"
        '  --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_port":21001}\'\n'
    ),
)


def check(lc: LaunchContext) -> Iterator[Diagnostic]:
    for obj in config_objects(lc):
        for key in obj.value:
            if settable(obj.cls, key) is not None or removed_key(lc, obj.cls, key) is not None:
                continue
            yield _report(lc, obj, key)


def _report(lc: LaunchContext, obj: ConfigObject, key: str) -> Diagnostic:
    cls = obj.cls
    sev = key_severity(cls)
    notes: list[str] = []
    if sev == "warning":
        notes.append(ignored_note(lc.target))
    f = cls.field(key)
    if f is not None:  # an init=False field: vLLM computes it
        return RULE.diag(
            key_span(lc, obj, key),
            f"`{key}` in {obj.where} is computed by vllm and cannot be set",
            help="remove it",
            notes=tuple(notes),
            severity=sev,
        )
    added = field_added_in(lc.target, cls.name, key)
    if added:
        notes.append(f"{cls.name} has `{key}` from vllm {added} on")
    return RULE.diag(
        key_span(lc, obj, key),
        f"unknown key `{key}` in {obj.where}",
        help=_help(lc, obj, key),
        notes=tuple(notes),
        severity=sev,
    )


def _help(lc: LaunchContext, obj: ConfigObject, key: str) -> Optional[str]:
    cls = obj.cls
    # a value of a Literal field written as a key: {"kv_producer": ...} for kv_role
    for f in cls.fields:
        if f.init and f.choices and key in [c for c in f.choices if isinstance(c, str)]:
            return f'`{key}` is a value of `{f.name}`: write "{f.name}": "{key}"'
    # a connector's extra-config key written at the top level
    if cls.name == KV_CLASS:
        name = connector_name(obj)
        conn = lc.catalog.connector(name) if name else None
        if conn is not None and any(k.name == key for k in conn.extra_keys):
            return f"`{key}` is read by {name} from `{EXTRA}`: move it there"
    public = [f.name for f in cls.fields if f.init and not f.name.startswith("_")]
    near = did_you_mean(key, public, cutoff=0.6)
    if near:
        return f"did you mean `{near[0]}`?"
    shown = ", ".join(f"`{n}`" for n in public[:12])
    more = ", ..." if len(public) > 12 else ""
    return f"{cls.name} takes {shown}{more}" if public else None
