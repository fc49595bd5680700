"""The JSON-value rules VC020-VC030: codes, positions, severities, per release."""

from __future__ import annotations

from pathlib import Path

import pytest

from vcfg.catalog.model import ConfigClass, ConfigField, Loc
from vcfg.launch.args import lax
from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths
from vcfg.lint.registry import rule_modules
from vcfg.lint.rules import _config_json as cj

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "examples" / "pd-decode-p2p.sh"
MINE = {f"VC0{n}" for n in range(20, 31)}


def lint_file(path: Path, version: str) -> list:
    r = lint_paths([str(path)], version, config=LintConfig())
    assert r.internal_errors == []
    return [d for d in r.diagnostics if d.code in MINE]


def lint(tmp_path: Path, text: str, version: str, name: str = "run.sh") -> list:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return lint_file(p, version)


def found(diags: list) -> list[tuple[str, int, int, str]]:
    return [(d.code, d.span.line, d.span.col, d.severity) for d in diags]


def col(text: str, needle: str, line: int = 1) -> int:
    """1-based column of ``needle`` on ``line`` of ``text``."""
    i = text.splitlines()[line - 1].find(needle)
    assert i >= 0, needle
    return i + 1


def kv(body: str, extra: str = "") -> str:
    return f"vllm serve m --port 8000 {extra}--kv-transfer-config '{body}'\n"


# --------------------------------------------------------------------------- the seed script


def test_seed_script_on_0_33_reports_removed_connector_and_key():
    diags = lint_file(SEED, "0.33.0")
    line = SEED.read_text().splitlines()[22]
    assert found(diags) == [
        ("VC027", 23, line.index('"P2pNcclConnector"') + 1, "error"),
        ("VC023", 23, line.index("kv_buffer_size") + 1, "error"),
    ]
    assert (diags[0].span.col, diags[1].span.col) == (18, 62)
    assert "0.24.0" in diags[0].message and "0.32.0" in diags[1].message
    assert diags[1].span.end_col - diags[1].span.col == len("kv_buffer_size")


def test_seed_script_on_0_13_is_clean_for_the_json_rules():
    assert lint_file(SEED, "0.13.0") == []


# --------------------------------------------------------------------------- user-pain section 10 sketches


def test_sketch_wrong_key_instead_of_kv_role(tmp_path):
    text = kv('{"kv_connector":"NixlConnector","kv_producer":"kv_consumer"}')
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [
        ("VC026", 1, col(text, "kv_connector"), "error"),
        ("VC022", 1, col(text, "kv_producer"), "error"),
    ]
    assert "kv_role" in diags[1].help


def test_sketch_removed_field_with_nixl(tmp_path):
    text = kv('{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_buffer_size":5e9}')
    assert found(lint(tmp_path, text, "0.33.0")) == [("VC023", 1, col(text, "kv_buffer_size"), "error")]


def test_sketch_removed_connector(tmp_path):
    text = kv('{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer"}')
    assert found(lint(tmp_path, text, "0.33.0")) == [("VC027", 1, col(text, '"P2pNccl'), "error")]


def test_sketch_typographic_closing_quote(tmp_path):
    text = 'vllm serve m --kv-transfer-config \'{"kv_connector":"NixlConnector","kv_role":"kv_producer"}\u2019\n'
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC021", 1, col(text, "\u2019"), "error")]
    fix = diags[0].fix
    assert fix is not None and fix.applicability == "safe"
    assert [(e.content, e.original, e.line, e.column) for e in fix.edits] == [("'", "\u2019", 1, col(text, "\u2019"))]


def test_sketch_underscore_option_is_clean(tmp_path):
    text = 'vllm serve m --speculative_config \'{"method":"ngram","num_speculative_tokens":3}\'\n'
    assert lint(tmp_path, text, "0.33.0") == []


# --------------------------------------------------------------------------- clean configs


