"""vLLM's argv semantics (vcfg.launch.args) against small hand-made catalogs."""

from pathlib import Path

import pytest

from vcfg.catalog.model import Catalog, Flag
from vcfg.launch.args import (
    expand_json_numbers,
    human_readable_int,
    parse_args,
    parse_invocation,
    parse_json_positions,
)
from vcfg.launch.shell import parse_script

FIX = Path(__file__).parent / "fixtures" / "launch"


def catalog(version: str = "0.33.0") -> Catalog:
    """The few flags these tests need, shaped as each version registers them."""
    v = tuple(int(x) for x in version.split(".")[:2])
    boolean = "enable_disable" if v >= (0, 33) else "boolean_optional"
    flags = [
        Flag(option_strings=[], dest="model_tag", type="str", nargs="?", positional=True),
        Flag(option_strings=["--model"], dest="model", type="str"),
        Flag(option_strings=["--config"], dest="config", type="str"),
        Flag(option_strings=["--host"], dest="host", type="str", optional=True),
        Flag(option_strings=["--port"], dest="port", type="int", default=8000),
        Flag(option_strings=["--tensor-parallel-size", "-tp"], dest="tensor_parallel_size", type="int"),
        Flag(
            option_strings=["--max-model-len"],
            dest="max_model_len",
            type="human_readable_int_or_auto" if v >= (0, 20) else "human_readable_int",
            optional=True,
        ),
        Flag(
            option_strings=["--max-num-batched-tokens"],
            dest="max_num_batched_tokens",
            type="human_readable_int",
            optional=True,
        ),
        Flag(option_strings=["--max-num-seqs"], dest="max_num_seqs", type="int", optional=True),
        Flag(option_strings=["--gpu-memory-utilization"], dest="gpu_memory_utilization", type="float"),
        Flag(
            option_strings=["--kv-transfer-config"],
            dest="kv_transfer_config",
            type="config",
            optional=True,
            config_class_of_value="KVTransferConfig",
        ),
        Flag(
            option_strings=["--trust-remote-code", "--no-trust-remote-code"],
            dest="trust_remote_code",
            action=boolean,
            nargs=0,
        ),
        Flag(option_strings=["--served-model-name"], dest="served_model_name", type="str", nargs="+", optional=True),
        Flag(option_strings=["--seed"], dest="seed", type="int"),
        Flag(option_strings=["--kv-cache-dtype"], dest="kv_cache_dtype", type="str", choices=["auto", "fp8"]),
        Flag(option_strings=["--quantization", "-q"], dest="quantization", type="str", optional=True),
        Flag(option_strings=["--enforce-eager", "--no-enforce-eager"], dest="enforce_eager", action=boolean, nargs=0),
        Flag(
            option_strings=["--compilation-config", "-O" if v < (0, 12) else "-cc"],
            dest="compilation_config",
            type="config",
        ),
        Flag(option_strings=["--middleware"], dest="middleware", type="str", action="append"),
        Flag(option_strings=["--disable-log-stats"], dest="disable_log_stats", action="store_true"),
    ]
    if v >= (0, 12):
        flags.append(Flag(option_strings=["--optimization-level"], dest="optimization_level", type="str"))
    prefix = ["--enable-prefix-caching", "--no-enable-prefix-caching"]
    if v >= (0, 33):
        prefix.append("--disable-prefix-caching")
    flags.append(Flag(option_strings=prefix, dest="enable_prefix_caching", action=boolean, nargs=0, optional=True))
    return Catalog(vllm_version=version, flags=flags)


def words(src: str):
    """argv words after `vllm serve` in a one-line script."""
    return parse_script(src, "t.sh").invocations[0].args


def pa(src: str, version: str = "0.33.0", **kw):
    return parse_args(words(src), catalog(version), **kw)


def codes(res):
    return [p.code for p in res.problems]


# --------------------------------------------------------------------------- the seed


