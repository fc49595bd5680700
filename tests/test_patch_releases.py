"""Every PyPI release from 0.8.0 has its own catalog (issue #21): a patch release is
checked against itself, not against the newest patch of its minor."""

import json

import pytest
from click.testing import CliRunner

from vcfg.catalog import store
from vcfg.catalog.releases import BUNDLED_RELEASES
from vcfg.cli.commands import main as cli
from vcfg.lint.config import LintConfig
from vcfg.lint.engine import lint_text, make_target

#: a prefill node of a 1P1D pair as it ran on vLLM 0.10.0 with the V0 KV connectors
_SCRIPT = """#!/usr/bin/env bash
set -euo pipefail
export VLLM_USE_V1=0
vllm serve meta-llama/Llama-3.1-8B-Instruct \\
  --port 8100 \\
  --num-scheduler-steps 8 \\
  --enable-prompt-adapter \\
  --kv-transfer-config '{{"kv_connector":"{connector}","kv_role":"kv_producer","kv_rank":0,"kv_parallel_size":2}}'
"""

#: what VC001 (unknown flag) and VC027 (unknown connector) would say about it
_CODES = {"VC001", "VC002", "VC027"}


def _lint(tmp_path, version: str, connector: str):
    f = tmp_path / "prefill.sh"
    data = _SCRIPT.format(connector=connector).encode()
    f.write_bytes(data)
    res = lint_text(str(f), data, make_target(version, LintConfig()))
    assert not res.internal_errors
    return res


@pytest.mark.parametrize("connector", ["PyNcclConnector", "MooncakeConnector", "MooncakeStoreConnector"])
def test_0_10_0_accepts_what_0_10_0_accepts(tmp_path, connector):
    res = _lint(tmp_path, "0.10.0", connector)
    assert res.summary.vllm_version == "0.10.0"
    assert [(d.code, d.message) for d in res.diagnostics if d.code in _CODES] == []


@pytest.mark.parametrize("connector", ["PyNcclConnector", "MooncakeConnector", "MooncakeStoreConnector"])
def test_0_10_2_removed_them(tmp_path, connector):
    """The same script against 0.10.2, which dropped both flags and the V0 connectors."""
    res = _lint(tmp_path, "0.10.2", connector)
    found = {(d.code, d.span.line) for d in res.diagnostics if d.code in _CODES}
    assert {line for _, line in found} == {6, 7, 8}
    assert any(code == "VC027" and line == 8 for code, line in found)


def test_every_release_from_0_8_is_bundled_exactly():
    assert BUNDLED_RELEASES[0] == "0.8.0"
    for v in ("0.8.5.post1", "0.9.0.1", "0.10.0", "0.10.1.1", "0.20.1"):
        cat, note = store.load(v)
        assert (cat.vllm_version, note) == (v, None)


def test_0_8_has_its_kv_transfer_config():
    """Before 0.9 KVTransferConfig was a pydantic model, not a @config dataclass."""
    cat = store.load_exact("0.8.0")
    kv = cat.config("KVTransferConfig")
    assert kv is not None and not kv.extra_forbid
    assert [f.name for f in kv.fields][:3] == ["kv_connector", "kv_buffer_device", "kv_buffer_size"]
    assert [c.name for c in cat.connectors] == ["PyNcclConnector", "MooncakeConnector", "LMCacheConnector"]


def test_a_release_newer_than_the_bundle_says_which_catalog_and_what_may_differ():
    cat, note = store.load("0.33.1")
    assert cat.vllm_version == "0.33.0"
    assert note == (
        "no catalog for vllm 0.33.1; using the catalog of 0.33.0: what 0.33.1 added, removed "
        "or changed since is not known (`vcfg catalog build --vllm-version 0.33.1` builds its own)"
    )


def test_catalog_list_shows_every_release():
    r = CliRunner().invoke(cli, ["catalog", "list", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == list(BUNDLED_RELEASES)
    text = CliRunner().invoke(cli, ["catalog", "list"]).output.split("\n\n")[0].split()  # then the overlays
    assert text[:7] == ["0.8.0", "0.8.1", "0.8.2", "0.8.3", "0.8.4", "0.8.5", "0.8.5.post1"]
    assert len(text) == len(BUNDLED_RELEASES) >= 50
