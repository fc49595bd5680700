"""`vcfg upgrade`: launches written for one release, migrated to a newer one."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from cli_run import run_vcfg
from golden import check_golden

from vcfg.upgrade.migrate import MIGRATION_CODES, upgrade

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"
RELEASES = ("0.10.2", "0.13.0", "0.20.2", "0.27.1", "0.33.0")
HEADER = "# vcfg-test: vllm="


def _version(path: Path) -> str:
    first = path.read_text(encoding="utf-8", errors="replace").splitlines()[0]
    return first[len(HEADER) :].strip() if first.startswith(HEADER) else ""


def _cases() -> list[tuple[str, str, Path]]:
    files = [
        p for kind in ("clean", "seeded") for p in sorted((CORPUS / kind).iterdir()) if p.suffix in (".sh", ".yaml")
    ]
    return [(a, b, p) for a, b in itertools.combinations(RELEASES, 2) for p in files if _version(p) == a]


CASES = _cases()


def test_the_round_trip_covers_every_release_pair() -> None:
    pairs = {(a, b) for a, b, _ in CASES}
    # 0.27.1 has one corpus file; every older release has several
    assert pairs == set(itertools.combinations(RELEASES, 2))
    assert len(CASES) > 60


@pytest.mark.parametrize("old,new,path", CASES, ids=[f"{a}-{b}-{p.name}" for a, b, p in CASES])
def test_upgraded_files_lint_clean_for_the_newer_release_or_name_what_was_not_migrated(
    old: str, new: str, path: Path
) -> None:
    u = upgrade([str(path)], old, new, report_defaults=False)  # reported by the golden test
    result = u.run.result
    assert result.internal_errors == []
    named = {(i.code, i.line, i.column) for i in u.not_migrated + u.preexisting}
    errors = [d for d in result.diagnostics if d.severity == "error"]
    unnamed = [(d.code, d.span.line, d.message) for d in errors if (d.code, d.span.line, d.span.col) not in named]
    assert unnamed == []
    for item in u.not_migrated:
        assert item.detail, item  # the reason, or what to do
    # whatever the packs say how to migrate was migrated
    left = [(d.code, d.message) for d in result.diagnostics if d.code in MIGRATION_CODES and d.fix is not None]
    assert left == []
    assert bool(u.migrated) == any(f.changed for f in u.run.files)
    # nothing written
    assert u.run.files[0].before == path.read_bytes()


def test_round_trip_migrates_what_the_packs_know_and_names_the_rest() -> None:
    """The round trip is not vacuous: these migrations happen, these are reported."""
    u = upgrade([str(CORPUS / "clean" / "p2p-nccl-1p1d-0.10.2.sh")], "0.10.2", "0.33.0")
    assert [(i.code, i.message) for i in u.migrated] == [
        ("VC023", "`kv_buffer_size` was removed from KVTransferConfig in vllm 0.32.0")
    ] * 2
    assert [(i.code, i.line) for i in u.not_migrated] == [("VC027", 22), ("VC027", 37)]
    u = upgrade([str(CORPUS / "clean" / "nixl-1p1d-0.10.2.sh")], "0.10.2", "0.13.0")
    assert [i.message for i in u.migrated] == ["`VLLM_USE_V1` was removed in vllm 0.11.1"]
    assert b"VLLM_USE_V1" not in u.run.files[0].after
    u = upgrade([str(CORPUS / "clean" / "api-server-0.10.2.sh")], "0.10.2", "0.33.0")
    assert [(i.code, i.message) for i in u.not_migrated] == [
        ("VC002", "`--swap-space` was removed in vllm 0.18.0; vllm 0.33.0's argparse rejects it as unrecognized")
    ]
    assert u.not_migrated[0].sources == ["vllm@0.17.1:vllm/engine/arg_utils.py:951"]  # from the catalogs


def test_the_users_script_from_0_13_to_0_33_golden() -> None:
    path = "examples/pd-decode-p2p.sh"
    before = (ROOT / path).read_bytes()
    proc = _vcfg("--from", "0.13.0", "--to", "0.33.0", path)
    assert proc.returncode == 1, proc.stderr  # something could not be migrated
    check_golden("upgrade/pd-decode-p2p-0.13.0-0.33.0.txt", proc.stdout)
    assert "P2pNcclConnector was removed in vllm 0.24.0" in proc.stdout
    assert "could take its place: NixlConnector (vllm@0.33.0:" in proc.stdout
    assert (ROOT / path).read_bytes() == before  # no --write: nothing written


# --------------------------------------------------------------------------- formatting kept


def test_variable_that_became_an_option_moves_into_each_launch_keeping_the_layout(tmp_path: Path) -> None:
    f = tmp_path / "ep.sh"
    f.write_text(
        "#!/bin/bash\n"
        "# expert parallel, two instances\n"
        'export VLLM_ALL2ALL_BACKEND="deepep_low_latency"  # decode-friendly\n'
        "export VLLM_RPC_TIMEOUT=600000\n"
        "CUDA_VISIBLE_DEVICES=0,1 vllm serve deepseek-ai/DeepSeek-V2-Lite \\\n"
        "    --port 8001 \\\n"
        "    --enable-expert-parallel \\\n"
        "    --tensor-parallel-size 2 &\n"
        "CUDA_VISIBLE_DEVICES=2,3 vllm serve deepseek-ai/DeepSeek-V2-Lite --port 8002 --enable-expert-parallel -tp 2 &\n"
        "wait\n"
    )
    u = upgrade([str(f)], "0.15.1", "0.33.0")
    assert u.run.files[0].after.decode() == (
        "#!/bin/bash\n"
        "# expert parallel, two instances\n"
        "CUDA_VISIBLE_DEVICES=0,1 vllm serve deepseek-ai/DeepSeek-V2-Lite \\\n"
        "    --port 8001 \\\n"
        "    --enable-expert-parallel \\\n"
        '    --all2all-backend "deepep_low_latency" \\\n'
        "    --tensor-parallel-size 2 &\n"
        "CUDA_VISIBLE_DEVICES=2,3 vllm serve deepseek-ai/DeepSeek-V2-Lite --port 8002 --enable-expert-parallel "
        '--all2all-backend "deepep_low_latency" -tp 2 &\n'
        "wait\n"
    )
    # one fix each, though both launches reported the variables
    assert sorted(i.message for i in u.migrated) == [
        "`VLLM_ALL2ALL_BACKEND` was removed in vllm 0.16.0",
        "`VLLM_RPC_TIMEOUT` was removed in vllm 0.23.0",
    ]
    assert u.not_migrated == []


def test_serve_config_yaml_keeps_its_comments_and_layout(tmp_path: Path) -> None:
    f = tmp_path / "serve.yaml"
    f.write_text(
        "# production config\n"
        "model: Qwen/Qwen2.5-7B-Instruct\n"
        "port: 8000   # behind the proxy\n"
        "disable-log-requests: true\n"
        'override_pooler_config: \'{"pooling_type": "MEAN"}\'\n'
        "max-model-len: 8192\n"
    )
    u = upgrade([str(f)], "0.11.2", "0.20.2")
    assert u.run.files[0].after.decode() == (
        "# production config\n"
        "model: Qwen/Qwen2.5-7B-Instruct\n"
        "port: 8000   # behind the proxy\n"
        'pooler_config: \'{"pooling_type": "MEAN"}\'\n'
        "max-model-len: 8192\n"
    )
    assert u.not_migrated == [] and len(u.migrated) == 2


def test_renamed_connector_and_removed_key_keep_the_quoting(tmp_path: Path) -> None:
    f = tmp_path / "kv.sh"
    f.write_text(
        "vllm serve m --kv-transfer-config "
        '\'{"kv_connector": "SharedStorageConnector", "kv_role": "kv_both", "kv_rank": 0,'
        ' "kv_connector_extra_config": {"shared_storage_path": "/tmp/kv"}}\'\n'
    )
    u = upgrade([str(f)], "0.12.0", "0.33.0")
    assert u.run.files[0].after.decode() == (
        "vllm serve m --kv-transfer-config "
        '\'{"kv_connector": "ExampleConnector", "kv_role": "kv_both", '
        '"kv_connector_extra_config": {"shared_storage_path": "/tmp/kv"}}\'\n'
    )


# --------------------------------------------------------------------------- the command


def _vcfg(*argv: str, cwd: Path = ROOT) -> Any:
    return run_vcfg("upgrade", *argv, cwd=cwd)


def test_upgrade_writes_only_with_write(tmp_path: Path) -> None:
    f = tmp_path / "run.sh"
    text = "export VLLM_USE_V1=1\nvllm serve m --port 8000\n"
    f.write_text(text)
    proc = _vcfg("--from", "0.10.2", "--to", "0.13.0", str(f))
    assert proc.returncode == 0 and f.read_text() == text
    assert "-export VLLM_USE_V1=1" in proc.stdout and "would rewrite 1 file (--write writes them)" in proc.stdout
    proc = _vcfg("--from", "0.10.2", "--to", "0.13.0", "--write", str(f))
    assert proc.returncode == 0 and f.read_text() == "vllm serve m --port 8000\n"
    assert "rewrote 1 file" in proc.stdout


def test_upgrade_needs_to_know_the_older_release(tmp_path: Path) -> None:
    f = tmp_path / "run.sh"
    f.write_text("vllm serve m\n")
    proc = _vcfg(str(f), cwd=tmp_path)
    assert proc.returncode == 2 and "pass --from VERSION" in proc.stderr
    proc = _vcfg("--from", "0.33.0", "--to", "0.20.2", str(f))
    assert proc.returncode == 2 and "not newer" in proc.stderr
    proc = _vcfg("--from", "0.99.0", str(f))
    assert proc.returncode == 2 and "no bundled catalog" in proc.stderr


def test_upgrade_json(tmp_path: Path) -> None:
    import json

    proc = _vcfg("--from", "0.13.0", "--to", "0.33.0", "--format", "json", "examples/pd-decode-p2p.sh")
    doc = json.loads(proc.stdout)
    assert doc["from"] == "0.13.0" and doc["to"] == "0.33.0"
    assert [i["code"] for i in doc["not_migrated"]] == ["VC027"]
    assert [a["name"] for a in doc["not_migrated"][0]["alternatives"]] == ["NixlConnector", "MooncakeConnector"]
    assert doc["diff"].startswith("--- a/examples/pd-decode-p2p.sh\n")


# --------------------------------------------------------------------------- other readers


MANIFEST = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.11.2
          command: ["vllm", "serve"]
          args:
            - Qwen/Qwen2.5-7B-Instruct
            - --disable-log-requests   # quiet
            - --override-pooler-config
            - '{"pooling_type": "MEAN"}'
            - --kv-transfer-config
            - '{"kv_connector":"SharedStorageConnector","kv_role":"kv_both"}'
"""


