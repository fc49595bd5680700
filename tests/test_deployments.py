"""Deployments (vcfg/lint/deployments.py): which files the run rules judge together, and
why the findings never depend on which files are linted together, or in which order."""

from __future__ import annotations

import json
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vcfg.lint.config import load_config
from vcfg.lint.engine import lint_paths

V = "0.33.0"


def nixl(role):
    return f'\'{{"kv_connector":"NixlConnector","kv_role":"{role}"}}\''


def write(tmp_path, files):
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def findings(tmp_path, names, config=None, errors_only=True):
    res = lint_paths([str(tmp_path / n) for n in names], V, config=config or load_config(tmp_path))
    assert not res.internal_errors, res.internal_errors
    return sorted(
        (d.span.file.rsplit("/", 1)[-1], d.code, d.span.line, d.span.col)
        for d in res.diagnostics
        if not errors_only or d.severity in ("error", "warning")
    )


PROXY_1P1D = f"""\
CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 \\
  --kv-transfer-config {nixl("kv_producer")} &
CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 \\
  --kv-transfer-config {nixl("kv_consumer")} &
python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200
"""
UNRELATED_PRODUCER = f"CUDA_VISIBLE_DEVICES=2 vllm serve m --port 9100 --kv-transfer-config {nixl('kv_producer')}\n"


def test_an_unrelated_file_changes_nothing(tmp_path):
    # the first example: p.sh is clean alone; q.sh (a producer of some other
    # deployment) linted beside it used to make a role error out of the pooled run
    write(tmp_path, {"p.sh": PROXY_1P1D, "q.sh": UNRELATED_PRODUCER})
    assert findings(tmp_path, ["p.sh"]) == []
    assert findings(tmp_path, ["p.sh", "q.sh"]) == []
    assert findings(tmp_path, ["q.sh", "p.sh"]) == []


def test_an_unrelated_file_does_not_hide_a_proxy_finding(tmp_path):
    bad = PROXY_1P1D.replace("--decoder-ports 8200", "--decoder-ports 8300")
    other = "CUDA_VISIBLE_DEVICES=3 vllm serve m --port 8300\n"
    write(tmp_path, {"p.sh": bad, "other.sh": other})
    alone = findings(tmp_path, ["p.sh"])
    assert alone == [("p.sh", "VC305", 5, bad.splitlines()[4].index("8300") + 1)]
    assert findings(tmp_path, ["p.sh", "other.sh"]) == alone


def test_a_configured_deployment_is_judged_whole_from_any_member(tmp_path):
    p = f"CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100 --kv-transfer-config {nixl('kv_producer')}\n"
    d = f"CUDA_VISIBLE_DEVICES=0 vllm serve m2 --port 8200 --kv-transfer-config {nixl('kv_consumer')}\n"
    write(tmp_path, {"ops/prefill.sh": p, "ops/decode.sh": d, ".vcfg.toml": '[deployments.pd]\nfiles = ["ops/*.sh"]\n'})
    expected = [("decode.sh", "VC303", 1, d.index("m2") + 1)]
    assert findings(tmp_path, ["ops/decode.sh"]) == expected  # prefill.sh read as context
    assert findings(tmp_path, ["ops/prefill.sh"]) == []  # the finding is decode.sh's
    assert findings(tmp_path, ["ops/prefill.sh", "ops/decode.sh"]) == expected


def test_configured_hosts_decide_port_collisions(tmp_path):
    a = "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8100\n"
    b = "CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8100\n"
    write(tmp_path, {"a.sh": a, "b.sh": b})
    both = '[deployments.x]\nfiles = ["a.sh", "b.sh"]\n'
    (tmp_path / ".vcfg.toml").write_text(both)  # unnamed hosts: each file its own machine
    assert findings(tmp_path, ["a.sh", "b.sh"]) == []
    (tmp_path / ".vcfg.toml").write_text(both + 'hosts = { "a.sh" = "gpu-1", "b.sh" = "gpu-1" }\n')
    assert findings(tmp_path, ["a.sh", "b.sh"]) == [("b.sh", "VC302", 1, b.index("8100") + 1)]
    (tmp_path / ".vcfg.toml").write_text(both + 'hosts = { "a.sh" = "gpu-1", "b.sh" = "gpu-2" }\n')
    assert findings(tmp_path, ["a.sh", "b.sh"]) == []