def test_seed_script_typed_values_and_json_positions():
    text = (FIX / "seed_decode.sh").read_text()
    p = parse_script(text, "seed_decode.sh")
    res = parse_invocation(p.invocations[0], catalog(), p)
    assert res.problems == ()
    assert res.model.value.endswith("DeepSeek-V3.2/")
    assert res.value("port") == 20002 and res.value("tensor_parallel_size") == 8
    assert res.value("max_model_len") == 10000 and res.value("gpu_memory_utilization") == 0.9
    assert res.value("trust_remote_code") is True
    assert res.value("served_model_name") == ["base_model"]
    kv = res.get("kv_transfer_config")
    assert kv.value["kv_role"] == "kv_consumer"
    assert kv.value["kv_connector_extra_config"]["proxy_port"] == "30002"
    lines = text.splitlines()
    for path in [("kv_role",), ("kv_buffer_size",), ("kv_connector_extra_config", "proxy_ip")]:
        sp = kv.json.key_span(*path)
        assert sp.line == 19
        assert sp.col == lines[18].index(f'"{path[-1]}"') + 1
        vsp = kv.json.value_span(*path)
        assert (
            lines[18][vsp.col - 1 : vsp.end_col - 1]
            == '"' + str(kv.value[path[0]] if len(path) == 1 else kv.value[path[0]][path[1]]) + '"'
        )
    # the option's own span
    assert (kv.name_span.line, kv.name_span.col, kv.name_span.end_col) == (18, 1, 21)


def test_bundled_catalog_if_present():
    store = pytest.importorskip("vcfg.catalog.store")
    try:
        cat = store.load_exact("0.33.0")
    except Exception:
        pytest.skip("no bundled 0.33.0 catalog")
    p = parse_script((FIX / "seed_decode.sh").read_bytes(), "seed_decode.sh")
    res = parse_invocation(p.invocations[0], cat, p)
    assert [x.code for x in res.problems if x.severity == "error"] == []
    assert res.value("kv_transfer_config")["kv_port"] == "22001"
    assert res.value("max_num_batched_tokens") == 10000


# --------------------------------------------------------------------------- spellings


def test_equals_underscores_and_alias():
    res = pa("vllm serve m --tensor_parallel_size=4 -tp 2 --port=9 --max_model_len 8k\n")
    assert res.value("tensor_parallel_size") == 2
    assert [o.written for o in res.all("tensor_parallel_size")] == ["--tensor_parallel_size=4", "-tp"]
    assert res.value("port") == 9 and res.value("max_model_len") == 8000
    assert "duplicate" in codes(res)
    dup = [p for p in res.problems if p.code == "duplicate"][0]
    assert dup.span.col == 39 and "line 1" in dup.message


def test_short_option_with_attached_value():
    res = pa("vllm serve m -qfp8\n")
    assert res.value("quantization") == "fp8"


def test_unknown_option_is_kept_with_its_span():
    res = pa("vllm serve m --disable_log_requests --port 1 --foo-bar 3\n")
    assert [o.option for o in res.unknown_options] == ["--disable-log-requests", "--foo-bar"]
    assert res.unknown_options[1].value == "3"
    probs = [p for p in res.problems if p.code == "unknown-option"]
    assert [(p.span.col, p.span.end_col) for p in probs] == [(14, 36), (46, 55)]
    assert res.value("port") == 1


def test_abbreviations_and_ambiguity():
    res = pa("vllm serve m --gpu-mem 0.8 --max-num 3\n")
    assert res.value("gpu_memory_utilization") == 0.8
    assert "abbreviation" in codes(res)
    amb = [p for p in res.problems if p.code == "ambiguous-option"]
    assert len(amb) == 1 and "--max-num-seqs" in amb[0].message and amb[0].span.col == 28