CLEAN = [
    kv('{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_connector_extra_config":{"backends":["UCX"]}}'),
    kv(
        '{"kv_connector":"MooncakeConnector","kv_role":"kv_consumer","kv_port":"22001",'
        '"kv_connector_extra_config":{"mooncake_protocol":"rdma","num_workers":10}}'
    ),
    kv(
        '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both",'
        '"kv_connector_extra_config":{"lmcache.chunk_size":256,"whatever_lmcache_reads":1}}'
    ),
    kv(
        '{"kv_connector":"MultiConnector","kv_role":"kv_both","kv_connector_extra_config":{"connectors":['
        '{"kv_connector":"NixlConnector","kv_role":"kv_both"},'
        '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}]}}'
    ),
    kv(
        '{"kv_connector":"OffloadingConnector","kv_role":"kv_both",'
        '"kv_connector_extra_config":{"cpu_bytes_to_use":8000000000,"eviction_policy":"lru","spec_name":"CPUOffloadingSpec"}}'
    ),
    "vllm serve m --kv-offloading-size 8 --kv-offloading-backend native\n",
    "vllm serve m --kv-transfer-config.kv_connector NixlConnector --kv-transfer-config.kv_role kv_consumer\n",
    'vllm serve m --compilation-config \'{"cudagraph_mode":"FULL_AND_PIECEWISE","pass_config":{"fuse_norm_quant":true}}\'\n',
]


@pytest.mark.parametrize("version", ["0.33.0", "0.20.2"])
@pytest.mark.parametrize("text", CLEAN)
def test_clean_configs_have_no_findings(tmp_path, version, text):
    assert found(lint(tmp_path, text, version)) == []


def test_clean_p2p_nccl_on_0_13(tmp_path):
    extra = (
        '"kv_connector_extra_config":{"proxy_ip":"10.0.0.1","proxy_port":"30001","http_port":"20002",'
        '"send_type":"PUT_ASYNC","nccl_num_channels":"16","mem_pool_size_gb":32}'
    )
    text = kv(
        '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_buffer_size":"1e1","kv_port":"21001",'
        + extra
        + "}"
    ) + kv(
        '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_buffer_size":"8e9","kv_port":"22001",'
        + extra.replace("20002", "20003")
        + "}"
    )
    assert found(lint(tmp_path, text, "0.13.0")) == []


# --------------------------------------------------------------------------- VC020 / VC021


def test_invalid_json_points_at_the_error(tmp_path):
    text = "vllm serve m --kv-transfer-config \"{'kv_connector':'NixlConnector'}\"\n"
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC020", 1, col(text, "{'") + 1, "error")]
    assert "take double quotes" in diags[0].help
    # inside the shell's single quotes, the inner ones end the quoting: bash drops them
    text = kv("{'kv_connector':'NixlConnector'}")
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC020", 1, col(text, "kv_connector"), "error")]
    assert "double quotes" in diags[0].help


def test_trailing_comma(tmp_path):
    text = kv('{"kv_connector":"NixlConnector","kv_role":"kv_both",}')
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC020", 1, col(text, ",}") + 1, "error")]
    assert "trailing comma" in diags[0].help


def test_bare_human_readable_numbers_need_0_20(tmp_path):
    text = kv(
        '{"kv_connector":"OffloadingConnector","kv_role":"kv_both",'
        '"kv_connector_extra_config":{"cpu_bytes_to_use":80g}}'
    )
    old = lint(tmp_path, text, "0.13.0")
    assert [d.code for d in old] == ["VC020"] and "0.20" in old[0].help
    assert lint(tmp_path, text, "0.20.2") == []


def test_typographic_quotes_inside_json_are_vc021_not_vc020(tmp_path):
    text = kv('{\u201ckv_connector\u201d:\u201cNixlConnector\u201d,"kv_role":"kv_both"}')
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC021", 1, col(text, "\u201c"), "error")]
    assert "4 look-alike" in diags[0].message
    fix = diags[0].fix
    assert fix is not None and fix.applicability == "safe"
    assert [(e.content, e.original, e.column) for e in fix.edits] == [
        ('"', ch, i + 1) for i, ch in enumerate(text) if ch in "\u201c\u201d"
    ]


