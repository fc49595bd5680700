import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from vcfg.cli.commands import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "pd-decode-p2p.sh"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_seed_example_on_two_releases():
    r = run("lint", "--vllm-version", "0.33.0", "--format", "json", EXAMPLE)
    assert r.exit_code == 1
    doc = json.loads(r.output)
    got = {(d["code"], d["line"], d["column"]) for d in doc["diagnostics"]}
    assert {("VC027", 23, 18), ("VC023", 23, 62), ("VC103", 5, 8), ("VC103", 6, 8)} <= got
    assert doc["summary"]["vllm_version"] == "0.33.0"
    r = run("lint", "--vllm-version", "0.13.0", "--format", "json", EXAMPLE)
    codes = [(d["code"], d["severity"]) for d in json.loads(r.output)["diagnostics"]]
    assert codes == [("VC106", "warning")]


def test_select_ignore_and_exit_zero():
    r = run("lint", "--vllm-version", "0.33.0", "--format", "concise", "--select", "VC1", EXAMPLE)
    assert {line.split()[1] for line in r.output.splitlines()[:-1]} == {"VC103", "VC106"}
    r = run("lint", "--vllm-version", "0.33.0", "--ignore", "VC0,VC1", EXAMPLE)
    assert r.exit_code == 0 and "no problems" in r.output
    r = run("lint", "--vllm-version", "0.33.0", "--exit-zero", EXAMPLE)
    assert r.exit_code == 0


def test_config_nearest_the_file(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.vcfg]\nvllm-version = "0.13.0"\n')
    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts" / "decode.sh"
    shutil.copy(EXAMPLE, script)
    r = run("lint", "--format", "concise", script)
    assert "checked against vllm 0.13.0 (from project config)" in r.output


def test_suppression_comment(tmp_path):
    script = tmp_path / "x.sh"
    script.write_text("# vcfg: disable=VC001\nvllm serve m \\\n  --max-num-seqz 3\n")
    r = run("lint", "--vllm-version", "0.33.0", "--format", "concise", script)
    assert r.exit_code == 0, r.output


def test_launch_show():
    r = run("launch", "show", "--vllm-version", "0.13.0", EXAMPLE)
    assert r.exit_code == 0
    assert "line 11: vllm serve (background)" in r.output
    assert "--tensor-parallel-size = 8" in r.output and "unset by the script: FLAGCX_PATH" in r.output
    r = run("launch", "show", "--format", "json", EXAMPLE)
    doc = json.loads(r.output)
    parsed = doc["invocations"][0]["parsed"]
    assert parsed["options"]["port"]["value"] == 20002


def test_launch_show_names_the_field_a_negative_option_sets_and_an_unknown_model(tmp_path):
    """`--no-enable-prefix-caching = false` read as the opposite of what was written: the
    field the option sets is named; a model vcfg cannot compute is `<unknown>`, not blank."""
    f = tmp_path / "s.sh"
    f.write_text('vllm serve "$MODEL" --no-enable-prefix-caching --enforce-eager\n')
    r = run("launch", "show", "--vllm-version", "0.33.0", f)
    assert r.exit_code == 0, r.output
    assert "  model: <unknown>\n" in r.output
    assert "  --no-enable-prefix-caching: enable_prefix_caching = false\n" in r.output
    assert "  --enforce-eager = true\n" in r.output


def test_launch_show_counts_the_engines_as_lint_does(tmp_path):
    """A benchmark client and a proxy are launches `launch show` lists; `vcfg lint`'s
    summary counts the vLLM engines: the header says both when they differ."""
    f = tmp_path / "s.sh"
    f.write_text("vllm serve m --port 8000 &\nvllm bench serve --model m --port 8000\n")
    r = run("launch", "show", "--vllm-version", "0.33.0", f)
    assert r.output.startswith(f"{f}: 2 launch(es) (1 vLLM engine), checked against vllm 0.33.0\n"), r.output
    f.write_text("vllm serve m --port 8000\n")
    r = run("launch", "show", "--vllm-version", "0.33.0", f)
    assert r.output.startswith(f"{f}: 1 launch(es), checked against vllm 0.33.0\n"), r.output


def test_launch_show_says_a_ray_head(tmp_path):
    f = tmp_path / "values.yaml"
    f.write_text("servingEngineSpec:\n  modelSpec:\n  - name: a\n    modelURL: m\n    raySpec:\n      enabled: true\n")
    r = run("launch", "show", "--vllm-version", "0.33.0", f)
    assert r.exit_code == 0, r.output
    assert "started through: KubeRay RayCluster head" in r.output
    assert '--distributed-executor-backend = "ray"' in r.output


def test_concise_says_the_help_once(tmp_path):
    """VC102 on a bool_int variable: the reason in the message, "use 1 or 0" once (the
    help, which concise output appends in parentheses)."""
    script = tmp_path / "x.sh"
    script.write_text("export VLLM_USE_DEEP_GEMM=true\nvllm serve m\n")
    r = run("lint", "--vllm-version", "0.20.2", "--format", "concise", script)
    shown, finding = r.output.splitlines()[0].split(":", 1)
    assert shown.endswith("/x.sh") and finding == (
        "1:27: VC102 [error] `VLLM_USE_DEEP_GEMM`: 'true' is not an integer (read as bool(int(value))) (use 1 or 0)"
    ), r.output
