"""What the JSON-value rules (VC020-VC030) share: the config objects of a launch, how
pydantic judges a JSON value against a field, and what is known about a KV connector.

vLLM turns a config-class option's JSON into its dataclass with
``TypeAdapter(cls).validate_json(text)`` (0.33.0 engine/arg_utils.py:369-373, 0.13.0
arg_utils.py:278-282, 0.10.2 arg_utils.py:195-197): pydantic v2 in lax mode on JSON
input, nested config fields validated the same way, ``__post_init__`` run at once.  So a
wrong key, type or literal stops ``vllm serve`` at parse time (exit 2); only the
untyped ``kv_connector_extra_config`` dict waits for the connector to read it.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator, Optional

from vcfg.catalog.model import ConfigClass, ConfigField
from vcfg.diagnostics import Severity, Span
from vcfg.lint.context import LaunchContext, Target
from vcfg.lint.rules._args import json_options, key_span_of, parsed, value_span_of
from vcfg.lint.rules._util import first_absent_since, first_present_after
from vcfg.records import record

# KVTransferConfig's field names (config/kv_transfer.py:57-88 @0.33.0, unchanged since 0.10)
KV_CLASS = "KVTransferConfig"
CONNECTOR = "kv_connector"
ROLE = "kv_role"
EXTRA = "kv_connector_extra_config"
MODULE_PATH = "kv_connector_module_path"

#: ``--kv-offloading-size`` makes vLLM pick the connector itself and fill
#: cpu_bytes_to_use (config/vllm.py:1151-1185 @0.33.0): connector checks stand down.
OFFLOADING_SIZE_DEST = "kv_offloading_size"

#: characters that look like quotes but are not to bash or JSON -> the ASCII quote meant
LOOKALIKES = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\uff07": "'",
    "\u00b4": "'", "\u2039": "'", "\u203a": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\uff02": '"',
    "\u00ab": '"', "\u00bb": '"', "\u301d": '"', "\u301e": '"',
}  # fmt: skip

_MAX_DEPTH = 20


# --------------------------------------------------------------------------- objects


@record(frozen=True)
class ConfigObject:
    """A JSON object vLLM validates as config class ``cls``."""

    ov: Any  # the OptionValue it sits in
    cls: ConfigClass
    path: tuple[Any, ...]  # inside the option's JSON value
    value: dict[str, Any]
    #: a MultiConnector child (built when the connector is, not at parse time)
    child: bool = False

    @property
    def where(self) -> str:
        out = self.ov.option
        for p in self.path:
            out += f"[{p}]" if isinstance(p, int) else f".{p}"
        return out


def config_objects(lc: LaunchContext) -> list[ConfigObject]:
    """Every object of every config-class JSON option of the launch, nested config
    fields and MultiConnector children included (memoised on the context)."""
    memo = lc.memo.get("config_objects")
    if memo is None:
        memo = []
        for ov, cls in json_options(lc):
            memo.extend(_walk(lc, ov, cls, (), ov.json.value, False, 0))
        lc.memo["config_objects"] = memo
    return memo


def child_list_key(lc: LaunchContext, connector: Any) -> Optional[str]:
    """The extra-config key of ``connector`` that lists child KV transfer configs, each
    checked like a top-level value (``child_configs`` in the knowledge packs)."""
    if not isinstance(connector, str) or lc.catalog.connector(connector) is None:
        return None
    facts = lc.target.knowledge.connector_facts(connector, lc.target.version)
    return facts.child_configs if facts is not None else None


def _walk(
    lc: LaunchContext, ov: Any, cls: ConfigClass, path: tuple[Any, ...], value: dict[str, Any], child: bool, depth: int
) -> Iterator[ConfigObject]:
    cat = lc.catalog
    if depth > _MAX_DEPTH:
        return
    yield ConfigObject(ov, cls, path, value, child)
    for key, v in value.items():
        f = cls.field(key)
        if f is None or not f.init or not isinstance(v, dict) or not nested_only(f):
            continue
        sub = cat.config(f.nested or "")
        if sub is not None:
            yield from _walk(lc, ov, sub, path + (key,), v, child, depth + 1)
    if cls.name == KV_CLASS and not has_module_path(value):
        list_key = child_list_key(lc, value.get(CONNECTOR))
        extra = value.get(EXTRA)
        if list_key and isinstance(extra, dict):
            children = extra.get(list_key)
            if isinstance(children, list):
                for i, c in enumerate(children):
                    if isinstance(c, dict):
                        yield from _walk(lc, ov, cls, path + (EXTRA, list_key, i), c, True, depth + 1)


def nested_only(f: ConfigField) -> bool:
    """The field takes a nested config object and nothing else (``None`` aside): a
    ``dict`` or foreign-class alternative would accept any keys.  Not a field typed
    as a class but defaulting to None without allowing it: vLLM fills those itself
    and skips validating a given value (``target_model_config:
    SkipValidation[ModelConfig] = None``, 0.33.0 config/speculative.py:518; the
    schemas leave them open too, vcfg/schema/values.py:field_value)."""
    if f.default is None and not f.required and "None" not in f.hints:
        return False
    return bool(f.nested) and all(h in (f.nested, "None") for h in f.hints)


def kv_objects(lc: LaunchContext) -> list[ConfigObject]:
    return [o for o in config_objects(lc) if o.cls.name == KV_CLASS]


def has_module_path(value: dict[str, Any]) -> bool:
    return value.get(MODULE_PATH) is not None


def offloading_override(lc: LaunchContext, obj: ConfigObject) -> bool:
    """``--kv-offloading-size`` replaces the top-level connector (not a child's)."""
    pa = parsed(lc)
    return not obj.child and pa is not None and pa.value(OFFLOADING_SIZE_DEST) is not None


# --------------------------------------------------------------------------- positions


def key_span(lc: LaunchContext, obj: ConfigObject, key: str) -> Span:
    return key_span_of(lc, obj.ov, *obj.path, key)


def value_span(lc: LaunchContext, obj: ConfigObject, *keys: Any) -> Span:
    """The value's span (a JSON string's with its quotes, as `value_span_of` gives)."""
    return value_span_of(lc, obj.ov, *obj.path, *keys)


# --------------------------------------------------------------------------- fields


def settable(cls: ConfigClass, key: str) -> Optional[ConfigField]:
    """The field ``key`` names, if the class's constructor takes it (``InitVar`` and
    ``_private`` fields included: pydantic dataclasses accept both as keywords;
    ``init=False`` fields excluded)."""
    f = cls.field(key)
    return f if f is not None and f.init else None


def rejects_extra(cls: ConfigClass) -> bool:
    """vLLM refuses unknown keys for this class (>= 0.16 for every @config class)."""
    return cls.extra_forbid


def key_severity(cls: ConfigClass) -> Severity:
    return "error" if rejects_extra(cls) else "warning"


def removed_field(target: Target, cls_name: str, key: str) -> tuple[Optional[str], Optional[str]]:
    """(last release with the field, first without it) up to the target, from history."""

    def present(c: Any) -> bool:
        k = c.config(cls_name)
        return k is not None and k.field(key) is not None

    return first_absent_since(target, present)


def field_added_in(target: Target, cls_name: str, key: str) -> Optional[str]:
    def present(c: Any) -> bool:
        k = c.config(cls_name)
        return k is not None and k.field(key) is not None

    return first_present_after(target, present)


def ignored_note(target: Target) -> str:
    """The note of a key vLLM ignores in the target release."""
    from vcfg.launch.args import since, version_tuple

    # from this release every @config class refuses unknown keys (knowledge: behaviour.toml)
    forbid = since("config-extra-forbid")
    later = f"; from vllm {forbid[0]}.{forbid[1]} on it is an error" if version_tuple(target.version) < forbid else ""
    return f"vllm {target.version} silently ignores it{later}"


#: fields with a ``@field_validator(mode="before"|"wrap")`` that may turn other inputs
#: into valid ones, for a catalog built before vcfg read validators (a class none of
#: whose fields has ``ConfigField.validator`` set).  Catalogs built now carry each
#: field's validator and its shape (vcfg/catalog/extract/configs_validators.py), and
#: that is what is used.  Union over the bundled releases (0.33.0 config/attention.py:
#: 218-240, compilation.py:853-899, kernel.py:66-438, quantization.py:136-152; 0.12.0
#: compilation.py:193-201).  ``*``: every field.
COERCED: dict[str, frozenset[str]] = {
    "AttentionConfig": frozenset({"backend", "mla_prefill_backend", "backend_per_kind"}),
    "CompilationConfig": frozenset({
        "cudagraph_mode", "ir_enable_torch_wrap", "level", "max_cudagraph_capture_size", "mode",
        "pass_config", "use_inductor_graph_partition",
    }),
    "IrOpPriorityConfig": frozenset({"*"}),
    "KernelConfig": frozenset({
        "enable_cutedsl_warmup", "enable_flashinfer_autotune", "enable_jit_warmup", "linear_backend",
        "moe_backend", "sparse_indexer_topk_backend",
    }),
    "PassConfig": frozenset({
        "eliminate_noops", "enable_async_tp", "enable_attn_fusion", "enable_fi_allreduce_fusion",
        "enable_fusion", "enable_noop", "enable_qk_norm_rope_fusion", "enable_sequence_parallelism",
        "enable_sp", "fuse_act_padding", "fuse_act_quant", "fuse_allreduce_rms", "fuse_attn_quant",
        "fuse_gemm_comms", "fuse_mla_dual_rms_norm", "fuse_norm_quant", "fuse_qk_norm_rope_kvcache",
        "fuse_rope_kvcache", "fuse_rope_kvcache_cat_mla",
    }),
    "QuantizationConfigArgs": frozenset({"linear", "moe", "targets"}),
}  # fmt: skip


def judged_field(cls: ConfigClass, key: str) -> Optional[ConfigField]:
    """The settable field whose JSON values vcfg may judge: no validator that coerces
    (a validator that lets None through or normalises text is fine: `judged_value`)."""
    f = settable(cls, key)
    if f is None:
        return None
    if f.validator is not None:
        return None if f.validator == "coerce" else f
    if not any(x.validator for x in cls.fields):  # an older catalog: no validators read
        coerced = COERCED.get(cls.name, frozenset())
        if key in coerced or "*" in coerced:
            return None
    return f


_SKIP: Any = object()


def judged_value(f: ConfigField, v: Any) -> Any:
    """What pydantic judges after the field's validator ran on ``v`` (``_SKIP``: the
    validator returns it as it is, there is nothing to judge)."""
    if f.validator == "none" and v is None:
        return _SKIP
    if isinstance(v, str) and f.validator == "lower-dash":
        return v.lower().replace("-", "_")
    if isinstance(v, str) and f.validator == "upper":
        return v.upper()
    return v


def is_skipped(v: Any) -> bool:
    return v is _SKIP


def shown(v: Any) -> str:
    """A JSON value as the user wrote it (roughly), for messages."""
    import json

    try:
        text = json.dumps(v, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


# --------------------------------------------------------------------------- connectors


def connector_name(obj: ConfigObject) -> Optional[str]:
    c = obj.value.get(CONNECTOR)
    return c if isinstance(c, str) else None


def extra_config(obj: ConfigObject) -> Optional[dict[str, Any]]:
    e = obj.value.get(EXTRA)
    return e if isinstance(e, dict) else None


def judged_connector(lc: LaunchContext, obj: ConfigObject) -> Optional[str]:
    """The connector whose extra-config keys vcfg may judge: registered in the target
    release, not loaded from kv_connector_module_path, not replaced by
    --kv-offloading-size."""
    name = connector_name(obj)
    if name is None or has_module_path(obj.value) or offloading_override(lc, obj):
        return None
    return name if lc.catalog.connector(name) is not None else None


@record(frozen=True)
class ExtraKeys:
    """What vcfg knows about the extra-config keys of one connector in one release."""

    names: set[str]
    #: keys read outside vLLM's source (an external package, a loaded module)
    forwarded: Callable[[str], bool]
    facts: Any  # knowledge ConnectorFacts for the release, or None

    def known(self, key: str) -> bool:
        return key in self.names or self.forwarded(key)


def extra_keys(lc: LaunchContext, name: str, extra: dict[str, Any]) -> Optional[ExtraKeys]:
    conn = lc.catalog.connector(name)
    if conn is None:
        return None
    facts = lc.target.knowledge.connector_facts(name, lc.target.version)
    names = {k.name for k in conn.extra_keys}
    if facts is not None:
        names |= {k.name for k in facts.keys}
    rules = facts.forwarded if facts is not None else []

    def forwarded(key: str) -> bool:
        return any(r.covers(key, extra) for r in rules)

    if facts is not None and facts.child_configs:
        names.add(facts.child_configs)
    return ExtraKeys(names, forwarded, facts)


def plugin_of(lc: LaunchContext, name: str) -> Any:
    """The knowledge plugin that registers connector ``name``, if any."""
    kb = lc.target.knowledge
    found = kb.plugin_of_connector(name)
    if found is None:
        facts = kb.connector_facts(name, lc.target.version)
        if facts is not None and facts.plugin:
            found = kb.plugin(facts.plugin)
    return found


def lookalike_positions(text: str) -> list[int]:
    return [i for i, ch in enumerate(text) if ch in LOOKALIKES]


# --------------------------------------------------------------------------- JSON problems


def problem_occurrence(lc: LaunchContext, p: Any) -> Any:
    """The option occurrence whose value an ``invalid-json`` ArgProblem is about."""
    pa = parsed(lc)
    if pa is None:
        return None
    best = None
    for ov in pa.occurrences:
        if ov.option != p.option or not ov.words:
            continue
        vs = ov.value_span
        if vs is not None and vs.file == p.span.file and vs.start <= p.span.start <= max(vs.end, vs.start + 1):
            return ov
        best = best or ov
    return best


@record(frozen=True)
class Lookalike:
    span: Any  # a launch-model Span
    char: str
    count: int


def lookalike_in_value(lc: LaunchContext, p: Any) -> Optional[Lookalike]:
    """The first quote look-alike in the text of the option a JSON problem is about."""
    ov = problem_occurrence(lc, p)
    if ov is None:
        return None
    first: Optional[Lookalike] = None
    count = 0
    for w in ov.words:
        pos = lookalike_positions(w.value)
        count += len(pos)
        if pos and first is None:
            first = Lookalike(w.span_of(pos[0], pos[0] + 1), w.value[pos[0]], 0)
    if first is None:
        return None
    return Lookalike(first.span, first.char, count)


# --------------------------------------------------------------------------- removed keys


@record(frozen=True)
class Removed:
    since: Optional[str]
    entry: Any  # knowledge RemovedEntry or None


def removed_key(lc: LaunchContext, cls: ConfigClass, key: str) -> Optional[Removed]:
    """``key`` was a field of ``cls`` in an earlier release and is not in the target."""
    if cls.field(key) is not None:
        return None
    target = lc.target
    entry = target.knowledge.removed_config_field(f"{cls.name}.{key}", target.version)
    _, since = removed_field(target, cls.name, key)
    if since is None and entry is None:
        return None
    return Removed(since or getattr(entry, "removed_in", None), entry)


# --------------------------------------------------------------------------- extra-key history


def extra_key_history(lc: LaunchContext, name: str, key: str) -> tuple[Optional[str], Optional[str], bool]:
    """(first release without it after the last that read it, first later release that
    reads it, read both before and after the target) for connector ``name``'s extra
    key ``key``, over the bundled releases (catalog scan or knowledge pack).  Asked only
    for keys the target release does not read."""
    kb = lc.target.knowledge

    def reads(c: Any) -> bool:
        conn = c.connector(name)
        if conn is not None and any(x.name == key for x in conn.extra_keys):
            return True
        facts = kb.connector_facts(name, c.vllm_version)
        return facts is not None and facts.key(key) is not None

    last, removed = first_absent_since(lc.target, reads)
    added = first_present_after(lc.target, reads)
    return removed, added, last is not None and added is not None


def condition_holds(text: str, extra: dict[str, Any]) -> Optional[bool]:
    """Evaluate a knowledge ``required_when`` written in one of the shapes the bundled
    packs use ("A and B are both set", "A is set", "A is V (the default)"); None for
    any other wording (the rule then stays silent)."""

    def is_set(k: str) -> bool:
        return extra.get(k) not in (None, "")

    t = text.strip()
    m = re.fullmatch(r"(\w+) and (\w+) are both set", t)
    if m:
        return is_set(m.group(1)) and is_set(m.group(2))
    m = re.fullmatch(r"(\w+) is set", t)
    if m:
        return is_set(m.group(1))
    m = re.fullmatch(r"(\w+) is ([\w.]+) \(the default\)", t)
    if m:
        return extra.get(m.group(1)) in (None, m.group(2))
    return None