def test_a_proxy_reaches_a_server_by_its_configured_host_name(tmp_path):
    prefill = f"VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 --kv-transfer-config {nixl('kv_producer')}\n"
    decode = f"VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8200 --kv-transfer-config {nixl('kv_producer')}\n"
    proxy = (
        "python3 toy_proxy_server.py --port 8000 --prefiller-hosts 10.0.0.1 --prefiller-ports 8100 "
        "--decoder-hosts 10.0.0.2 --decoder-ports 8200\n"
    )
    write(
        tmp_path,
        {
            "prefill.sh": prefill,
            "decode.sh": decode,
            "proxy.sh": proxy,
            ".vcfg.toml": (
                '[deployments.pd]\nfiles = ["*.sh"]\nhosts = { "prefill.sh" = "10.0.0.1", "decode.sh" = "10.0.0.2" }\n'
            ),
        },
    )
    # the proxy sends decodes to decode.sh's host, whose role is a producer
    got = findings(tmp_path, ["decode.sh", "prefill.sh", "proxy.sh"])
    assert got == [("decode.sh", "VC301", 1, decode.index('"kv_producer"') + 1)]
    # an upstream whose host is the caller's variable names no server: nothing is judged
    write(tmp_path, {"proxy.sh": proxy.replace("10.0.0.2", "$DECODE_HOST")})
    assert findings(tmp_path, ["decode.sh", "prefill.sh", "proxy.sh"]) == []


def test_a_started_script_joins_its_starter(tmp_path):
    run = "bash prefill.sh &\n./decode.sh &\npython3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200\n"
    prefill = f"CUDA_VISIBLE_DEVICES=0 VLLM_NIXL_SIDE_CHANNEL_PORT=5600 vllm serve m --port 8100 --kv-transfer-config {nixl('kv_producer')}\n"
    decode = f"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --kv-transfer-config {nixl('kv_producer')}\n"
    write(tmp_path, {"run.sh": run, "prefill.sh": prefill, "decode.sh": decode})
    wrong = [("decode.sh", "VC301", 1, decode.index('"kv_producer"') + 1)]
    assert findings(tmp_path, ["decode.sh"]) == wrong  # run.sh beside it starts it
    assert findings(tmp_path, ["run.sh"]) == []  # decode.sh's finding is its own
    assert findings(tmp_path, ["run.sh", "decode.sh", "prefill.sh"]) == wrong
    # the started scripts run on the starter's machine: their default ports meet
    write(
        tmp_path,
        {"prefill.sh": prefill.replace("5600", "5601"), "decode.sh": decode.replace("kv_producer", "kv_consumer")},
    )
    assert [f[:2] for f in findings(tmp_path, ["decode.sh", "prefill.sh"])] == [("prefill.sh", "VC302")]