def test_boolean_negatives_and_inverses_by_version():
    res = pa("vllm serve m --no-enable-prefix-caching --trust-remote-code\n")
    assert res.value("enable_prefix_caching") is False and res.value("trust_remote_code") is True
    res = pa("vllm serve m --disable-prefix-caching\n", "0.33.0")
    assert res.value("enable_prefix_caching") is False
    assert res.get("enable_prefix_caching").negated
    res = pa("vllm serve m --disable-prefix-caching\n", "0.32.0")
    assert "unknown-option" in codes(res)


def test_boolean_flag_with_value_is_an_error():
    res = pa("vllm serve m --trust-remote-code=true --enable-prefix-caching false\n")
    assert codes(res).count("unexpected-value") == 1
    assert "extra-argument" in codes(res)  # 'false' is an unrecognized argument
    extra = [p for p in res.problems if p.code == "extra-argument"][0]
    assert extra.span.col == 63


def test_store_true_and_append():
    res = pa("vllm serve m --disable-log-stats --middleware a.B --middleware c.D\n")
    assert res.value("disable_log_stats") is True
    assert res.value("middleware") == ["a.B", "c.D"]
    assert "duplicate" not in codes(res)


# --------------------------------------------------------------------------- -O


@pytest.mark.parametrize(
    "version, arg, dest, value",
    [
        ("0.33.0", "-O3", "optimization_level", "3"),
        ("0.33.0", "-O=2", "optimization_level", "2"),
        ("0.33.0", "-O 1", "optimization_level", "1"),
        ("0.12.0", "-Odecode", "optimization_level", "decode"),
        ("0.11.0", "-O3", "compilation_config", {"level": 3}),
        ("0.11.0", "-O 3", "compilation_config", {"level": 3}),
        ("0.11.2", "-O3", "compilation_config", {"mode": 3}),
    ],
)
def test_dash_O_by_version(version, arg, dest, value):
    res = pa(f"vllm serve m {arg}\n", version)
    assert res.value(dest) == value, res.problems


def test_dash_O_dotted_became_optimization_level_string_in_new_versions():
    res = pa("vllm serve m -O.mode=3\n", "0.33.0")
    assert res.value("optimization_level") == ".mode=3"
    res = pa("vllm serve m -O.mode=3\n", "0.12.0")
    assert res.value("compilation_config") == {"mode": 3}


# --------------------------------------------------------------------------- dotted keys


def test_dotted_keys_merge_into_json_with_positions():
    src = (
        "vllm serve m --kv-transfer-config.kv_connector NixlConnector --kv_transfer_config.kv_role=kv_both "
        "--kv-transfer-config.kv_connector_extra_config.cpu_bytes_to_use 80g "
        "--kv-transfer-config.kv_connector_extra_config.backends+ UCX "
        "--kv-transfer-config.kv_connector_extra_config.backends+ LIBFABRIC,TCP\n"
    )
    res = pa(src)
    kv = res.get("kv_transfer_config")
    assert kv.origin == "dotted"
    assert kv.value == {
        "kv_connector": "NixlConnector",
        "kv_role": "kv_both",
        "kv_connector_extra_config": {"cpu_bytes_to_use": 80_000_000_000, "backends": ["UCX", "LIBFABRIC", "TCP"]},
    }
    sp = kv.json.key_span("kv_role")
    assert src[sp.col - 1 : sp.end_col - 1] == "kv_role"
    vsp = kv.json.value_span("kv_connector_extra_config", "cpu_bytes_to_use")
    assert src[vsp.col - 1 : vsp.end_col - 1] == "80g"
    # before 0.20 the dotted value stays a string
    res = pa(src, "0.19.1")
    assert res.value("kv_transfer_config")["kv_connector_extra_config"]["cpu_bytes_to_use"] == "80g"


def test_dotted_keys_replace_an_earlier_whole_json():
    res = pa(
        'vllm serve m --kv-transfer-config \'{"kv_connector":"A","kv_role":"kv_both"}\' '
        "--kv-transfer-config.kv_role kv_consumer\n"
    )
    assert res.value("kv_transfer_config") == {"kv_role": "kv_consumer"}
    assert "dotted-overrides" in codes(res)
    assert len(res.all("kv_transfer_config")) == 2


