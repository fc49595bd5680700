import json

from click.testing import CliRunner

from vcfg.cli.commands import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_list():
    r = run("catalog", "list", "--format", "json")
    assert r.exit_code == 0
    versions = json.loads(r.output)
    # every PyPI release from 0.8.0, patches and .postN included (issue #21)
    assert versions[0] == "0.8.0" and versions[-1] == "0.33.0" and len(versions) == 50
    assert {"0.8.5.post1", "0.9.0.1", "0.10.0", "0.10.1.1"} <= set(versions)


def test_list_shows_the_plugin_overlays(tmp_path, monkeypatch):
    """The bundled vllm-ascend overlay and one the user built are listed after the
    releases (text), or alone with --plugins; the JSON list of releases is unchanged."""
    from vcfg.catalog import plugins

    monkeypatch.setenv("VCFG_CACHE_DIR", str(tmp_path))
    built = plugins.user_dir() / "vllm-acme-1.2.json"
    built.parent.mkdir(parents=True)
    built.write_text("{}")
    text = run("catalog", "list").output
    releases, overlays = text.split("\n\n")
    assert releases.split()[-1] == "0.33.0"
    assert overlays.splitlines()[1:] == [
        f"  vllm-acme 1.2 (built: {built})",
        f"  vllm-ascend 0.23.0.post1 (bundled: {plugins.BUNDLED_DIR / 'vllm-ascend-0.23.0.post1.json'})",
    ]
    r = run("catalog", "list", "--plugins", "--format", "json")
    assert r.exit_code == 0, r.output
    assert [(o["name"], o["version"], o["origin"]) for o in json.loads(r.output)] == [
        ("vllm-acme", "1.2", "built"),
        ("vllm-ascend", "0.23.0.post1", "bundled"),
    ]
    assert json.loads(run("catalog", "list", "--format", "json").output)[-1] == "0.33.0"


def test_show_json_contract():
    r = run("catalog", "show", "--vllm-version", "0.33.0", "--format", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert {"vllm_version", "env_vars", "configs", "flags", "connectors"} <= doc.keys()
    flag = next(f for f in doc["flags"] if "--tensor-parallel-size" in f["option_strings"])
    assert {"option_strings", "dest", "type", "nargs", "choices", "default"} <= flag.keys()
    assert flag["option_strings"] == ["--tensor-parallel-size", "-tp"] and flag["default"] == 1
    assert len(doc["connectors"]) == 17


def test_show_text():
    r = run("catalog", "show", "--vllm-version", "0.20.2")
    assert r.exit_code == 0 and r.output.startswith("vllm 0.20.2: ")


def test_diff_says_what_was_removed_and_when():
    r = run("catalog", "diff", "0.13.0", "0.33.0", "--format", "json")
    assert r.exit_code == 0
    changes = {(c["kind"], c["name"]): c for c in json.loads(r.output)["changes"]}
    assert changes[("connector", "P2pNcclConnector")]["since"] == "0.24.0"
    assert changes[("field", "KVTransferConfig.kv_buffer_size")]["since"] == "0.32.0"
    assert changes[("env", "VLLM_RPC_TIMEOUT")]["since"] == "0.23.0"
    assert changes[("env", "VLLM_ENGINE_ITERATION_TIMEOUT_S")]["since"] == "0.32.0"
    for key in [("connector", "P2pNcclConnector"), ("env", "VLLM_RPC_TIMEOUT")]:
        assert changes[key]["change"] == "removed"
    text = run("catalog", "diff", "0.13.0", "0.33.0").output
    assert "- P2pNcclConnector  (removed in 0.24.0)" in text


def test_unknown_version_exit_2():
    r = run("catalog", "show", "--vllm-version", "0.7.3")
    assert r.exit_code == 2 and "oldest bundled release is 0.8.0" in r.output
    r = run("catalog", "show", "--vllm-version", "latest")
    assert r.exit_code == 2 and "not a vLLM release number" in r.output


def test_build_from_a_path_that_is_not_vllm(tmp_path):
    r = run("catalog", "build", "--source", str(tmp_path))
    assert r.exit_code == 2 and "not a vLLM source tree" in r.output
    assert "Traceback" not in r.output


def test_build_from_a_corrupt_wheel(tmp_path):
    w = tmp_path / "vllm-1.0.0-py3-none-any.whl"
    w.write_bytes(b"garbage")
    r = run("catalog", "build", "--wheel", str(w))
    assert r.exit_code == 2 and "not a readable wheel" in r.output


def test_build_without_network(monkeypatch):
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    r = run("catalog", "build", "--vllm-version", "0.33.0")
    assert r.exit_code == 2 and "could not download vllm 0.33.0" in r.output


def test_build_from_a_synthetic_tree_into_the_cache(tmp_path):
    root = tmp_path / "src"
    (root / "vllm" / "engine").mkdir(parents=True)
    (root / "vllm" / "envs.py").write_text(
        'import os\nenvironment_variables = {\n    "VLLM_X": lambda: int(os.getenv("VLLM_X", "3")),\n}\n'
    )
    (root / "vllm" / "engine" / "arg_utils.py").write_text("")
    (root / "vllm" / "_version.py").write_text("__version__ = '9.9.9'\n")
    r = run("catalog", "build", "--source", str(root))
    assert r.exit_code == 0, r.output
    assert "vllm 9.9.9: 0 flags, 1 env vars" in r.output
    r = run("catalog", "show", "--vllm-version", "9.9.9", "--format", "json")
    assert r.exit_code == 0 and json.loads(r.output)["env_vars"][0]["default"] == 3