def test_yaml_mapping_before_0_16_is_not_json(tmp_path):
    (tmp_path / "serve.yaml").write_text("kv-transfer-config:\n  kv_connector: NixlConnector\n  kv_role: kv_both\n")
    diags = lint(tmp_path, "vllm serve m --config serve.yaml\n", "0.13.0")
    assert [(d.code, d.span.file.endswith("serve.yaml"), d.span.line) for d in diags] == [("VC020", True, 2)]
    assert "YAML" in diags[0].help
    assert lint(tmp_path, "vllm serve m --config serve.yaml\n", "0.20.2") == []


# --------------------------------------------------------------------------- VC022 / VC023


def test_unknown_key_is_an_error_from_0_16_and_a_warning_before(tmp_path):
    text = kv('{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_prot":21001}')
    new, old = lint(tmp_path, text, "0.33.0"), lint(tmp_path, text, "0.13.0")
    assert found(new) == [("VC022", 1, col(text, "kv_prot"), "error")]
    assert found(old) == [("VC022", 1, col(text, "kv_prot"), "warning")]
    assert new[0].help == "did you mean `kv_port`?"
    assert any("ignores" in n for n in old[0].notes)


def test_extra_config_key_at_the_top_level(tmp_path):
    text = kv('{"kv_connector":"NixlConnector","kv_role":"kv_both","backends":["UCX"]}')
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC022", 1, col(text, "backends"), "error")]
    assert "kv_connector_extra_config" in diags[0].help


def test_nested_config_keys(tmp_path):
    text = 'vllm serve m --compilation-config \'{"pass_config":{"fuse_norm_quantt":true,"enable_fusion":true}}\'\n'
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [
        ("VC022", 1, col(text, "fuse_norm_quantt"), "error"),
        ("VC023", 1, col(text, "enable_fusion"), "error"),
    ]
    assert "fuse_norm_quant" in diags[0].help and "--compilation-config.pass_config" in diags[0].message


def test_computed_field_cannot_be_set(tmp_path):
    text = "vllm serve m --compilation-config '{\"compilation_time\":1.0}'\n"
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC022", 1, col(text, "compilation_time"), "error")]
    assert "computed" in diags[0].message


def test_removed_keys_follow_the_release(tmp_path):
    text = kv('{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_rank":0,"kv_parallel_size":2}')
    assert lint(tmp_path, text, "0.23.0") == []
    text = kv('{"kv_connector":"NixlConnector","kv_role":"kv_producer","kv_rank":0,"kv_ip":"1.2.3.4"}')
    assert lint(tmp_path, text, "0.31.0") == []
    diags = lint(tmp_path, text, "0.32.0")
    assert found(diags) == [("VC023", 1, col(text, "kv_rank"), "error"), ("VC023", 1, col(text, "kv_ip"), "error")]
    assert "VLLM_HOST_IP" in diags[1].help


# --------------------------------------------------------------------------- VC024 / VC025


def test_value_types_follow_pydantic_lax_mode(tmp_path):
    text = kv(
        '{"kv_connector":"NixlConnector","kv_role":null,"kv_port":"22001","engine_id":5,'
        '"enable_permute_local_kv":"yes","kv_load_failure_policy":null}'
    )
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [
        ("VC026", 1, col(text, "kv_connector"), "error"),
        ("VC024", 1, col(text, "5,"), "error"),
        ("VC024", 1, col(text, "null}"), "error"),
    ]
    assert diags[1].help == 'put it in double quotes: "5"'


def test_quoted_human_readable_number(tmp_path):
    text = kv('{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_port":"21k"}')
    diags = lint(tmp_path, text, "0.20.2")
    assert found(diags) == [("VC024", 1, col(text, '"21k'), "error")]
    assert "remove the quotes" in diags[0].help


@pytest.mark.parametrize(
    "role,near",
    [
        ("kv_consumerr", "`kv_consumer`"),
        ("KV_BOTH", "`kv_both`"),
        ("decode", "`kv_consumer`"),
    ],
)
def test_kv_role_outside_its_choices(tmp_path, role, near):
    text = kv('{"kv_connector":"MooncakeConnector","kv_role":"%s"}' % role)
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC025", 1, col(text, '"' + role), "error")]
    assert "kv_producer" in diags[0].help and f"did you mean {near}" in diags[0].help