def test_duplicate_dotted_key_last_wins():
    res = pa("vllm serve m --kv-transfer-config.kv_role a --kv-transfer-config.kv_role b\n")
    assert res.value("kv_transfer_config") == {"kv_role": "b"}
    dup = [p for p in res.problems if p.code == "duplicate"]
    assert len(dup) == 1 and dup[0].span.col == 45


def test_negative_number_is_mangled_by_the_dotted_rewrite():
    # -0.5 is read as the dotted option "-0" "5" taking "--port" as its value,
    # then re-emitted at the end: argparse rejects "-0" '{"5": "--port"}'
    res = pa("vllm serve m --gpu-memory-utilization -0.5 --port 1\n")
    assert codes(res) == ["extra-argument", "extra-argument"]
    assert [w.value for w in res.extra_positionals] == ["-0", '{"5": "--port"}']
    assert res.value("gpu_memory_utilization") == 1.0
    res = pa("vllm serve m --gpu-memory-utilization=-0.5\n")
    assert res.value("gpu_memory_utilization") == -0.5


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize(
    "text, value",
    [("8k", 8000), ("2K", 2048), ("1.5k", 1500), ("25.6k", 25600), ("3m", 3_000_000), ("1G", 2**30), ("77", 77)],
)
def test_human_readable_int(text, value):
    assert human_readable_int(text) == value


@pytest.mark.parametrize("text", ["1.5K", "8e9", "k", "1kb", ""])
def test_human_readable_int_rejects(text):
    with pytest.raises(ValueError):
        human_readable_int(text)


def test_human_readable_ints_only_where_vllm_accepts_them():
    res = pa("vllm serve m --max-num-batched-tokens 8e9 --max-num-seqs 1k --max-model-len auto\n")
    bad = [p for p in res.problems if p.code == "invalid-value"]
    assert [(p.option, p.span.col) for p in bad] == [("--max-num-batched-tokens", 39), ("--max-num-seqs", 58)]
    assert res.value("max_model_len") == -1
    res = pa("vllm serve m --max-model-len 1.5K\n")
    assert "decimals are not allowed" in res.problems[0].message


def test_bare_suffixed_numbers_inside_json_by_version():
    src = 'vllm serve m --kv-transfer-config \'{"kv_connector_extra_config":{"cpu_bytes_to_use":80g},"x":"8k"}\'\n'
    res = pa(src, "0.20.0")
    assert res.value("kv_transfer_config") == {
        "kv_connector_extra_config": {"cpu_bytes_to_use": 80_000_000_000},
        "x": "8k",
    }
    sp = res.get("kv_transfer_config").json.value_span("kv_connector_extra_config", "cpu_bytes_to_use")
    assert src[sp.col - 1 : sp.end_col - 1] == "80g"
    res = pa(src, "0.19.1")
    (prob,) = res.problems
    assert prob.code == "invalid-json" and src[prob.span.col - 1] == "g"


def test_expand_json_numbers_keeps_an_index_map():
    text, idx = expand_json_numbers('{"a": 2k, "b": "3k"}')
    assert text == '{"a": 2000, "b": "3k"}'
    assert idx[text.index("2000")] == 6 and idx[text.index('"b"')] == 10


def test_invalid_json_points_at_the_character():
    src = "vllm serve m --kv-transfer-config '{\"kv_connector\": NixlConnector}'\n"
    res = pa(src)
    (prob,) = res.problems
    assert prob.code == "invalid-json" and "Expecting value" in prob.message
    assert src[prob.span.col - 1] == "N"
    assert res.get("kv_transfer_config").known is False