def test_kubernetes_args_are_migrated_as_list_items(tmp_path: Path) -> None:
    f = tmp_path / "deploy.yaml"
    f.write_text(MANIFEST)
    u = upgrade([str(f)], "0.11.2", "0.20.2")
    assert u.run.files[0].after.decode() == MANIFEST.replace(
        "            - --disable-log-requests   # quiet\n", ""
    ).replace("--override-pooler-config", "--pooler-config").replace("SharedStorageConnector", "ExampleConnector")
    assert u.not_migrated == [] and len(u.migrated) == 3


def test_compose_flow_list_loses_an_item_with_its_comma(tmp_path: Path) -> None:
    f = tmp_path / "compose.yaml"
    f.write_text(
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.11.2\n"
        '    command: ["Qwen/Qwen2.5-7B-Instruct", "--disable-log-requests", "--port", "8000"]\n'
    )
    u = upgrade([str(f)], "0.11.2", "0.20.2")
    assert (
        u.run.files[0].after.decode().splitlines()[-1] == '    command: ["Qwen/Qwen2.5-7B-Instruct", "--port", "8000"]'
    )


def test_markdown_code_block_is_migrated_as_a_script(tmp_path: Path) -> None:
    f = tmp_path / "README.md"
    f.write_text(
        "# Serving\n\nStart it:\n\n```bash\nexport VLLM_RPC_TIMEOUT=600000\n"
        "vllm serve Qwen/Qwen2.5-7B-Instruct \\\n    --disable-log-requests \\\n"
        '    --override-pooler-config \'{"pooling_type": "MEAN"}\'\n```\n'
    )
    u = upgrade([str(f)], "0.11.2", "0.23.0")
    assert u.run.files[0].after.decode() == (
        "# Serving\n\nStart it:\n\n```bash\n"
        "vllm serve Qwen/Qwen2.5-7B-Instruct \\\n"
        '    --pooler-config \'{"pooling_type": "MEAN"}\'\n```\n'
    )