def test_dotted_value_positions(tmp_path):
    text = "vllm serve m --kv-transfer-config.kv_connector NixlConnector --kv-transfer-config.kv_role kv_consumerr\n"
    assert found(lint(tmp_path, text, "0.33.0")) == [("VC025", 1, col(text, "kv_consumerr"), "error")]


@pytest.mark.parametrize(
    "hint,value,ok",
    [
        ("int", "22001", True),
        ("int", " 5 ", True),
        ("int", "5.0", True),
        ("int", True, True),
        ("int", 5.0, True),
        ("int", 5.5, False),
        ("int", "1e3", False),
        ("int", "80g", False),
        ("int", None, False),
        ("float", "1e9", True),
        ("float", 3, True),
        ("float", "8GB", False),
        ("float", "inf", True),
        ("str", 5, False),
        ("str", True, False),
        ("str", "x", True),
        ("bool", "yes", True),
        ("bool", "Off", True),
        ("bool", 1, True),
        ("bool", 2, False),
        ("bool", "2", False),
        ("dict", {}, True),
        ("dict", [], False),
        ("list[int]", [1, "2"], True),
        ("list[int]", [1.5], False),
        ("list[int]", "[1]", False),
        ("None", None, True),
        ("class:Foo", 1, None),
    ],
)
def test_lax_mode_table(hint, value, ok):
    # each row checked against pydantic 2.14's TypeAdapter(...).validate_json
    assert lax.accepts(hint, value) is ok


def test_settable_keys():
    loc = Loc(file="x.py", line=1)
    cls = ConfigClass(
        name="C",
        loc=loc,
        fields=[
            ConfigField(name="a", type="int", loc=loc),
            ConfigField(name="_private", type="int", loc=loc),
            ConfigField(name="iv", type="InitVar[int]", init_var=True, loc=loc),
            ConfigField(name="derived", type="int", init=False, loc=loc),
        ],
    )
    assert [k for k in ("a", "_private", "iv", "derived", "zzz") if cj.settable(cls, k)] == ["a", "_private", "iv"]


# --------------------------------------------------------------------------- VC026 / VC027


def test_children_of_multiconnector_are_checked(tmp_path):
    text = kv(
        '{"kv_connector":"MultiConnector","kv_role":"kv_both","kv_connector_extra_config":{"connectors":['
        '{"kv_connector":"NixlConector","kv_role":"kv_both","kv_connector_extra_config":{"backendz":["UCX"]}},'
        '{"kv_connector":"LMCacheConnectorV1","kv_rol":"kv_both"}]}}'
    )
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [
        ("VC027", 1, col(text, '"NixlConector'), "error"),
        ("VC026", 1, col(text, '"kv_connector":"LMCache') + 1, "error"),
        ("VC022", 1, col(text, 'kv_rol"'), "error"),
    ]
    assert diags[0].help == "did you mean `NixlConnector`?"
    assert "connectors[1]" in diags[1].message


def test_renamed_connector(tmp_path):
    text = kv('{"kv_connector":"SharedStorageConnector","kv_role":"kv_both"}')
    assert lint(tmp_path, text, "0.12.0") == []
    diags = lint(tmp_path, text, "0.13.0")
    assert found(diags) == [("VC027", 1, col(text, '"SharedStorage'), "error")]
    assert "0.13.0" in diags[0].message and "ExampleConnector" in diags[0].help


def test_p2p_nccl_removed_in_0_24(tmp_path):
    text = kv('{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer"}')
    assert lint(tmp_path, text, "0.23.0") == []
    assert [d.message for d in lint(tmp_path, text, "0.24.0")] == ["`P2pNcclConnector` was removed in vllm 0.24.0"]