def test_a_starter_in_the_parent_folder_is_found_and_other_scripts_are_not_parsed(tmp_path):
    import os

    from vcfg.lint import deployments

    decode = f"CUDA_VISIBLE_DEVICES=1 VLLM_NIXL_SIDE_CHANNEL_PORT=5601 vllm serve m --port 8200 --kv-transfer-config {nixl('kv_producer')}\n"
    prefill = decode.replace("DEVICES=1", "DEVICES=0").replace("5601", "5600").replace("8200", "8100")
    files = {
        "run.sh": "bash nodes/prefill.sh &\n./nodes/decode.sh &\n"
        "python3 toy_proxy_server.py --port 8000 --prefiller-ports 8100 --decoder-ports 8200\n",
        "nodes/decode.sh": decode,
        "nodes/prefill.sh": prefill,
        # scripts beside it and in the parent that name other files (or nothing)
        **{f"other{i}.sh": f"bash ./setup{i}.sh\nsource env{i}.sh\necho done\n" for i in range(5)},
        **{f"nodes/tool{i}.sh": f"python3 tool{i}.py --port 9{i}00\n" for i in range(3)},
    }
    write(tmp_path, files)
    for name in files:  # older than the two seconds a just-changed file is not kept for
        os.utime(tmp_path / name, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    # a script nothing starts: one file name is asked of its folder and the parent, and
    # the scripts whose text does not hold it are not worked through by the pattern
    # (a substring test, remembered per path, mtime and size)
    assert findings(tmp_path, ["nodes/tool0.sh"]) == []
    other = str(tmp_path / "other0.sh")
    assert not [k for k in deployments._ON_DISK if k[0] == other]
    assert [v for k, v in deployments._LACKS.items() if k[0] == other] == [{b"tool0.sh"}]
    # run.sh in the parent folder starts decode.sh and sends decode requests to its
    # kv_producer; joining run.sh asks a second name, so every script's names are
    # worked out once
    assert [f[:2] for f in findings(tmp_path, ["nodes/decode.sh"])] == [("decode.sh", "VC301")]
    assert [k for k in deployments._ON_DISK if k[0] == other]
    assert [f[:2] for f in findings(tmp_path, ["nodes/decode.sh", "nodes/prefill.sh"])] == [("decode.sh", "VC301")]


def test_a_sourced_file_joins_too(tmp_path):
    write(
        tmp_path,
        {
            "main.sh": "source ./common.sh\nCUDA_VISIBLE_DEVICES=1 vllm serve m --port 8000 &\n",
            "common.sh": "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8000 &\n",
        },
    )
    assert [f[:2] for f in findings(tmp_path, ["main.sh"])] == [("main.sh", "VC302")]
    assert findings(tmp_path, ["common.sh"]) == []


def test_a_kustomization_groups_its_resources(tmp_path):
    def svc(port_env):
        return f"""\
apiVersion: v1
kind: Pod
metadata: {{name: x}}
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.33.0
    args: ["m", "--kv-transfer-config", '{{"kv_connector":"NixlConnector","kv_role":"{port_env}"}}']
"""

    write(
        tmp_path,
        {
            "k/prefill.yaml": svc("kv_producer"),
            "k/decode.yaml": svc("kv_producer"),
            "k/kustomization.yaml": "resources:\n- prefill.yaml\n- decode.yaml\n",
        },
    )
    # two producers, no consumer: reported on the later file by path
    alone = findings(tmp_path, ["k/prefill.yaml"])
    assert [f[:2] for f in alone] == [("prefill.yaml", "VC301")]
    assert findings(tmp_path, ["k/decode.yaml"]) == []
    assert findings(tmp_path, ["k/prefill.yaml", "k/decode.yaml"]) == alone
    (tmp_path / "k/kustomization.yaml").write_text("resources:\n- prefill.yaml\n")
    assert findings(tmp_path, ["k/prefill.yaml"]) == []


def test_launch_show_prints_hosts(tmp_path):
    write(
        tmp_path,
        {
            "run.sh": "bash decode.sh &\n",
            "decode.sh": "vllm serve m --port 8200 &\ndocker run vllm/vllm-openai --model m &\n",
        },
    )
    out = subprocess.run(
        [sys.executable, "-m", "vcfg", "launch", "show", "decode.sh", "--vllm-version", V, "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["deployment"] == ["decode.sh", "run.sh"]
    hosts = [i["host"]["key"] for i in doc["invocations"]]
    assert hosts[0] == "file:run.sh" and hosts[1].startswith("own:")
    text = subprocess.run(
        [sys.executable, "-m", "vcfg", "launch", "show", "decode.sh", "--vllm-version", V],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    ).stdout
    assert "host: the machine running run.sh" in text and "host: its own container" in text


def test_a_malformed_deployments_table_is_a_clear_error(tmp_path):
    from vcfg.errors import VcfgError

    (tmp_path / ".vcfg.toml").write_text('[deployments.x]\nfile = ["a.sh"]\n')
    try:
        load_config(tmp_path)
    except VcfgError as e:
        assert "unknown key(s) file" in e.message
    else:
        raise AssertionError("no error")


# --------------------------------------------------------------------------- property

#: a project of one folder: a proxy deployment, a started pair, a configured pair that
#: disagrees, unrelated files; each file has a finding only when judged with the others
PROJECT = {
    "p.sh": PROXY_1P1D.replace("--decoder-ports 8200", "--decoder-ports 8300"),
    "q.sh": UNRELATED_PRODUCER,
    "run.sh": "bash a.sh &\nbash b.sh &\n",
    "a.sh": "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 7000 &\n",
    "b.sh": "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 7000 &\n",
    "pre.sh": f"CUDA_VISIBLE_DEVICES=4 vllm serve m --port 8100 --kv-transfer-config {nixl('kv_producer')}\n",
    "dec.sh": f"CUDA_VISIBLE_DEVICES=5 vllm serve m2 --port 8200 --kv-transfer-config {nixl('kv_consumer')}\n",
    "lone.sh": f"CUDA_VISIBLE_DEVICES=6 vllm serve m --port 8400 --kv-transfer-config {nixl('kv_consumer')}\n",
    "serve.yaml": "model: m\nport: 8100\n",
    ".vcfg.toml": '[deployments.pd]\nfiles = ["pre.sh", "dec.sh"]\n',
}
NAMES = sorted(n for n in PROJECT if not n.startswith("."))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations(NAMES), cuts=st.lists(st.integers(1, len(NAMES) - 1), max_size=4, unique=True))
def test_findings_do_not_depend_on_order_or_batching(tmp_path, order, cuts):
    write(tmp_path, PROJECT)
    config = load_config(tmp_path)
    whole = findings(tmp_path, NAMES, config, errors_only=False)
    # the project has cross-file findings, so the property is not vacuous
    assert {f[:2] for f in whole} >= {("p.sh", "VC305"), ("b.sh", "VC302"), ("b.sh", "VC306"), ("dec.sh", "VC303")}
    bounds = [0, *sorted(cuts), len(order)]
    batches = [order[a:b] for a, b in zip(bounds, bounds[1:])]
    split = sorted(f for batch in batches for f in findings(tmp_path, batch, config, errors_only=False))
    assert split == whole


HELM_VALUES = """\
servingEngineSpec:
  modelSpec:
  - name: "llama3"
    repository: "vllm/vllm-openai"
    tag: "v0.10.0"
    modelURL: "meta-llama/Llama-3.1-8B-Instruct"
    requestGPU: 1
    vllmConfig:
      maxModelLen: 4096
"""


def test_a_launch_from_chart_values_runs_in_its_own_pod(tmp_path):
    """production-stack values start a pod: not the machine that runs the values file,
    so a script's server on port 8000 of the host named for both files is no collision."""
    write(tmp_path, {"values.yaml": HELM_VALUES, "a.sh": "CUDA_VISIBLE_DEVICES=0 vllm serve m --port 8000\n"})
    both = '[deployments.x]\nfiles = ["a.sh", "values.yaml"]\nhosts = { "a.sh" = "gpu-1", "values.yaml" = "gpu-1" }\n'
    (tmp_path / ".vcfg.toml").write_text(both)
    assert findings(tmp_path, ["a.sh", "values.yaml"]) == []
    # the same launch in a script on that host collides
    (tmp_path / "b.sh").write_text("CUDA_VISIBLE_DEVICES=1 vllm serve m --port 8000\n")
    (tmp_path / ".vcfg.toml").write_text(both.replace('"values.yaml"', '"b.sh"'))
    assert [f[:2] for f in findings(tmp_path, ["a.sh", "b.sh"])] == [("b.sh", "VC302")]
    text = subprocess.run(
        [sys.executable, "-m", "vcfg", "launch", "show", "values.yaml", "--vllm-version", V],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    ).stdout
    assert "read as helm-values" in text and "host: its own container" in text, text
    assert "machine running" not in text


def test_every_source_kind_has_a_host():
    """Each kind of file a reader returns says where its launches run (a new reader
    that forgot would put its containers on the machine running the file)."""
    import pathlib
    import re

    from vcfg.lint.rules._hosts import HOST_OF_KIND

    root = pathlib.Path(__file__).resolve().parents[1] / "vcfg"
    kinds = {k for p in root.rglob("*.py") for k in re.findall(r'source_kind="([a-z-]+)"', p.read_text())}
    assert "helm-values" in kinds and "markdown" in kinds and len(kinds) >= 12, kinds
    assert kinds <= set(HOST_OF_KIND), kinds - set(HOST_OF_KIND)
    assert set(HOST_OF_KIND.values()) == {"file", "container"}