def test_json_positions_parser_matches_json_module():
    import json

    s = '{"a": [1, 2.5e3, {"b": null}], "c": "x\\u00e9\\n", "a": true}'
    v, locs, dups = parse_json_positions(s)
    assert v == json.loads(s)
    assert dups == [("a",)]
    k, val = locs[("c",)]
    assert s[k[0] : k[1]] == '"c"' and s[val[0] : val[1]] == '"x\\u00e9\\n"'
    assert ("a", 2, "b") not in locs  # the first "a" was replaced


def test_choices_missing_values_and_unknown_values():
    res = pa("vllm serve m --kv-cache-dtype fp9 --port\n")
    assert [(p.code, p.span.col) for p in res.problems] == [("invalid-choice", 31), ("missing-value", 35)]
    res = pa('vllm serve m --port $PORT --seed=$SEED --host "$H"\n')
    port = res.get("port")
    assert port.known is False and port.value_span.col == 21
    assert res.get("seed").known is False and res.get("seed").name_span.col == 27
    assert [p.code for p in res.problems] == ["unknown-value"] * 3
    assert all(p.severity == "info" for p in res.problems)


def test_unknown_split_words_make_the_result_incomplete():
    res = pa("vllm serve m $EXTRA_ARGS --port 1\n")
    assert res.complete is False and res.value("port") == 1


# --------------------------------------------------------------------------- model


def test_model_option_moved_or_refused_by_version():
    res = pa("vllm serve --port 1 --model org/m\n", "0.33.0")
    assert res.model.value == "org/m" and "model-option" in codes(res)
    assert res.get("model") is None
    res = pa("vllm serve --model org/m\n", "0.10.2")
    assert [p.severity for p in res.problems if p.code == "model-option"] == ["error"]


def test_served_model_name_without_model():
    res = pa("vllm serve --served-model-name x\n", "0.33.0")
    assert "model-missing" in codes(res)
    res = pa("vllm serve --served-model-name x\n", "0.16.0")
    assert "model-missing" not in codes(res)


def test_api_server_keeps_model_as_an_option():
    inv = parse_script("python -m vllm.entrypoints.openai.api_server --model m --port 2\n", "t.sh").invocations[0]
    res = parse_invocation(inv, catalog())
    assert res.value("model") == "m" and res.model is None and res.problems == ()


# --------------------------------------------------------------------------- --config


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_config_file_relative_to_script_and_cli_wins(tmp_path):
    write(
        tmp_path,
        "serve.yaml",
        "port: 8100\ntensor_parallel_size: 2\nenforce-eager: true\n"
        "trust-remote-code: false\nserved-model-name: [a, b]\n"
        "kv-transfer-config:\n  kv_connector: NixlConnector\n  kv_role: kv_both\n"
        "no-enable-prefix-caching: true   \n",
    )
    script = write(tmp_path, "run.sh", "vllm serve m --config serve.yaml --port 9000\n")
    p = parse_script(script.read_bytes(), str(script))
    res = parse_invocation(p.invocations[0], catalog(), p)
    assert res.value("port") == 9000
    assert [o.origin for o in res.all("port")] == ["config", "cli"]
    assert res.value("tensor_parallel_size") == 2 and res.value("enforce_eager") is True
    assert res.value("served_model_name") == ["a", "b"]
    assert res.value("trust_remote_code") is None
    assert res.value("enable_prefix_caching") is False
    assert res.get("enable_prefix_caching").name_span.line == 9
    kv = res.get("kv_transfer_config")
    assert kv.value == {"kv_connector": "NixlConnector", "kv_role": "kv_both"}
    role = kv.json.key_span("kv_role")
    assert role.file.endswith("serve.yaml") and (role.line, role.col) == (8, 3)
    tp = res.get("tensor_parallel_size")
    assert tp.name_span.file.endswith("serve.yaml") and (tp.value_span.line, tp.value_span.col) == (2, 23)
    (dropped,) = [x for x in res.problems if x.code == "yaml-false-dropped"]
    assert dropped.span.line == 4 and dropped.severity == "warning"