def test_plugin_connector(tmp_path):
    text = kv('{"kv_connector":"FlagCXConnector","kv_role":"kv_both"}')
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC027", 1, col(text, '"FlagCX'), "warning")]
    assert "vllm-plugin-FL" in diags[0].message and "VLLM_PLUGINS" in diags[0].help
    off = lint(tmp_path, "export VLLM_PLUGINS=other\n" + text, "0.33.0")
    assert found(off) == [("VC027", 2, col(text, '"FlagCX'), "error")]
    # the script sets the plugin up: nothing to add
    assert lint(tmp_path, "export VLLM_PLUGINS=fl\n" + text, "0.33.0") == []
    assert lint(tmp_path, "export USE_FLAGGEMS=1\n" + text, "0.33.0") == []


def test_connector_that_arrives_later_and_module_path(tmp_path):
    text = kv('{"kv_connector":"HF3FSKVConnector","kv_role":"kv_both"}')
    diags = lint(tmp_path, text, "0.13.0")
    assert [d.code for d in diags] == ["VC027"] and "0.20" in diags[0].message
    own = kv('{"kv_connector":"MyConnector","kv_role":"kv_both","kv_connector_module_path":"my.pkg"}')
    assert lint(tmp_path, own, "0.33.0") == []
    diags = lint(tmp_path, kv('{"kv_connector":"MyConnector","kv_role":"kv_both"}'), "0.33.0")
    assert [d.code for d in diags] == ["VC027"] and "kv_connector_module_path" in diags[0].help


# --------------------------------------------------------------------------- VC028 / VC029 / VC030


def test_unknown_extra_keys(tmp_path):
    text = kv(
        '{"kv_connector":"NixlConnector","kv_role":"kv_both",'
        '"kv_connector_extra_config":{"backend":["UCX"],"kv_port":1}}'
    )
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [
        ("VC028", 1, col(text, 'backend"'), "warning"),
        ("VC028", 1, col(text, "kv_port"), "warning"),
    ]
    assert diags[0].help == "did you mean `backends`?" and "move it out" in diags[1].help


def test_lmcache_native_keys_are_checked_but_its_namespace_is_not(tmp_path):
    text = kv(
        '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both","kv_connector_extra_config":'
        '{"use_native":true,"lmcache.chunk_size":256,"skip_last_n_token":1}}'
    )
    diags = lint(tmp_path, text, "0.33.0")
    assert found(diags) == [("VC028", 1, col(text, 'skip_last_n_token"'), "warning")]
    assert "skip_last_n_tokens" in diags[0].help


def test_plugin_connector_extra_config_is_not_judged(tmp_path):
    text = kv('{"kv_connector":"FlagCXConnector","kv_role":"kv_both","kv_connector_extra_config":{"anything":1}}')
    assert [d.code for d in lint(tmp_path, text, "0.33.0")] == ["VC027"]


def test_extra_key_no_longer_read(tmp_path):
    text = kv(
        '{"kv_connector":"OffloadingConnector","kv_role":"kv_both",'
        '"kv_connector_extra_config":{"cpu_bytes_to_use":1000000000,"num_cpu_blocks":100}}'
    )
    diags = lint(tmp_path, text, "0.20.2")
    assert found(diags) == [("VC028", 1, col(text, "num_cpu_blocks"), "warning")]
    assert "since vllm 0.14.1" in diags[0].message


def test_offloading_needs_its_size(tmp_path):
    text = kv('{"kv_connector":"OffloadingConnector","kv_role":"kv_both"}')
    diags = lint(tmp_path, text, "0.20.2")
    assert found(diags) == [("VC029", 1, col(text, '"OffloadingConnector'), "error")]
    assert "cpu_bytes_to_use" in diags[0].message
    assert "num_cpu_blocks" in lint(tmp_path, text, "0.12.0")[0].message
    assert (
        lint(
            tmp_path,
            kv('{"kv_connector":"OffloadingConnector","kv_role":"kv_both"}', "--kv-offloading-size 8 "),
            "0.20.2",
        )
        == []
    )


