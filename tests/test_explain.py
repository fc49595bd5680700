import json

import pytest
from click.testing import CliRunner
from golden import check_golden

from vcfg.cli.commands import main
from vcfg.errors import VcfgError
from vcfg.explain import explain
from vcfg.explain.render import render

RELEASES = ["0.10.2", "0.20.2", "0.33.0"]
TOPICS = {
    "flag": "--kv-transfer-config",
    "alias": "-tp",
    "negated": "--no-enable-prefix-caching",
    "env": "VLLM_HOST_IP",
    "field": "KVTransferConfig.kv_role",
    "bare-field": "kv_role",
    "config": "KVTransferConfig",
    "connector": "NixlConnector",
    "plugin-env": "FLAGCX_PATH",
    "rule": "VC023",
}


@pytest.mark.parametrize("version", RELEASES)
@pytest.mark.parametrize("label", sorted(TOPICS))
def test_golden(label, version):
    doc = explain(TOPICS[label], version, with_help=False)
    check_golden(f"explain/{label}-{version}.txt", render(doc) + "\n")


def test_kv_transfer_flow_has_the_notes_stages_with_0_13_lines():
    doc = explain("--kv-transfer-config", "0.13.0", with_help=False)
    where = {st["stage"]: st["where"] for st in doc["flow"]}
    # the user's notes: scheduler side in scheduler.py, worker side in kv_transfer_state.py
    assert any(w.startswith("vllm/v1/core/sched/scheduler.py:") for w in where["3. scheduler side"])
    assert any(w.startswith("vllm/distributed/kv_transfer/kv_transfer_state.py:") for w in where["4. worker side"])
    assert any(w.startswith("vllm/engine/arg_utils.py:") for w in where["1. command line to config object"])
    registry = next(st for st in doc["flow"] if "registry" in st)["registry"]
    p2p = next(r for r in registry if r["name"] == "P2pNcclConnector")
    assert p2p["module"].endswith("p2p.p2p_nccl_connector")
    assert p2p["registered_at"].startswith("vllm/distributed/kv_transfer/kv_connector/factory.py:")


def test_p2p_is_gone_in_0_33():
    doc = explain("--kv-transfer-config", "0.33.0", with_help=False)
    gone = {g["name"]: g["removed_in"] for g in doc["related"]["removed_connectors"]}
    assert gone["P2pNcclConnector"] == "0.24.0"
    doc = explain("P2pNcclConnector", "0.33.0", with_help=False)
    assert doc["exists"] is False and "removed in 0.24.0" in doc["absent"]


def test_removed_variable_says_when():
    doc = explain("VLLM_RPC_TIMEOUT", "0.33.0", with_help=False)
    assert doc["exists"] is False and doc["history"]["removed_in"] == "0.23.0"


def test_dotted_flag_is_the_field():
    doc = explain("--kv-transfer-config.kv_role", "0.33.0", with_help=False)
    assert doc["kind"] == "field" and doc["name"] == "KVTransferConfig.kv_role"


def test_underscore_flag_spelling():
    assert explain("--max_num_seqs", "0.33.0", with_help=False)["name"] == "--max-num-seqs"


def test_unknown_topic_suggests_and_cli_exits_2():
    with pytest.raises(VcfgError) as e:
        explain("--max-num-seq", "0.33.0", with_help=False)
    assert "--max-num-seqs" in e.value.hint
    r = CliRunner().invoke(main, ["explain", "VLLM_HOST_IPP", "--vllm-version", "0.33.0"])
    assert r.exit_code == 2 and "VLLM_HOST_IP" in r.output and "Traceback" not in r.output


def test_cli_json():
    r = CliRunner().invoke(
        main, ["explain", "--kv-transfer-config", "--vllm-version", "0.20.2", "--format", "json", "--no-help-text"]
    )
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["kind"] == "flag" and doc["facts"]["value_class"] == "KVTransferConfig"


def test_help_text_needs_a_local_source(monkeypatch, tmp_path):
    monkeypatch.setenv("VCFG_CACHE_DIR", str(tmp_path))
    doc = explain("VLLM_HOST_IP", "0.33.0")
    assert doc["help_text"] is None and "vcfg catalog build --vllm-version 0.33.0" in doc["help_note"]


def test_help_text_from_a_cached_source(monkeypatch, tmp_path):
    # a fake cached 0.33.0 tree whose comment above the variable's line is our own
    root = tmp_path / "vllm-src" / "0.33.0" / "vllm"
    (root / "engine").mkdir(parents=True)
    (root / "engine" / "arg_utils.py").write_text("")
    monkeypatch.setenv("VCFG_CACHE_DIR", str(tmp_path))
    from vcfg.catalog import store

    loc = store.load("0.33.0")[0].env("VLLM_HOST_IP").loc
    filler = ["x = 1"] * (loc.line - 2)
    (root / "envs.py").write_text("\n".join(filler + ["# our own words about the host", "y = 2"]) + "\n")
    doc = explain("VLLM_HOST_IP", "0.33.0")
    assert doc["help_text"] == "our own words about the host"


