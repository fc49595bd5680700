"""Schema builders on small hand-made catalogs: keys, values, words, strictness."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import jsonschema
import pytest
from catalog_factory import L, make_catalog

from vcfg.catalog.knowledge import RemovedEntry
from vcfg.catalog.model import (
    Catalog,
    ConfigClass,
    ConfigField,
    Connector,
    Constraint,
    EnvVar,
    ExtraKey,
    Flag,
    Loc,
)
from vcfg.errors import VcfgError
from vcfg.records import replace
from vcfg.schema import common
from vcfg.schema.build import SchemaOptions, build_schema, resolve_kind
from vcfg.schema.history import History, release_ranges

# --------------------------------------------------------------------------- fixtures


def F(*opts: str, **kw: Any) -> Flag:
    dest = kw.pop("dest", opts[0].lstrip("-").replace("-", "_"))
    return Flag(option_strings=list(opts), dest=dest, loc=Loc(file="vllm/engine/arg_utils.py", line=7), **kw)


def field(name: str, type_: str, hints: list[str], **kw: Any) -> ConfigField:
    return ConfigField(name=name, type=type_, hints=hints, loc=Loc(file="vllm/config/kv.py", line=10), **kw)


def kv_class(*extra: ConfigField, forbid: bool = True) -> ConfigClass:
    return ConfigClass(
        name="KVTransferConfig",
        loc=Loc(file="vllm/config/kv.py", line=5),
        extra_forbid=forbid,
        fields=[
            field("kv_connector", "str | None", ["str", "None"]),
            field(
                "kv_role", "Literal[...] | None", ["Literal", "None"], choices=["kv_producer", "kv_both", "kv_consumer"]
            ),
            field("kv_port", "int", ["int"], default=14579),
            field("kv_connector_extra_config", "dict[str, Any]", ["dict"], default={}),
            field("kv_connector_module_path", "str | None", ["str", "None"]),
            *extra,
        ],
    )


def comp_class() -> ConfigClass:
    return ConfigClass(
        name="CompilationConfig",
        loc=L,
        extra_forbid=True,
        fields=[
            field("mode", "int | None", ["int", "None"], constraint=Constraint(ge=0, le=3)),
            field("pass_config", "PassConfig", ["PassConfig"], default={"$config": "PassConfig"}, nested="PassConfig"),
            field("sizes", "list[int]", ["list[int]"], default=[]),
            field("derived", "int", ["int"], init=False),
        ],
    )


def pass_class() -> ConfigClass:
    return ConfigClass(
        name="PassConfig", loc=L, extra_forbid=True, fields=[field("fuse", "bool", ["bool"], default=False)]
    )


def serve_catalog(version: str = "0.33.0", **kw: Any) -> Catalog:
    flags = [
        F("-h", "--help", action="help", nargs=0, default="==SUPPRESS=="),
        F("--max-num-seqs", type="int", optional=True, config_class="SchedulerConfig", config_field="max_num_seqs"),
        F("--gpu-memory-utilization", "--device-memory-utilization", type="float", default=0.9),
        F("--dtype", type="str", choices=["auto", "half", "bfloat16"], default="auto"),
        F(
            "--enable-prefix-caching",
            "--no-enable-prefix-caching",
            "--disable-prefix-caching",
            action="enable_disable",
            nargs=0,
        ),
        F("--served-model-name", type="str", nargs="+", optional=True),
        F("--max-model-len", type="human_readable_int_or_auto"),
        F("--moe-backend", type="lower_underscore", choices=["auto", "deep_gemm"], default="auto"),
        F("--kv-transfer-config", type="config", optional=True, config_class_of_value="KVTransferConfig"),
        F(
            "-cc",
            "--compilation-config",
            type="config",
            config_class_of_value="CompilationConfig",
            default={"$config": "CompilationConfig"},
        ),
        F("--old-flag", type="int", deprecated=True, default=1),
        F("--tool-call-parser", type="str", optional=True, metavar_choices=["hermes", "mistral"]),
        F("--hf-token", type="bool", nargs="?", const=True),
        Flag(option_strings=[], dest="model_tag", type="str", nargs="?", positional=True),
    ]
    return Catalog(
        vllm_version=version,
        flags=kw.get("flags", flags),
        configs=kw.get("configs", [kv_class(), comp_class(), pass_class()]),
        connectors=kw.get(
            "connectors",
            [
                Connector(
                    name="NixlConnector",
                    module="m",
                    class_name="N",
                    loc=L,
                    extra_keys=[
                        ExtraKey(name="backends", default=["UCX"], loc=L),
                        ExtraKey(name="num_threads", type="int", default=4, loc=L),
                    ],
                ),
                Connector(
                    name="ExampleConnector",
                    module="m",
                    class_name="E",
                    loc=L,
                    extra_keys=[ExtraKey(name="shared_storage_path", default="/tmp", loc=L)],
                ),
            ],
        ),
        env_vars=kw.get("env_vars", []),
    )


def ok(schema: dict[str, Any], instance: Any) -> bool:
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema).is_valid(instance)


def errors(schema: dict[str, Any], instance: Any) -> list[str]:
    cls = jsonschema.validators.validator_for(schema)
    return sorted(".".join(["$", *map(str, e.absolute_path)]) for e in cls(schema).iter_errors(instance))


def texts(schema: Any) -> list[str]:
    out: list[str] = []
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k in ("markdownDescription", "description", "deprecationMessage") and isinstance(v, str):
                out.append(v)
            else:
                out.extend(texts(v))
    elif isinstance(schema, list):
        for v in schema:
            out.extend(texts(v))
    return out


# --------------------------------------------------------------------------- serve


def test_serve_keys_in_both_spellings_aliases_and_off_forms() -> None:
    s = build_schema(serve_catalog(), "serve")
    props = s["properties"]
    assert props["max_num_seqs"] == {"allOf": [{"$ref": "#/properties/max-num-seqs"}], "doNotSuggest": True}
    assert props["device-memory-utilization"] == {"$ref": "#/properties/gpu-memory-utilization"}
    assert props["no-enable-prefix-caching"]["type"] == "boolean"
    assert "turns `enable-prefix-caching` off" in props["disable-prefix-caching"]["markdownDescription"]
    assert "help" not in props and "model_tag" not in props and "cc" not in props
    # the same value rules apply to both spellings
    assert ok(s, {"max_num_seqs": 8}) and not ok(s, {"max_num_seqs": "abc"})
    assert errors(s, {"max_num_seqs": "x", "max-num-seqs": "y"}) == ["$.max-num-seqs", "$.max_num_seqs"]


@pytest.mark.parametrize(
    "key,good,bad",
    [
        ("max-num-seqs", [8, "8", None], ["abc", 1.5, True, [1, 2]]),
        ("gpu-memory-utilization", [0.9, "0.8", 1, "1e-1"], ["high", None, False]),
        ("dtype", ["auto", "bfloat16"], ["bf16", "BFloat16", None, 3]),
        ("enable-prefix-caching", [True, False], ["yes", 1, None]),
        ("served-model-name", ["a", ["a", "b"], 7, None], [[], True, {"a": 1}]),
        ("max-model-len", [4096, "32k", "2M", "1K", "auto", "AUTO", "25.6k"], ["1.5K", "lots", -1.5]),
        ("moe-backend", ["auto", "deep_gemm", "Deep-Gemm", "DEEP_GEMM"], ["deepgemm", 3]),
        ("tool-call-parser", ["hermes", "anything", None], [True, ["a"]]),
        ("hf-token", [True, "hf_abc"], [None, 3]),
    ],
)
def test_serve_values(key: str, good: list[Any], bad: list[Any]) -> None:
    s = build_schema(serve_catalog(), "serve")
    for v in good:
        assert ok(s, {key: v}), (key, v)
    for v in bad:
        assert errors(s, {key: v}) == [f"$.{key}"], (key, v)


def test_serve_json_options_take_a_mapping_or_json_text_from_0_16() -> None:
    s = build_schema(serve_catalog("0.16.0"), "serve")
    good = {"kv_connector": "NixlConnector", "kv_role": "kv_both", "kv_port": "21001"}
    assert ok(s, {"kv-transfer-config": good})
    assert ok(s, {"kv-transfer-config": json.dumps(good)})
    assert ok(s, {"kv-transfer-config": None}) and ok(s, {"kv-transfer-config": "None"})
    assert errors(s, {"kv-transfer-config": "kv_both"}) == ["$.kv-transfer-config"]
    assert errors(s, {"compilation-config": "None"}) == ["$.compilation-config"]  # not optional
    assert errors(s, {"kv-transfer-config": {**good, "kv_role": "producer"}}) == ["$.kv-transfer-config.kv_role"]
    assert ok(s, {"compilation-config": {"mode": 3, "pass_config": {"fuse": True}, "sizes": [1, 2]}})
    assert not ok(s, {"compilation-config": {"mode": 4}})  # le=3
    assert not ok(s, {"compilation-config": {"pass_config": {"fuse": "maybe"}}})
    assert not ok(s, {"compilation-config": None})  # not an optional option
    # nested class schemas live in $defs (definitions in draft-07) once each
    assert set(s["definitions"]) == {
        "KVTransferConfig",
        "CompilationConfig",
        "PassConfig",
        "_abbreviation",
        "_dotted",
        "_dotted_unknown",
    }
    assert "derived" not in s["definitions"]["CompilationConfig"]["properties"]


def test_serve_json_options_before_0_16_take_json_text_only() -> None:
    s = build_schema(serve_catalog("0.15.1"), "serve")
    assert ok(s, {"kv-transfer-config": '{"kv_connector": "NixlConnector", "kv_role": "kv_both"}'})
    assert errors(s, {"kv-transfer-config": {"kv_connector": "NixlConnector"}}) == ["$.kv-transfer-config"]
    assert set(s["definitions"]) <= {"_abbreviation", "_dotted", "_dotted_unknown"}  # no class schemas
    assert "Python text" in s["properties"]["kv-transfer-config"]["markdownDescription"]


def test_serve_words_are_facts() -> None:
    s = build_schema(serve_catalog(), "serve")
    p = s["properties"]
    md = p["max-num-seqs"]["markdownDescription"]
    assert "integer" in md and "default `null`" in md and "`SchedulerConfig.max_num_seqs`" in md
    assert "vllm/engine/arg_utils.py:7" in md
    assert "Choices: `auto`, `half`, `bfloat16`" in p["dtype"]["markdownDescription"]
    assert p["dtype"]["default"] == "auto" and p["dtype"]["enum"] == ["auto", "half", "bfloat16"]
    assert (
        "`false` is ignored (write `no-enable-prefix-caching: true`)"
        in p["enable-prefix-caching"]["markdownDescription"]
    )
    assert p["old-flag"]["deprecated"] is True
    assert p["old-flag"]["deprecationMessage"] == "--old-flag is deprecated in vLLM 0.33.0."
    assert p["tool-call-parser"]["examples"] == ["hermes", "mistral"]
    assert "also `-cc`" in p["compilation-config"]["markdownDescription"]
    assert "default `CompilationConfig()`" in p["compilation-config"]["markdownDescription"]


def test_serve_keys_of_other_releases_are_rejected_with_a_message() -> None:
    old = serve_catalog("0.20.2", flags=[F("--max-num-seqs", type="int"), F("--gone", type="int")])
    new = serve_catalog("0.33.0", flags=[F("--max-num-seqs", type="int"), F("--fresh", type="int")])
    h = History.of([old, new])
    s_new = build_schema(new, "serve", history=h)
    assert errors(s_new, {"gone": 1}) == ["$.gone"]
    # vcfg's message and only it: no "Matches a schema that is not allowed" (`not`), no
    # second, deprecation diagnostic
    message = "--gone: removed after vLLM 0.20.2."
    assert s_new["properties"]["gone"] == {
        "const": message,
        "errorMessage": message,
        "doNotSuggest": True,
    }
    s_old = build_schema(old, "serve", history=h)
    assert s_old["properties"]["fresh"]["errorMessage"] == "--fresh: only from vLLM 0.33.0 on."
    assert "Releases: 0.20.2" in s_old["properties"]["gone"]["markdownDescription"]
    # in every known release: nothing said
    assert "Releases" not in s_new["properties"]["max-num-seqs"]["markdownDescription"]


def test_serve_knowledge_pack_note_joins_the_message() -> None:
    old = serve_catalog("0.20.2", flags=[F("--gone", type="int")])
    new = serve_catalog("0.33.0", flags=[F("--kept", type="int")])
    entry = RemovedEntry(
        kind="flag",
        name="--gone",
        removed_in="0.33.0",
        versions=">=0.21",
        sources=["research:vllm-config-surface.md"],
        note="folded into --kept.",
        replacement=["--kept"],
    )
    know = SimpleNamespace(
        removed_flag=lambda name, version: entry if name == "--gone" else None,
        removed_config_field=lambda name, version: None,
        connector_facts=lambda name, version: None,
    )
    s = build_schema(new, "serve", history=History.of([old, new]), knowledge=know)
    assert s["properties"]["gone"]["errorMessage"] == (
        "--gone: removed after vLLM 0.20.2. folded into --kept. Use instead: --kept."
    )


def test_lenient_and_strict_serve() -> None:
    lenient = build_schema(serve_catalog(), "serve")
    strict = build_schema(serve_catalog(), "serve", SchemaOptions(strict=True))
    # a misspelt option: vLLM rejects it, and so do both schemas
    assert errors(lenient, {"max-num-seqz": 5}) == ["$.max-num-seqz"]
    assert errors(strict, {"max-num-seqz": 5}) == ["$.max-num-seqz"]
    kv = {"kv-transfer-config": {"kv_connector": "NixlConnector", "kv_role": "kv_both", "kv_conector": "x"}}
    assert not ok(lenient, kv) and not ok(strict, kv)  # KVTransferConfig forbids extras
    # what vLLM's parser accepts: an unambiguous prefix (default only: lint warns, VC012)
    # and a dotted key (both: lint checks the merged value)
    assert ok(lenient, {"max-num-s": 5, "kv-transfer-config.kv_role": "kv_both"})
    assert errors(strict, {"max-num-s": 5}) == ["$.max-num-s"]
    assert ok(strict, {"kv-transfer-config.kv_role": "kv_both"})
    assert errors(lenient, {"max": 5}) == ["$.max"]  # ambiguous: max-num-seqs, max-model-len
    assert strict["$id"].endswith("/0.33.0/serve.strict.schema.json")


# --------------------------------------------------------------------------- kv-transfer-config


def test_kv_transfer_connector_names_and_module_path() -> None:
    s = build_schema(serve_catalog(), "kv-transfer-config")
    assert s["$id"] == "https://vcfg.dev/schemas/0.33.0/kv-transfer-config.schema.json"
    assert ok(s, {"kv_connector": "NixlConnector", "kv_role": "kv_both"})
    assert errors(s, {"kv_connector": "NixlConector", "kv_role": "kv_both"}) == ["$.kv_connector"]
    assert ok(s, {"kv_connector": "MyConnector", "kv_role": "kv_both", "kv_connector_module_path": "my.pkg"})
    assert ok(s, {})
    # a connector without a role: vLLM rejects it while validating the JSON
    assert errors(s, {"kv_connector": "NixlConnector"}) == ["$"]
    assert s["properties"]["kv_connector"]["examples"] == ["NixlConnector", "ExampleConnector"]


def test_kv_transfer_extra_config_per_connector() -> None:
    s = build_schema(serve_catalog(), "kv-transfer-config")
    base = {"kv_connector": "NixlConnector", "kv_role": "kv_both"}
    assert ok(s, {**base, "kv_connector_extra_config": {"num_threads": 8, "backends": ["UCX"]}})
    assert ok(s, {**base, "kv_connector_extra_config": {"num_threads": "8"}})  # int("8")
    assert errors(s, {**base, "kv_connector_extra_config": {"num_threads": "eight"}}) == [
        "$.kv_connector_extra_config.num_threads"
    ]
    # another connector's block does not apply
    assert ok(
        s,
        {
            "kv_connector": "ExampleConnector",
            "kv_role": "kv_both",
            "kv_connector_extra_config": {"num_threads": "eight"},
        },
    )
    then = next(
        b["then"]
        for b in s["allOf"]
        if b.get("if", {}).get("properties", {}).get("kv_connector", {}).get("const") == "NixlConnector"
    )
    keys = then["properties"]["kv_connector_extra_config"]["properties"]
    assert keys["backends"]["default"] == ["UCX"] and keys["num_threads"]["default"] == 4
    assert "read with `int()`" in keys["num_threads"]["markdownDescription"]


def test_kv_transfer_knowledge_types_choices_required() -> None:
    key = SimpleNamespace(
        name="proxy_port",
        required=True,
        json_types=["string"],
        choices=None,
        note="joined to a string",
        required_when=None,
        unique_per_host=False,
    )
    only = SimpleNamespace(
        name="send_type",
        required=False,
        json_types=[],
        choices=["PUT", "GET"],
        note="",
        required_when=None,
        unique_per_host=False,
    )
    facts = SimpleNamespace(keys=[key, only], key=lambda n: {"proxy_port": key, "send_type": only}.get(n))
    know = SimpleNamespace(
        connector_facts=lambda name, version: facts if name == "NixlConnector" else None,
        removed_config_field=lambda name, version: None,
        removed_flag=lambda name, version: None,
    )
    s = build_schema(serve_catalog(), "kv-transfer-config", knowledge=know)
    base = {"kv_connector": "NixlConnector", "kv_role": "kv_both"}
    assert ok(s, {**base, "kv_connector_extra_config": {"proxy_port": "30001"}})
    assert errors(s, {**base, "kv_connector_extra_config": {"proxy_port": 30001}}) == [
        "$.kv_connector_extra_config.proxy_port"
    ]
    assert errors(s, base) == ["$"]  # the extra config (with proxy_port) is required
    assert not ok(s, {**base, "kv_connector_extra_config": {"proxy_port": "1", "send_type": "put"}})


def test_kv_transfer_removed_field_rejected_where_forbidden_ignored_before() -> None:
    old = serve_catalog("0.15.1", configs=[kv_class(field("kv_buffer_size", "float", ["float"]), forbid=False)])
    new = serve_catalog("0.33.0")
    h = History.of([old, new])
    s = build_schema(new, "kv-transfer-config", history=h)
    assert errors(s, {"kv_role": "kv_both", "kv_buffer_size": "1e9"}) == ["$.kv_buffer_size"]
    assert s["properties"]["kv_buffer_size"]["errorMessage"] == (
        "KVTransferConfig.kv_buffer_size: removed after vLLM 0.15.1."
    )
    s_old = build_schema(old, "kv-transfer-config", history=h)
    assert ok(s_old, {"kv_buffer_size": "1e9"}) and not ok(s_old, {"kv_buffer_size": "lots"})
    # the default closes the classes that forbid extras; strict closes the others too
    assert ok(build_schema(old, "kv-transfer-config", history=h), {"x": 1})
    assert not ok(build_schema(new, "kv-transfer-config", history=h), {"x": 1})
    assert not ok(build_schema(old, "kv-transfer-config", SchemaOptions(strict=True), history=h), {"x": 1})


# --------------------------------------------------------------------------- env


def env_catalog() -> Catalog:
    E = lambda name, **kw: EnvVar(name=name, loc=Loc(file="vllm/envs.py", line=3), **kw)  # noqa: E731
    return make_catalog(
        envs=[
            E("VLLM_FLAG", type="bool", parse="bool_int", default=False, can_raise=True),
            E("VLLM_WORD", type="bool", parse="bool_word", truthy=["1", "true"], default=False),
            E("VLLM_PORT", type="int", parse="port", default=None, can_raise=True),
            E("VLLM_TIMEOUT", type="float", parse="float", default=5.0),
            E("VLLM_MODE", type="str", parse="choices", choices=["fast", "slow"], case_sensitive=False),
            E("VLLM_SET", type="str", parse="set_choices", choices=["a", "b"]),
            E("VLLM_PATH", type="str", parse="str", default="/x"),
        ]
    )


@pytest.mark.parametrize(
    "name,good,bad",
    [
        ("VLLM_FLAG", ["1", "0", 1, " 1 "], ["true", "yes", True, ""]),
        ("VLLM_WORD", ["true", "no", True, 1], [None]),
        ("VLLM_PORT", ["8000", 8000], ["tcp://10.0.0.1:5000", "80a"]),
        ("VLLM_TIMEOUT", ["1.5", "1e3", 2, "inf"], ["soon", True]),
        ("VLLM_MODE", ["fast", "SLOW"], ["medium"]),
        ("VLLM_SET", ["a", "a,b", "a, b", ""], ["c", "a,c"]),
        ("VLLM_PATH", ["/any"], [3]),
    ],
)
def test_env_values(name: str, good: list[Any], bad: list[Any]) -> None:
    s = build_schema(env_catalog(), "env")
    for v in good:
        assert ok(s, {name: v}), (name, v)
    for v in bad:
        assert errors(s, {name: v}) == [f"$.{name}"], (name, v)


def test_env_words_and_strict_names() -> None:
    s = build_schema(env_catalog(), "env")
    md = s["properties"]["VLLM_FLAG"]["markdownDescription"]
    assert "`bool(int(value))`" in md and "default `false`" in md and "vllm/envs.py:3" in md
    assert ok(s, {"PATH": "/bin", "VLLM_TYPO": "1"})
    strict = build_schema(env_catalog(), "env", SchemaOptions(strict=True))
    assert ok(strict, {"PATH": "/bin", "NCCL_DEBUG": "INFO", "VLLM_FLAG": "1"})
    assert errors(strict, {"VLLM_TYPO": "1"}) == ["$"]


def test_env_removed_variable_warns_only() -> None:
    E = lambda name: EnvVar(name=name, type="int", parse="int", loc=L)  # noqa: E731
    old = make_catalog("0.20.2", envs=[E("VLLM_RPC_TIMEOUT"), E("VLLM_KEEP")])
    new = make_catalog("0.33.0", envs=[E("VLLM_KEEP")])
    s = build_schema(new, "env", history=History.of([old, new]))
    prop = s["properties"]["VLLM_RPC_TIMEOUT"]
    assert prop["deprecationMessage"].startswith("VLLM_RPC_TIMEOUT: removed after vLLM 0.20.2")
    assert ok(s, {"VLLM_RPC_TIMEOUT": "abc"})  # vLLM ignores it: not an error


# --------------------------------------------------------------------------- general


@pytest.mark.parametrize("draft", common.DRAFTS)
@pytest.mark.parametrize("strict", [False, True])
def test_every_kind_validates_against_its_metaschema(draft: str, strict: bool) -> None:
    cat = serve_catalog()
    cat = replace(cat, env_vars=env_catalog().env_vars)
    for kind in ["serve", "kv-transfer-config", "env", "CompilationConfig"]:
        s = build_schema(cat, kind, SchemaOptions(strict=strict, draft=draft))  # type: ignore[arg-type]
        assert s["$schema"] == common.METASCHEMA[draft]
        jsonschema.validators.validator_for(s).check_schema(s)
        text = json.dumps(s)
        if draft == "07":
            assert "$defs" not in text
            assert kind != "serve" or "#/definitions/KVTransferConfig" in text
        else:
            assert "#/definitions/" not in text
            assert kind != "serve" or "#/$defs/KVTransferConfig" in text


def test_config_class_kind_and_errors() -> None:
    cat = serve_catalog()
    s = build_schema(cat, "compilationconfig")
    assert s["$id"].endswith("/0.33.0/CompilationConfig.schema.json")
    assert ok(s, {"pass_config": {"fuse": True}}) and not ok(s, {"pass_config": {"fuse": 2}})
    with pytest.raises(VcfgError) as e:
        resolve_kind(cat, "CompilatonConfig")
    assert "CompilationConfig" in (e.value.hint or "")


def test_committed_form_has_no_prose_without_help_texts() -> None:
    s = build_schema(serve_catalog(), "serve")
    words = "\n".join(texts(s))
    # only vcfg's own sentence forms: every description is built from facts
    for t in texts(s["properties"]):
        assert len(t) < 400
    assert "Generated by vcfg" in s["$comment"]
    assert "vllm/engine/arg_utils.py:7" in words


def test_release_ranges() -> None:
    order = ["0.10.2", "0.11.2", "0.12.0", "0.13.0"]
    assert release_ranges(["0.10.2", "0.11.2", "0.13.0"], order) == "0.10.2\u20130.11.2, 0.13.0"
    assert release_ranges([], order) == ""


def test_dumps_puts_each_property_on_one_line() -> None:
    s = build_schema(serve_catalog(), "serve")
    text = common.dumps(s)
    assert json.loads(text) == s
    line = next(ln for ln in text.splitlines() if ln.lstrip().startswith('"max-num-seqs"'))
    assert json.loads("{" + line.strip().rstrip(",") + "}")["max-num-seqs"] == s["properties"]["max-num-seqs"]
    assert common.dumps(s) == text  # stable


# --------------------------------------------------------------------------- issue 17


@pytest.mark.parametrize("strict", [False, True])
def test_real_serve_schema_bounds_misspellings_and_removed_keys(strict: bool) -> None:
    from vcfg.catalog import store
    from vcfg.schema.api import make_schema

    cat, _ = store.load("0.33.0")
    s = make_schema("serve", cat, strict=strict)
    p = s["properties"]
    # bounds vLLM's config classes state: CacheConfig.gpu_memory_utilization
    # Field(gt=0, le=1), SchedulerConfig.max_num_seqs Field(ge=1)
    assert p["gpu-memory-utilization"]["exclusiveMinimum"] == 0
    assert p["gpu-memory-utilization"]["maximum"] == 1
    assert errors(s, {"gpu-memory-utilization": 1.3}) == ["$.gpu-memory-utilization"]
    assert errors(s, {"gpu-memory-utilization": 0}) == ["$.gpu-memory-utilization"]
    assert errors(s, {"max-num-seqs": -4}) == ["$.max-num-seqs"]
    assert errors(s, {"max_num_seqs": 0}) == ["$.max_num_seqs"]  # through the alias
    assert ok(s, {"gpu-memory-utilization": 0.95, "max-num-seqs": 256, "tensor-parallel-size": 8})
    # a misspelt option, which vLLM rejects
    assert errors(s, {"gpu-memory-utilisation": 0.9}) == ["$.gpu-memory-utilisation"]
    assert errors(s, {"max-num-seqz": 8}) == ["$.max-num-seqz"]
    # a removed option: rejected with vcfg's message and nothing else
    gone = p["max-seq-len-to-capture"]
    assert gone["const"] == gone["errorMessage"] and "not" not in gone and "deprecationMessage" not in gone
    assert gone["errorMessage"].startswith("--max-seq-len-to-capture: removed after vLLM ")
    assert errors(s, {"max-seq-len-to-capture": 8192}) == ["$.max-seq-len-to-capture"]


def test_dotted_keys_are_checked_against_the_class() -> None:
    s = build_schema(serve_catalog(), "serve")
    assert ok(s, {"kv-transfer-config.kv_role": "kv_both", "kv_transfer_config.kv_port": 5601})
    assert errors(s, {"kv-transfer-config.kv_rol": "kv_both"}) == ["$.kv-transfer-config.kv_rol"]
    # a YAML true: the loader writes the dotted option with no value
    assert errors(s, {"kv-transfer-config.kv_port": True}) == ["$.kv-transfer-config.kv_port"]
    assert ok(s, {"kv-transfer-config.kv_connector_extra_config.x": 1})  # deeper: lint's


def test_abbreviation_patterns_match_argparse_prefix_rule():
    """Each option's pattern starts at its shortest prefix no other option shares (the
    neighbours in sorted order, vcfg/schema/serve.py), as counting every option that
    starts with each prefix finds (argparse's allow_abbrev rule), on random name sets."""
    import random
    import re

    from vcfg.schema.serve import abbreviation_patterns

    def shortest_unique(name, names):
        for n in range(1, len(name)):
            if sum(1 for o in names if o.startswith(name[:n])) == 1:
                return n
        return None

    rng = random.Random(7)
    for _ in range(400):
        names = sorted({"--" + "".join(rng.choice("ab-c") for _ in range(rng.randint(1, 6))) for _ in range(12)})
        got = abbreviation_patterns(names)
        want = [n for n in names if shortest_unique(n, names) is not None]
        assert len(got) == len(want), names
        for name in want:
            n = shortest_unique(name, names)
            hits = [p for p in got if re.fullmatch(p, name[:n])]
            assert len(hits) == 1 and not re.fullmatch(hits[0], name[: n - 1]), (name, names)
            assert not re.fullmatch(hits[0], name)  # the whole name is the option itself