def test_p2p_nccl_http_port(tmp_path):
    text = kv(
        '{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer",'
        '"kv_connector_extra_config":{"proxy_ip":"10.0.0.1","proxy_port":"30001"}}'
    )
    diags = lint(tmp_path, text, "0.20.2")
    assert found(diags) == [("VC029", 1, col(text, "kv_connector_extra_config"), "error")]
    assert "http_port" in diags[0].message and "proxy_ip" in diags[0].message
    no_proxy = kv('{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer"}')
    assert lint(tmp_path, no_proxy, "0.20.2") == []
    assert [d.code for d in lint(tmp_path, no_proxy, "0.10.2")] == ["VC029"]


def test_p2p_nccl_values_that_fail_late(tmp_path):
    text = kv(
        '{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer","kv_buffer_size":8,'
        '"kv_connector_extra_config":{"http_port":20002,"proxy_ip":"10.0.0.1","proxy_port":30001,'
        '"send_type":"put","nccl_num_channels":16,"mem_pool_size_gb":"lots"}}'
    )
    diags = lint(tmp_path, text, "0.20.2")
    assert found(diags) == [
        ("VC030", 1, col(text, "8,"), "warning"),
        ("VC030", 1, col(text, "30001"), "error"),
        ("VC030", 1, col(text, '"put'), "error"),
        ("VC030", 1, col(text, "16"), "error"),
        ("VC030", 1, col(text, '"lots'), "error"),
    ]
    assert "8e9" in diags[0].help and diags[1].help == 'write "30001"' and "`PUT`" in diags[2].help


def test_kv_buffer_size_bounds(tmp_path):
    producer = kv('{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_buffer_size":"1e1"}')
    assert lint(tmp_path, producer, "0.20.2") == []
    huge = kv('{"kv_connector":"P2pNcclConnector","kv_role":"kv_producer","kv_buffer_size":5e12}')
    assert found(lint(tmp_path, huge, "0.20.2")) == [("VC030", 1, col(huge, "5e12"), "warning")]
    nixl = kv('{"kv_connector":"NixlConnector","kv_role":"kv_consumer","kv_buffer_size":8}')
    assert lint(tmp_path, nixl, "0.20.2") == []


def test_nixl_backends_must_be_a_list(tmp_path):
    text = kv('{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_connector_extra_config":{"backends":"UCX"}}')
    assert found(lint(tmp_path, text, "0.33.0")) == [("VC030", 1, col(text, '"UCX'), "error")]


# --------------------------------------------------------------------------- the docs examples


@pytest.mark.parametrize("mod", [m for m in rule_modules() if m.RULE.code in MINE], ids=lambda m: m.RULE.code)
def test_rule_examples(tmp_path, mod):
    rule = mod.RULE
    bad = lint(tmp_path, rule.example, "0.33.0", name="example.sh")
    good = lint(tmp_path, rule.use_instead, "0.33.0", name="fixed.sh")
    assert rule.code in {d.code for d in bad}
    assert rule.code not in {d.code for d in good}
    assert len(rule_modules()) and rule.versions is None


# --------------------------------------------------------------------------- cross-checks


_PY = {"int": "int", "float": "float", "str": "str", "bool": "bool", "dict": "dict", "list[int]": "list[int]"}


@pytest.mark.parametrize("hint", sorted(_PY))
def test_lax_mode_agrees_with_pydantic(hint):
    """`accepts` against pydantic itself (vLLM's validate_json on a dataclass field)."""
    import json

    from pydantic import TypeAdapter, ValidationError
    from pydantic.dataclasses import dataclass as pyd_dataclass

    ns: dict = {}
    exec(f"def make(dc):\n    @dc\n    class C:\n        v: {_PY[hint]}\n    return C", ns)
    adapter = TypeAdapter(ns["make"](pyd_dataclass))
    samples = [
        0,
        1,
        2,
        -3,
        5.0,
        5.5,
        True,
        False,
        None,
        "",
        "7",
        " 7 ",
        "7.0",
        "1e3",
        "1_000",
        "abc",
        "80g",
        "yes",
        "Off",
        "t",
        "inf",
        "nan",
        [],
        [1],
        [1, "2"],
        [1.5],
        {},
        {"a": 1},
    ]
    for value in samples:
        try:
            adapter.validate_json(json.dumps({"v": value}))
            ok = True
        except ValidationError:
            ok = False
        assert lax.accepts(hint, value) is ok, (hint, value)