def test_colour_only_when_asked():
    doc = explain("VLLM_HOST_IP", "0.33.0", with_help=False)
    assert "\x1b[1m" in render(doc, colour=True) and "\x1b[" not in render(doc)


def test_rule_code_topic():
    doc = explain("vc001", "0.33.0", with_help=False)
    assert doc["kind"] == "rule" and doc["rule"]["name"] == "unknown-flag"
    assert explain("unknown-flag", "0.33.0", with_help=False)["name"] == "VC001"


# ---------------------------------------------------------------- issue 17


@pytest.mark.parametrize("version", ["0.13.0", "0.33.0"])
@pytest.mark.parametrize(
    "flag, field",
    [
        ("--compilation-config", "compilation_config"),
        ("--kv-events-config", "kv_events_config"),
        ("--ec-transfer-config", "ec_transfer_config"),
    ],
)
def test_each_config_flag_has_its_own_flow(flag, field, version):
    doc = explain(flag, version, with_help=False)
    stages = [st["stage"] for st in doc["flow"]]
    assert stages == ["1. command line to config object", "2. EngineArgs to VllmConfig"]
    text = " ".join(st["what"] for st in doc["flow"])
    assert f"into VllmConfig.{field}" in text
    assert "kv_transfer_config" not in text and "connector" not in text
    # the VllmConfig field's own line, not kv_transfer_config's
    kv_line = [
        st for st in explain("--kv-transfer-config", version, with_help=False)["flow"] if st["stage"].startswith("2.")
    ][0]["where"][-1]
    assert doc["flow"][1]["where"][-1] != kv_line
    assert doc["flow"][1]["where"][-1].startswith("vllm/config/vllm.py:")


def test_kv_transfer_config_keeps_its_five_stages():
    doc = explain("--kv-transfer-config", "0.33.0", with_help=False)
    assert [st["stage"].split(". ")[0] for st in doc["flow"]] == ["1", "2", "3", "4", "5"]
    assert "into VllmConfig.kv_transfer_config" in doc["flow"][1]["what"]


def test_connector_flow_numbers_from_1_and_names_the_connector():
    doc = explain("NixlConnector", "0.33.0", with_help=False)
    stages = [st["stage"] for st in doc["flow"]]
    assert stages == [
        "1. named in kv_transfer_config",
        "2. factory lookup",
        "3. scheduler side",
        "4. worker side",
    ]
    lookup = doc["flow"][1]
    assert "NixlConnector" in lookup["what"]
    assert lookup["where"][0] == doc["defined_at"]  # where it is registered
    assert "registry" not in lookup  # one connector, not the whole registry
    assert "\n  1. named in kv_transfer_config" in render(doc)


def test_removed_variable_replacement_is_not_a_python_list():
    doc = explain("VLLM_ATTENTION_BACKEND", "0.33.0", with_help=False)
    assert doc["removed"]["replacement"] == ["--attention-backend", "--attention-config.backend"]
    text = render(doc)
    assert "use instead: --attention-backend or --attention-config.backend" in text
    assert "['" not in text
    md = render(doc, markdown=True)
    assert "use instead: `--attention-backend` or `--attention-config.backend`" in md


def test_explain_and_connectors_read_the_projects_knowledge_packs(tmp_path, monkeypatch):
    """[tool.vcfg] knowledge reaches explain and connectors, as it reaches lint."""
    from click.testing import CliRunner

    from vcfg.cli.commands import main

    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "site.toml").write_text(
        '[pack]\nname = "site"\ndescription = "a site plugin"\n\n'
        '[[plugin]]\nname = "site-plugin"\npackage = "site_plugin"\nconnectors = ["SiteConnector"]\n'
        'versions = ">=0.10.0"\nsources = ["example-org/site-plugin:README.md"]\n\n'
        '[[plugin.env]]\nname = "SITE_KV_DEPTH"\ntype = "int"\ndefault = 4\nmeaning = "queue depth of the site connector"\nsources = ["example-org/site-plugin:README.md"]\n'
    )
    (tmp_path / ".vcfg.toml").write_text('knowledge = ["packs"]\n')
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["explain", "SITE_KV_DEPTH", "--format", "json", "--no-help-text"])
    assert r.exit_code == 0, r.output
    assert "site-plugin" in r.output
    c = CliRunner().invoke(main, ["connectors", "--format", "json"])
    assert c.exit_code == 0 and "SiteConnector" in c.output
    # without the project's config the variable is not vcfg's to explain
    (tmp_path / ".vcfg.toml").unlink()
    r = CliRunner().invoke(main, ["explain", "SITE_KV_DEPTH", "--format", "json", "--no-help-text"])
    assert "site-plugin" not in r.output
