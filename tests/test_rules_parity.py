"""Engine parity (#16): launches vLLM refuses after argparse, found per release with
exact positions (the bundled 0.33.0 and 0.13.0 catalogs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_paths

RELEASES = ("0.33.0", "0.13.0")


def lint(tmp_path: Path, text: str, version: str) -> list[tuple[str, int, int, str]]:
    p = tmp_path / "run.sh"
    p.write_text(text, encoding="utf-8")
    r = lint_paths([str(p)], version, config=LintConfig())
    assert r.internal_errors == []
    return [(d.code, d.span.line, d.span.col, d.severity) for d in r.diagnostics]


def serve(args: str) -> str:
    return f"vllm serve Qwen/Qwen3-8B {args}\n"


def col(text: str, needle: str) -> int:
    i = text.find(needle)
    assert i >= 0, needle
    return i + 1


# --------------------------------------------------------------------------- --speculative-config


@pytest.mark.parametrize("version", RELEASES)
def test_speculative_method_not_in_the_literal(tmp_path, version):
    text = serve('--speculative-config \'{"method":"ngramm","num_speculative_tokens":3}\'')
    assert lint(tmp_path, text, version) == [("VC025", 1, col(text, '"ngramm"'), "error")]


@pytest.mark.parametrize("version", RELEASES)
def test_speculative_tokens_not_a_number(tmp_path, version):
    text = serve('--speculative-config \'{"method":"ngram","num_speculative_tokens":"three"}\'')
    assert lint(tmp_path, text, version) == [("VC024", 1, col(text, '"three"'), "error")]


@pytest.mark.parametrize("version", RELEASES)
def test_speculative_tokens_below_the_field_bound(tmp_path, version):
    text = serve('--speculative-config \'{"method":"ngram","num_speculative_tokens":-1}\'')
    assert lint(tmp_path, text, version) == [("VC006", 1, col(text, "-1}"), "error")]


@pytest.mark.parametrize(("version", "severity"), [("0.33.0", "error"), ("0.13.0", "warning")])
def test_speculative_unknown_key(tmp_path, version, severity):
    # SpeculativeConfig forbids extra keys from 0.16 (the @config decorator); 0.13.0
    # drops them silently
    # drops them silently; either way the count is missing then (VC233)
    text = serve('--speculative-config \'{"method":"ngram","num_speculative_token":3}\'')
    assert lint(tmp_path, text, version) == [
        ("VC233", 1, col(text, "--speculative-config"), "error"),
        ("VC022", 1, col(text, "num_speculative_token"), severity),
    ]


@pytest.mark.parametrize("version", RELEASES)
def test_valid_speculative_config_is_clean(tmp_path, version):
    text = serve('--speculative-config \'{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":4}\'')
    assert lint(tmp_path, text, version) == []


@pytest.mark.parametrize("version", RELEASES)
def test_speculative_config_without_token_count(tmp_path, version):
    text = serve('--speculative-config \'{"method":"ngram","prompt_lookup_max":4}\'')
    assert lint(tmp_path, text, version) == [("VC233", 1, col(text, "--speculative-config"), "error")]


def test_spec_method_shorthand_without_tokens(tmp_path):
    text = "#!/bin/bash\nvllm serve ./llama \\\n  --spec-method deepseek_mtp\n"
    assert lint(tmp_path, text, "0.33.0") == [("VC233", 3, 3, "error")]
    ok = "#!/bin/bash\nvllm serve ./llama --spec-method deepseek_mtp --spec-tokens 1\n"
    assert lint(tmp_path, ok, "0.33.0") == []


@pytest.mark.parametrize("version", RELEASES)
def test_speculative_config_with_draft_model_or_suffix_is_left_alone(tmp_path, version):
    # the draft's config.json may give n_predict; suffix decoding picks its own count
    assert lint(tmp_path, serve('--speculative-config \'{"model":"org/draft","method":"eagle"}\''), version) == []
    assert lint(tmp_path, serve('--speculative-config \'{"method":"suffix"}\''), version) == []


@pytest.mark.parametrize("version", RELEASES)
def test_token_count_without_method_or_model(tmp_path, version):
    text = serve("--speculative-config '{\"num_speculative_tokens\":3}'")
    assert lint(tmp_path, text, version) == [("VC238", 1, col(text, "--speculative-config"), "error")]


def test_spec_tokens_shorthand_alone(tmp_path):
    text = serve("--max-model-len 8192 --spec-tokens 1")
    assert lint(tmp_path, text, "0.33.0") == [("VC238", 1, col(text, "--spec-tokens"), "error")]


# --------------------------------------------------------------------------- VC014 value sets


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize(
    ("args", "bad"),
    [
        ("--quantization gptq4", "gptq4"),
        ("--attention-backend FLASH", "FLASH"),
        ("--reasoning-parser deepseek-r2", "deepseek-r2"),
        ("--enable-auto-tool-choice --tool-call-parser hermess", "hermess"),
    ],
)
def test_names_outside_the_release_value_sets(tmp_path, version, args, bad):
    text = serve(args)
    assert lint(tmp_path, text, version) == [("VC014", 1, col(text, bad), "error")]


def test_kv_cache_dtype_outside_the_literal(tmp_path):
    # 0.33: `CacheDType | str` with a field validator (VC014); 0.13: argparse choices
    text = serve("--kv-cache-dtype fp4")
    assert lint(tmp_path, text, "0.33.0") == [("VC014", 1, col(text, "fp4"), "error")]
    assert lint(tmp_path, text, "0.13.0") == [("VC005", 1, col(text, "fp4"), "error")]


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize(
    "args",
    [
        "--quantization fp8",
        "--attention-backend flash_attn",  # upper-cased by the field validator
        "--reasoning-parser deepseek_r1",
        "--enable-auto-tool-choice --tool-call-parser hermes",
        "--tool-call-parser hermess",  # only checked with --enable-auto-tool-choice
        "--enable-auto-tool-choice --tool-call-parser my_parser --tool-parser-plugin /p/my.py",
        "--kv-cache-dtype fp8_e4m3",
    ],
)
def test_registered_names_are_clean(tmp_path, version, args):
    assert lint(tmp_path, serve(args), version) == []


def test_reasoning_parser_none_and_attention_auto_on_0_33(tmp_path):
    text = serve("--reasoning-parser None --attention-backend auto")
    assert lint(tmp_path, text, "0.33.0") == []
    # 0.13.0 has neither mapping: AttentionBackendEnum["AUTO"] raises
    assert [f[0] for f in lint(tmp_path, text, "0.13.0")] == ["VC014", "VC014"]


@pytest.mark.parametrize("version", RELEASES)
def test_bundled_value_sets_cite_the_source(version):
    from vcfg.catalog import store

    cat = store.load_exact(version)
    sets = {v.dest: v for v in cat.value_sets}
    assert {"reasoning_parser", "tool_call_parser", "quantization", "attention_backend"} <= set(sets)
    assert "hermes" in sets["tool_call_parser"].values
    assert "deepseek_r1" in sets["reasoning_parser"].values
    assert "gptq" in sets["quantization"].values and "gptq4" not in sets["quantization"].values
    assert "FLASH_ATTN" in sets["attention_backend"].values
    for v in sets.values():
        assert v.loc.file.startswith("vllm/") and v.loc.line > 0
        assert v.check.file.startswith("vllm/") and v.check.line > 0


# --------------------------------------------------------------------------- validators as data


@pytest.mark.parametrize("version", RELEASES)
def test_dcp_not_dividing_tp(tmp_path, version):
    text = serve("-dcp 4 -tp 2")
    assert lint(tmp_path, text, version) == [("VC226", 1, col(text, "-tp"), "error")]
    assert lint(tmp_path, serve("-dcp 2 -tp 4"), version) == []


def test_negative_dcp_before_the_field_bound(tmp_path):
    # 0.13 asserts tp % dcp == 0 on the raw ints (1 % -5 is -4); from 0.23 the field's
    # ge=1 bound refuses it first (VC006), and VC226 says nothing more
    text = serve("-dcp -5")
    assert lint(tmp_path, text, "0.13.0") == [("VC226", 1, col(text, "-dcp"), "error")]
    assert [f[0] for f in lint(tmp_path, text, "0.33.0")] == ["VC006"]


def test_dcp_with_prefill_context_parallel_is_left_alone(tmp_path):
    # with PCP > 1 vLLM 0.33 checks other sizes (config/parallel.py:601): not judged
    assert lint(tmp_path, serve("-dcp 4 -tp 2 --prefill-context-parallel-size 2"), "0.33.0") == []


def test_long_prefill_threshold_above_model_len(tmp_path):
    text = serve("--max-model-len 8192 --long-prefill-token-threshold 9000")
    assert lint(tmp_path, text, "0.33.0") == [("VC227", 1, col(text, "--long-prefill"), "error")]
    # 0.13.0 checks it only with more than one partial prefill
    assert lint(tmp_path, text, "0.13.0") == []
    text2 = serve("--max-model-len 8192 --max-num-partial-prefills 2 --long-prefill-token-threshold 9000")
    assert lint(tmp_path, text2, "0.13.0") == [("VC227", 1, col(text2, "--long-prefill"), "error")]
    # an unset --max-model-len comes from the model: not known
    assert lint(tmp_path, serve("--long-prefill-token-threshold 9000"), "0.33.0") == []


@pytest.mark.parametrize("version", RELEASES)
def test_serve_argument_checks(tmp_path, version):
    text = serve("--enable-log-outputs --enable-auto-tool-choice")
    assert lint(tmp_path, text, version) == [
        ("VC228", 1, col(text, "--enable-log-outputs"), "error"),
        ("VC229", 1, col(text, "--enable-auto-tool-choice"), "error"),
    ]
    ok = serve("--enable-log-requests --enable-log-outputs --enable-auto-tool-choice --tool-call-parser hermes")
    assert lint(tmp_path, ok, version) == []


@pytest.mark.parametrize("version", RELEASES)
def test_logging_level(tmp_path, version):
    text = "export VLLM_LOGGING_LEVEL=LOUD\n" + serve("")
    assert lint(tmp_path, text, version) == [("VC110", 1, col(text, "LOUD"), "error")]
    assert lint(tmp_path, "export VLLM_LOGGING_LEVEL=debug\n" + serve(""), version) == []
    off = "export VLLM_CONFIGURE_LOGGING=0\nexport VLLM_LOGGING_LEVEL=LOUD\n" + serve("")
    assert lint(tmp_path, off, version) == []


# --------------------------------------------------------------------------- whole values


@pytest.mark.parametrize("version", RELEASES)
def test_compilation_config_that_is_not_an_object(tmp_path, version):
    text = serve("--compilation-config 3")
    assert lint(tmp_path, text, version) == [("VC024", 1, col(text, " 3") + 1, "error")]
    assert lint(tmp_path, serve("--compilation-config '{\"cudagraph_capture_sizes\":[1,2,4]}'"), version) == []


@pytest.mark.parametrize("version", RELEASES)
def test_hf_overrides_incomplete_json_is_text(tmp_path, version):
    text = serve("--hf-overrides '{\"a\":'")
    assert lint(tmp_path, text, version) == [("VC024", 1, col(text, "{"), "error")]
    assert lint(tmp_path, serve('--hf-overrides \'{"rope_scaling":{"factor":4}}\''), version) == []


def test_max_model_len_zero(tmp_path):
    text = serve("--max-model-len 0")
    assert lint(tmp_path, text, "0.33.0") == [("VC230", 1, col(text, "--max-model-len"), "error")]
    # 0.13.0 declares the field > 0: VC006, not VC230
    assert [f[0] for f in lint(tmp_path, text, "0.13.0")] == ["VC006"]
    assert lint(tmp_path, serve("--max-model-len auto"), "0.33.0") == []
    assert lint(tmp_path, serve("--max-model-len -1"), "0.33.0") == []


def test_quantization_a_known_plugin_registers_is_clean(tmp_path):
    # vllm-ascend registers `ascend` (knowledge pack plugin-ascend.toml, names)
    assert lint(tmp_path, serve("--quantization ascend"), "0.33.0") == []
    text = serve("--quantization ascendd")
    assert lint(tmp_path, text, "0.33.0") == [("VC014", 1, col(text, "ascendd"), "error")]


# --------------------------------------------------------------------------- VC231, VC232, enum keys


@pytest.mark.parametrize("version", RELEASES)
def test_dotted_key_after_json_loses_the_connector(tmp_path, version):
    kv = '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
    text = serve(f"--kv-transfer-config '{kv}' --kv-transfer-config.kv_port 5601")
    codes = lint(tmp_path, text, version)
    assert ("VC231", 1, col(text, "--kv-transfer-config.kv_port"), "error") in codes


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize(
    ("args", "at"),
    [
        ("--kv-transfer-config.kv_role kv_producer", "--kv-transfer-config.kv_role"),
        ("--kv-transfer-config '{}'", "{}"),
        ('--kv-transfer-config \'{"kv_role":"kv_both"}\'', '{"kv_role"'),
    ],
)
def test_kv_config_without_connector(tmp_path, version, args, at):
    text = serve(args)
    assert lint(tmp_path, text, version) == [("VC231", 1, col(text, at), "error")]


@pytest.mark.parametrize("version", RELEASES)
def test_kv_config_with_connector_or_offloading_is_clean(tmp_path, version):
    for args in (
        "--kv-transfer-config.kv_connector NixlConnector --kv-transfer-config.kv_role kv_both",
        '--kv-offloading-size 4 --kv-transfer-config \'{"kv_role":"kv_both"}\'',
    ):
        assert [c for c, *_ in lint(tmp_path, serve(args), version) if c == "VC231"] == []


def test_unknown_variable_with_fail_on_environ_validation(tmp_path):
    text = "export VLLM_NOT_A_VARIABLE=1\nexport VLLM_LOGGING_LEVEL=DEBUG\n" + serve("--fail-on-environ-validation")
    assert lint(tmp_path, text, "0.33.0") == [("VC232", 1, 8, "error")]
    # without the flag vLLM only logs a warning: nothing to report for a name close to none
    assert lint(tmp_path, "export VLLM_NOT_A_VARIABLE=1\n" + serve(""), "0.33.0") == []
    # a misspelt name is VC101's warning without the flag, VC232's error with it
    typo = "export VLLM_ENGINE_READY_TIMEOUT=1200\n"
    assert lint(tmp_path, typo + serve(""), "0.33.0") == [("VC101", 1, 8, "warning")]
    assert lint(tmp_path, typo + serve("--fail-on-environ-validation"), "0.33.0") == [("VC232", 1, 8, "error")]


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize(
    ("args", "bad"),
    [
        ("--compilation-config '{\"mode\":7}'", "7}"),
        ('--compilation-config \'{"mode":"VLLM_COMPILED"}\'', '"VLLM_COMPILED"'),
        ('--compilation-config \'{"cudagraph_mode":"FULLL"}\'', '"FULLL"'),
        ("--compilation-config.mode 9", "9"),
        ("--compilation-config.cudagraph_mode PIECEWIS", "PIECEWIS"),
    ],
)
def test_compilation_enum_keys(tmp_path, version, args, bad):
    text = serve(args)
    assert lint(tmp_path, text, version) == [("VC025", 1, col(text, bad), "error")]


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize(
    "args",
    [
        "--compilation-config '{\"mode\":3}'",
        '--compilation-config \'{"mode":"vllm_compile"}\'',
        '--compilation-config \'{"cudagraph_mode":"full_and_piecewise"}\'',
        "--compilation-config '{\"cudagraph_mode\":2}'",
        "--compilation-config.mode 3",
        "-O3",
        "-O0",
    ],
)
def test_compilation_enum_keys_valid(tmp_path, version, args):
    assert lint(tmp_path, serve(args), version) == []


@pytest.mark.parametrize("version", RELEASES)
def test_optimization_level_outside_the_enum(tmp_path, version):
    text = serve("-O7")
    assert lint(tmp_path, text, version) == [("VC014", 1, col(text, "7"), "error")]


# --------------------------------------------------------------------------- field validators


@pytest.mark.parametrize(
    ("args", "bad", "code"),
    [
        # a wrap validator that only lets None through: anything else is judged
        ('--compilation-config \'{"pass_config":{"fuse_norm_quant":"maybe"}}\'', '"maybe"', "VC024"),
        ('--kernel-config \'{"enable_jit_warmup":"maybe"}\'', '"maybe"', "VC024"),
        ('--compilation-config \'{"max_cudagraph_capture_size":"abc"}\'', '"abc"', "VC024"),
        # a before validator that lower-cases text and turns "-" into "_": then the Literal
        ('--kernel-config \'{"moe_backend":"auot"}\'', '"auot"', "VC025"),
    ],
)
def test_keys_behind_a_field_validator_are_judged(tmp_path, args, bad, code):
    text = serve(args)
    assert lint(tmp_path, text, "0.33.0") == [(code, 1, col(text, bad), "error")]


@pytest.mark.parametrize(
    "args",
    [
        '--compilation-config \'{"pass_config":{"fuse_norm_quant":null}}\'',
        '--compilation-config \'{"pass_config":{"fuse_norm_quant":true}}\'',
        '--kernel-config \'{"moe_backend":"AUTO"}\'',
        '--kernel-config \'{"moe_backend":"batched-triton"}\'',
    ],
)
def test_what_a_field_validator_accepts_is_clean(tmp_path, args):
    assert lint(tmp_path, serve(args), "0.33.0") == []


def test_validator_shapes_read_from_source():
    import ast

    from vcfg.catalog.extract.configs_validators import class_validators

    src = '''
class K:
    @field_validator("a", "b", mode="wrap")
    @classmethod
    def _skip(cls, value, handler):
        """doc"""
        if value is None:
            return value
        return handler(value)

    @field_validator("c", mode="before")
    @classmethod
    def _norm(cls, value):
        if isinstance(value, str):
            return value.lower().replace("-", "_")
        return value

    @field_validator("d", mode="before")
    @classmethod
    def _other(cls, value):
        return int(value) + 1

    @field_validator("e")
    @classmethod
    def _after(cls, value):
        raise ValueError("no")
'''
    cdef = ast.parse(src).body[0]
    # each with the line of its ``def``
    assert class_validators(cdef) == {"a": ("none", 5), "b": ("none", 5), "c": ("lower-dash", 13), "d": ("coerce", 20)}


# --------------------------------------------------------------------------- VC239 keys of one value


@pytest.mark.parametrize(
    ("args", "at"),
    [
        ('--profiler-config \'{"proton_context":"python"}\'', "proton_context"),
        ('--profiler-config \'{"profiler":"proton"}\'', 'profiler":'),
        ("--profiler-config.proton_hook triton", "proton_hook"),
        ('--eplb-config \'{"communicator":"pynccl"}\'', "communicator"),
        (
            '--speculative-config \'{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":4,'
            '"draft_lm_head_quantization":"nvfp4"}\'',
            "draft_lm_head_quantization",
        ),
    ],
)
def test_config_keys_its_class_refuses_together(tmp_path, args, at):
    text = serve(args)
    assert lint(tmp_path, text, "0.33.0") == [("VC239", 1, col(text, at), "error")]


@pytest.mark.parametrize(
    "args",
    [
        '--profiler-config \'{"profiler":"proton","proton_profiler_dir":"/tmp/p","proton_context":"python"}\'',
        '--profiler-config \'{"proton_context":"shadow"}\'',  # the default: not "set"
        '--eplb-config \'{"communicator":"pynccl","use_async":false}\'',
        '--eplb-config \'{"communicator":"torch_gloo"}\'',
        '--speculative-config \'{"method":"eagle3","model":"org/eagle3","num_speculative_tokens":3,'
        '"draft_lm_head_quantization":"nvfp4"}\'',
    ],
)
def test_config_keys_that_fit_together_are_clean(tmp_path, args):
    assert lint(tmp_path, serve(args), "0.33.0") == []


def test_the_proton_checks_hold_from_0_28(tmp_path):
    """ProfilerConfig refuses a Proton option without `"profiler": "proton"`, and
    `"profiler": "proton"` without a trace directory, from 0.28.0 (config/profiler.py:205
    and :210), the release that adds the Proton fields, not only from 0.33.0."""
    option = '--profiler-config \'{"proton_context":"python"}\''
    nodir = '--profiler-config \'{"profiler":"proton"}\''
    for version in ("0.28.0", "0.30.0", "0.32.0"):
        text = serve(option)
        assert lint(tmp_path, text, version) == [("VC239", 1, col(text, "proton_context"), "error")], version
        text = serve(nodir)
        assert lint(tmp_path, text, version) == [("VC239", 1, col(text, 'profiler":'), "error")], version
        ok = serve(
            '--profiler-config \'{"profiler":"proton","proton_profiler_dir":"/tmp/p","proton_context":"python"}\''
        )
        assert lint(tmp_path, ok, version) == [], version
    # 0.27.1 has no Proton fields (the key is unknown there, another rule's finding)
    assert [c for c in lint(tmp_path, serve(option), "0.27.1") if c[0] == "VC239"] == []


def test_eplb_communicator_before_async_was_the_default(tmp_path):
    # 0.22 has no communicator check; 0.24-0.33 judge it with the release's use_async default
    assert [f[0] for f in lint(tmp_path, serve('--eplb-config \'{"communicator":"pynccl"}\''), "0.28.0")] == ["VC239"]