@pytest.mark.slow
def test_coerced_fields_cover_the_validators_of_0_33():
    """Every before/wrap field validator of a JSON-option class is in COERCED."""
    import ast

    from vcfg.catalog import store
    from vcfg.catalog.extract.source import from_version

    src = from_version("0.33.0")
    cat = store.load_exact("0.33.0")
    classes = {f.config_class_of_value for f in cat.flags if f.config_class_of_value}
    classes |= {f.nested for c in list(classes) if cat.config(c) for f in cat.config(c).fields if f.nested}
    missing = []
    for rel in src.py_files("vllm/config"):
        tree = ast.parse(src.read(rel) or "")
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name in classes):
            for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
                for dec in fn.decorator_list:
                    if not (isinstance(dec, ast.Call) and getattr(dec.func, "id", "") == "field_validator"):
                        continue
                    mode = next((k.value.value for k in dec.keywords if k.arg == "mode"), "after")
                    names = [a.value for a in dec.args if isinstance(a, ast.Constant)]
                    covered = cj.COERCED.get(cls.name, frozenset())
                    if mode in ("before", "wrap", "plain"):
                        missing += [(cls.name, n) for n in names if n not in covered and "*" not in covered]
    assert missing == []


def test_key_written_with_escaped_quotes_is_underlined_exactly(tmp_path):
    """`\\"` inside a double-quoted shell word is two bytes for one quote: the underline
    covers the key's name, no more (it used to end one column late)."""
    text = (
        "vllm serve m --kv-transfer-config "
        '"{\\"kv_connector\\":\\"NixlConnector\\",\\"kv_role\\":\\"kv_both\\",\\"kv_bufer_size\\":1}"\n'
        "vllm serve m --kv-transfer-config "
        '\'{"kv_connector":"NixlConnector","kv_role":"kv_both","kv_bufer_size":1}\'\n'
    )
    diags = [d for d in lint(tmp_path, text, "0.20.2") if d.code == "VC022"]
    lines = text.splitlines()
    assert [lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1] for d in diags] == [
        "kv_bufer_size",
        "kv_bufer_size",
    ]


@pytest.mark.parametrize(
    "version, extra, flagged",
    [
        # a spec module the user names reads keys vcfg cannot see
        ("0.33.0", '"spec_name":"MySpec","spec_module_path":"my.spec","my_knob":1', []),
        ("0.33.0", '"spec_name":"CPUOffloadingSpec","cpu_bytes_to_use":8000000000,"my_knob":1', ["my_knob"]),
    ],
)
def test_offloading_spec_module_keys_are_not_judged(tmp_path, version, extra, flagged):
    text = kv('{"kv_connector":"OffloadingConnector","kv_role":"kv_both","kv_connector_extra_config":{' + extra + "}}")
    assert [(d.code, d.span.col) for d in lint(tmp_path, text, version) if d.code == "VC028"] == [
        ("VC028", col(text, f'{k}"')) for k in flagged
    ]


def test_lmcache_keys_before_use_native_existed_all_go_to_lmcache(tmp_path):
    text = kv(
        '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both","kv_connector_extra_config":'
        '{"use_native":true,"anything":1}}'
    )
    assert [d.code for d in lint(tmp_path, text, "0.10.2") if d.code == "VC028"] == []
    assert [d.code for d in lint(tmp_path, text, "0.33.0") if d.code == "VC028"] == ["VC028"]


def test_lmcache_mp_namespace_is_lmcaches(tmp_path):
    text = kv(
        '{"kv_connector":"LMCacheMPConnector","kv_role":"kv_both","kv_connector_extra_config":'
        '{"lmcache.mp.port":5555,"lmcache.anything":1}}'
    )
    assert [d.code for d in lint(tmp_path, text, "0.33.0") if d.code == "VC028"] == []
