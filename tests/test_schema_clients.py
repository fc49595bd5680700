"""Real schema clients on the committed schemas: check-jsonschema (the pre-commit
tool) and yaml-language-server (the editor server, driven over LSP stdio)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from schema_lsp import LspClient, install_yaml_language_server

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
FIX = Path(__file__).parent / "fixtures" / "schema"

# (release, schema kind, file stem): the errors check-jsonschema must report for the
# bad file, as (path, start of message); the good file must pass.
EXPECTED = {
    ("0.10.2", "serve"): [
        ("$['kv-transfer-config']", "{'kv_connector': 'NixlConnector'"),  # no mappings before 0.16
        ("$['tensor-parallel-size']", "'two' does not match"),
    ],
    ("0.10.2", "kv-transfer-config"): [
        ("$", "'kv_connector_extra_config' is a required property"),  # P2P-NCCL needs its proxy
        ("$.kv_role", "'producer' is not one of"),
    ],
    ("0.20.2", "serve"): [
        ("$['kv-transfer-config'].kv_connector_extra_config.proxy_port", "30001 is not of type 'string'"),
        ("$['max-model-len']", "'1.5K' does not match"),
    ],
    ("0.20.2", "kv-transfer-config"): [
        ("$.kv_connector", "'NixlConnecter' is not one of"),
    ],
    ("0.33.0", "serve"): [
        ("$.dtype", "'bfloat17' is not one of"),
        (
            "$['kv-transfer-config'].kv_buffer_size",
            "'KVTransferConfig.kv_buffer_size: removed after vLLM 0.31.0.",
        ),  # ... was expected
        ("$['max-num-seqz']", "'not an option of `vllm serve` in vLLM 0.33.0"),
        ("$['gpu-memory-utilization']", "1.3 is greater than the maximum of 1"),
    ],
    ("0.33.0", "kv-transfer-config"): [
        ("$.kv_connector_extra_config.cpu_bytes_to_use", "'80 GB' does not match"),
    ],
}


def _check_jsonschema(schema: Path, *files: Path) -> dict:
    """check-jsonschema's own command (its click command, run in this process: the
    same code as ``python -m check_jsonschema``, without starting an interpreter per
    case; a version without that module path is run as a program)."""
    argv = ["-o", "json", "--schemafile", str(schema), *map(str, files)]
    try:
        from check_jsonschema.cli.main_command import main as check_main
    except ImportError:
        proc = subprocess.run(
            [sys.executable, "-m", "check_jsonschema", *argv], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode in (0, 1), proc.stderr
        return json.loads(proc.stdout)
    from click.testing import CliRunner

    r = CliRunner().invoke(check_main, argv)
    assert r.exit_code in (0, 1) and (r.exception is None or isinstance(r.exception, SystemExit)), r.output
    return json.loads(r.output)


@pytest.mark.parametrize("release,kind", sorted(EXPECTED))
def test_check_jsonschema_accepts_good_and_rejects_bad_with_paths(release: str, kind: str) -> None:
    pytest.importorskip("check_jsonschema")
    stem, ext = ("serve", "yaml") if kind == "serve" else ("kv", "json")
    good, bad = FIX / release / f"good-{stem}.{ext}", FIX / release / f"bad-{stem}.{ext}"
    schema = SCHEMAS / release / f"{kind}.schema.json"
    report = _check_jsonschema(schema, good, bad)
    assert report["parse_errors"] == []
    assert all(Path(e["filename"]).name == bad.name for e in report["errors"]), report["errors"]
    found = []
    for e in report["errors"]:
        best = e.get("best_deep_match") or e
        found.append((best["path"], best["message"]))
    assert sorted(p for p, _ in found) == sorted(p for p, _ in EXPECTED[(release, kind)])
    for path, start in EXPECTED[(release, kind)]:
        msg = next(m for p, m in found if p == path)
        assert msg.startswith(start), (path, msg)


# --------------------------------------------------------------------------- yaml-language-server

SERVE_YAML = """\
# yaml-language-server: $schema={schema}
model: Qwen/Qwen3-8B
dtype: bfloat17
kv-transfer-config:
  kv_connector: NixlConnector
  kv_role: kv_both
  kv_buffer_size: 1e9
  kv_