def test_renamed_json_key_gets_its_new_name(tmp_path: Path) -> None:
    f = tmp_path / "cc.sh"
    f.write_text('vllm serve m --compilation-config \'{"level": 3, "cudagraph_capture_sizes": [1, 2, 4]}\'\n')
    u = upgrade([str(f)], "0.13.0", "0.33.0", report_defaults=False)
    assert (
        u.run.files[0].after.decode()
        == 'vllm serve m --compilation-config \'{"mode": 3, "cudagraph_capture_sizes": [1, 2, 4]}\'\n'
    )
    assert [(i.code, i.detail) for i in u.migrated] == [("VC023", "rename `level` to `mode`")]
    # not when the object sets the new key too: which one wins is for a person
    f.write_text('vllm serve m --compilation-config \'{"level": 3, "mode": 2}\'\n')
    u = upgrade([str(f)], "0.13.0", "0.33.0", report_defaults=False)
    assert u.migrated == [] and [i.code for i in u.not_migrated] == ["VC023"]


def test_kubernetes_env_entries_of_removed_variables_go_whole(tmp_path: Path) -> None:
    f = tmp_path / "deploy.yaml"
    head = MANIFEST.split("          args:")[0].replace("v0.11.2", "v0.20.2")
    f.write_text(
        head
        + (
            "          env:\n"
            "            - name: VLLM_RPC_TIMEOUT\n"
            '              value: "600000"\n'
            '            - {name: VLLM_USE_V1, value: "1"}\n'
            "            - name: HF_HOME\n"
            "              value: /data\n"
        )
    )
    u = upgrade([str(f)], "0.20.2", "0.33.0", report_defaults=False)
    assert u.run.files[0].after.decode() == head + (
        "          env:\n            - name: HF_HOME\n              value: /data\n"
    )
    assert sorted(i.message for i in u.migrated) == [
        "`VLLM_RPC_TIMEOUT` was removed in vllm 0.23.0",
        "`VLLM_USE_V1` was removed in vllm 0.11.1",
    ]


def test_a_variable_is_not_moved_into_a_launch_that_sets_the_option_itself(tmp_path: Path) -> None:
    f = tmp_path / "ep.sh"
    f.write_text(
        "export VLLM_ALL2ALL_BACKEND=pplx\n"
        "vllm serve m --port 8001 --enable-expert-parallel &\n"
        "vllm serve m --port 8002 --enable-expert-parallel --all2all-backend naive &\nwait\n"
    )
    u = upgrade([str(f)], "0.15.1", "0.33.0", report_defaults=False)
    assert u.migrated == [] and not u.run.files[0].changed
    assert [(i.code, i.line) for i in u.not_migrated] == [("VC103", 1)]
