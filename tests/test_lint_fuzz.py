"""No traceback, ever: any bytes as a script or serve config, any JSON in
--kv-transfer-config, lint to diagnostics and an exit code of 0 or 1."""

import json
import os

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vcfg.cli.commands import main
from vcfg.lint.engine import lint_paths

#: the default suite's examples per test; .ci/run's fuzz stage runs this file again with
#: VCFG_FUZZ_EXAMPLES=2000, so the default run only needs to show each property holds
SETTINGS = settings(
    max_examples=int(os.environ.get("VCFG_FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

WORDS = st.sampled_from(
    [
        "vllm",
        "serve",
        "m",
        "--port",
        "8000",
        "-tp",
        "2",
        "--kv-transfer-config",
        "'{",
        "}'",
        "\\\n",
        "export",
        "VLLM_HOST_IP=1",
        "&",
        "|",
        ";",
        "$(x)",
        "${A:-1}",
        '"',
        "'",
        "#",
        "--enable-prefix-caching",
        "false",
        "--config",
        "x.yaml",
        "python",
        "-m",
        "vllm.entrypoints.openai.api_server",
        "nohup",
        "CUDA_VISIBLE_DEVICES=0",
        "\n",
        "unset",
    ]
)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "kv_connector",
                    "kv_role",
                    "kv_port",
                    "kv_buffer_size",
                    "kv_connector_extra_config",
                    "x",
                    "proxy_port",
                    "connectors",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=12,
)


def _lint(tmp_path, name, data, version="0.33.0"):
    f = tmp_path / name
    f.write_bytes(data)
    result = lint_paths([str(f)], version)
    assert result.internal_errors == [], result.internal_errors
    return result


@SETTINGS
@given(st.lists(WORDS, max_size=40))
def test_shell_like_scripts(tmp_path_factory, words):
    _lint(tmp_path_factory.mktemp("f"), "x.sh", " ".join(words).encode())


@SETTINGS
@given(st.binary(max_size=400))
def test_any_bytes_as_script_and_yaml(tmp_path_factory, data):
    d = tmp_path_factory.mktemp("f")
    _lint(d, "x.sh", data)
    _lint(d, "x.yaml", data)


@SETTINGS
@given(JSON, st.sampled_from(["0.10.2", "0.13.0", "0.33.0"]))
def test_any_json_in_kv_transfer_config(tmp_path_factory, value, version):
    text = json.dumps(value).replace("'", "'\\''")
    script = f"vllm serve m --port 8100 --kv-transfer-config '{text}' &\nvllm serve m --port 8200 &\n"
    _lint(tmp_path_factory.mktemp("f"), "x.sh", script.encode(), version)


def test_cli_exit_codes_on_garbage(tmp_path):
    f = tmp_path / "bin.sh"
    f.write_bytes(os.urandom(3000))
    r = CliRunner().invoke(main, ["lint", "--vllm-version", "0.33.0", str(f)])
    assert r.exit_code in (0, 1) and "Traceback" not in r.output, r.output[-2000:]
    r = CliRunner().invoke(main, ["lint", str(tmp_path / "missing.sh")])
    assert r.exit_code == 2 and "no such file" in r.output
    r = CliRunner().invoke(main, ["lint", "--format", "xml", str(f)])
    assert r.exit_code == 2


@SETTINGS
@given(st.binary(max_size=300), st.sampled_from(["full", "concise", "json", "sarif", "github"]))
def test_cli_prints_any_input_in_every_format(tmp_path_factory, data, fmt):
    f = tmp_path_factory.mktemp("f") / "x.sh"
    f.write_bytes(b"vllm serve m --port " + data)
    r = CliRunner().invoke(main, ["lint", "--vllm-version", "0.33.0", "--format", fmt, str(f)])
    assert r.exit_code in (0, 1), r.output[-2000:]
    r = CliRunner().invoke(main, ["launch", "show", str(f)])
    assert r.exit_code == 0, r.output[-2000:]
