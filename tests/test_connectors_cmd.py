import json

from click.testing import CliRunner

from vcfg.cli.commands import main


def rows(version):
    r = CliRunner().invoke(main, ["connectors", "--vllm-version", version, "--format", "json"])
    assert r.exit_code == 0, r.output
    return {x["name"]: x for x in json.loads(r.output)["connectors"]}


def test_registry_per_release():
    old, new = rows("0.13.0"), rows("0.33.0")
    assert "P2pNcclConnector" in old and "P2pNcclConnector" not in new
    p2p = old["P2pNcclConnector"]
    assert p2p["registered_at"].startswith("vllm/distributed/kv_transfer/kv_connector/factory.py:")
    keys = {k["name"]: k for k in p2p["extra_config_keys"]}
    assert keys["send_type"]["default"] == "PUT_ASYNC" and keys["mem_pool_size_gb"]["default"] == 32
    assert p2p["roles"] == {"prefill": ["kv_producer", "kv_both"], "decode": ["kv_consumer"]}


def test_knowledge_keys_and_plugins_are_listed():
    new = rows("0.33.0")
    offload = {k["name"]: k for k in new["OffloadingConnector"]["extra_config_keys"]}
    assert "cpu_bytes_to_use" in offload  # read outside the connector module: from the packs
    flagcx = new["FlagCXConnector"]
    assert flagcx["source"].startswith("plugin ") and "FLAGCX_PATH or FLAGCX_LIB_PATH" in flagcx["needs_env"]


def test_text_and_markdown():
    r = CliRunner().invoke(main, ["connectors", "--vllm-version", "0.20.2"])
    assert r.exit_code == 0 and r.output.startswith("KV connectors of vllm 0.20.2")
    r = CliRunner().invoke(main, ["connectors", "--vllm-version", "0.20.2", "--format", "markdown"])
    assert "| NixlConnector |" in r.output