def test_config_dict_before_016_is_python_repr(tmp_path):
    write(tmp_path, "c.yaml", "kv-transfer-config:\n  kv_role: kv_both\n")
    res = pa("vllm serve m --config c.yaml\n", "0.15.1", base_dir=str(tmp_path))
    assert "invalid-json" in codes(res)


def test_config_equals_is_not_expanded(tmp_path):
    write(tmp_path, "c.yaml", "port: 1\n")
    res = pa("vllm serve m --config=c.yaml\n", base_dir=str(tmp_path))
    assert res.value("port") is None and res.value("config") == "c.yaml"
    (prob,) = [p for p in res.problems if p.code == "config-equals"]
    assert prob.span.col == 14


def test_config_must_be_yaml_and_found():
    res = pa("vllm serve m --config c.json\n")
    assert [(p.code, p.span.col) for p in res.problems] == [("config-file", 23)]
    res = pa("vllm serve m --config nowhere.yaml --port 1\n", read_files=False)
    assert res.complete is False and res.value("port") == 1
    assert [p.severity for p in res.problems] == ["info"]


def test_config_model_and_order_without_cli_model(tmp_path):
    write(tmp_path, "c.yaml", "model: org/m\nport: 5\n")
    res = pa("vllm serve --config c.yaml --seed 1\n", base_dir=str(tmp_path))
    assert res.value("model") == "org/m" and res.value("port") == 5 and res.value("seed") == 1
    write(tmp_path, "d.yaml", "port: 5\n")
    res = pa("vllm serve --config d.yaml\n", base_dir=str(tmp_path))
    assert "model-missing" in codes(res)


def test_config_from_a_heredoc_in_the_script():
    src = "cat > cfg.yaml <<EOF\nmax-model-len: 4k\nport: 8200\nEOF\nvllm serve m --config cfg.yaml\n"
    p = parse_script(src, "<stdin>")
    res = parse_invocation(p.invocations[0], catalog(), p, read_files=False)
    assert res.value("max_model_len") == 4000 and res.value("port") == 8200
    sp = res.get("port").value_span
    assert (sp.file, sp.line, sp.col) == ("<stdin>", 3, 7)


def test_config_yaml_false_becomes_no_key_for_api_server(tmp_path):
    write(tmp_path, "c.yaml", "enforce-eager: false\n")
    inv = parse_script(
        "python -m vllm.entrypoints.openai.api_server --config c.yaml --model m\n", str(tmp_path / "run.sh")
    ).invocations[0]
    res = parse_invocation(inv, catalog("0.33.0"), None)
    assert res.value("enforce_eager") is None  # no plan: the file is looked up from the cwd
    res = parse_args(inv.args, catalog("0.33.0"), serve=False, base_dir=str(tmp_path))
    assert res.value("enforce_eager") is False
    res = parse_args(inv.args, catalog("0.27.1"), serve=False, base_dir=str(tmp_path))
    assert res.value("enforce_eager") is None and "yaml-false-dropped" in codes(res)


def test_config_file_problems_and_repeated_dotted_keys_keep_the_parser(tmp_path):
    """A --config YAML with a problem, and a dotted key given twice: both steps report
    through the parser and go on (regression: a loop variable named like the parser)."""
    write(tmp_path, "c.yaml", "port: 8100\n<<: {a: 1}\n")
    res = pa("vllm serve m --config c.yaml --max-num-seqs 8\n", base_dir=str(tmp_path))
    assert [(p.code, p.span.line) for p in res.problems if p.code == "config-file"] == [("config-file", 2)]
    assert res.value("max_num_seqs") == 8
    res = pa("vllm serve m --compilation-config.level 3 --compilation-config.level 2 --max-num-seqs 4\n")
    assert res.value("compilation_config") == {"level": 2} and res.value("max_num_seqs") == 4