max-num-
"""


@pytest.fixture(scope="module")
def yaml_ls(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    if shutil.which("node") is None:
        pytest.fail("node is not installed")
    # module-scoped: set up before conftest's per-test cache fixture
    cache = Path(os.environ.get("VCFG_CACHE_DIR") or Path.home() / ".cache" / "vcfg")
    script = install_yaml_language_server(cache)
    root = tmp_path_factory.mktemp("yamlls")
    client = LspClient(
        ["node", str(script), "--stdio"],
        {
            "validate": True,
            "completion": True,
            "hover": True,
            "schemaStore": {"enable": False},
            "kubernetesCRDStore": {"enable": False},
        },
    )
    client.initialize(root)
    yield client, root
    client.close()


@pytest.mark.slow
def test_yaml_language_server_completes_keys_and_reports_enum(yaml_ls) -> None:  # type: ignore[no-untyped-def]
    client, root = yaml_ls
    doc = root / "serve.yaml"
    text = SERVE_YAML.format(schema=(SCHEMAS / "0.33.0" / "serve.schema.json").as_posix())
    doc.write_text(text)
    uri = doc.as_uri()
    client.open(uri, text)

    diags = client.diagnostics(uri, timeout=60, want=2)
    enum = [d for d in diags if d["range"]["start"]["line"] == 2]
    assert enum, diags
    assert "bfloat16" in enum[0]["message"]  # "Value is not accepted. Valid values: ..."
    assert enum[0]["range"]["start"]["character"] == len("dtype: ")
    # a field 0.33 no longer has: vcfg's message on that line
    removed = [d["message"] for d in diags if d["range"]["start"]["line"] == 6]
    assert any("removed after vLLM 0.31.0" in m for m in removed), diags

    # a top-level key: dash spellings offered, underscore spellings not
    labels = {i["label"] for i in client.completion(uri, 8, len("max-num-"))}
    assert {"max-num-seqs", "max-num-batched-tokens"} <= labels
    assert "max_num_seqs" not in labels
    # a key inside the kv-transfer-config mapping, from KVTransferConfig
    inner = {i["label"] for i in client.completion(uri, 7, len("  kv_"))}
    assert {"kv_port", "kv_connector_extra_config"} <= inner
    assert "kv_buffer_size" not in inner  # removed in 0.32: not offered

    hover = client.hover(uri, 2, 2)
    value = hover["contents"]["value"] if isinstance(hover["contents"], dict) else str(hover["contents"])
    assert "Choices:" in value and "`ModelConfig.dtype`" in value


MISTAKES_YAML = """\
# yaml-language-server: $schema={schema}
model: Qwen/Qwen3-8B
gpu-memory-utilisation: 0.9
max-seq-len-to-capture: 8192
gpu-memory-utilization: 1.3
max-num-seqs: -4
max-num-seq: 64
tensor-parallel-size: 2
"""


@pytest.mark.slow
def test_yaml_language_server_flags_misspelt_removed_and_out_of_bounds(yaml_ls) -> None:  # type: ignore[no-untyped-def]
    """Issue 17: in the default schema a misspelt key is flagged, a removed key carries
    vcfg's message alone (no "Matches a schema that is not allowed"), bounds hold."""
    client, root = yaml_ls
    doc = root / "mistakes.yaml"
    text = MISTAKES_YAML.format(schema=(SCHEMAS / "0.33.0" / "serve.schema.json").as_posix())
    doc.write_text(text)
    uri = doc.as_uri()
    client.open(uri, text)
    diags = client.diagnostics(uri, timeout=60, want=5)
    by_line: dict[int, list[str]] = {}
    for d in diags:
        by_line.setdefault(d["range"]["start"]["line"], []).append(d["message"])
    assert not any("Matches a schema that is not allowed" in m for ms in by_line.values() for m in ms), diags
    assert len(by_line.get(2, [])) == 1 and "not an option of `vllm serve`" in by_line[2][0], diags
    assert by_line.get(3) and len(by_line[3]) == 1, diags  # removed: one message, vcfg's
    assert by_line[3][0].startswith("--max-seq-len-to-capture: removed after vLLM"), diags
    assert by_line.get(4) and by_line.get(5), diags  # 1.3 > 1, -4 < 1
    assert [m for m in by_line.get(6, [])] and "abbreviation" in by_line[6][0], diags  # a warning
    assert 7 not in by_line, diags
