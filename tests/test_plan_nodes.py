"""`vcfg plan --nodes N --gpus-per-node G [--pd]`: per-node launch commands, which lint
clean as one deployment (and the lint sees every node: a broken copy is caught)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from vcfg.cli.commands import main
from vcfg.lint.engine import lint_paths

FIX = Path(__file__).parent / "fixtures" / "plan"

CASES = [
    # model, nodes, gpus per node, --pd, extra options
    ("deepseek-v3", 2, 8, False, ["--max-model-len", "16384"]),
    ("deepseek-v3", 4, 8, True, ["--max-model-len", "16384"]),
    ("deepseek-v3.2", 3, 8, False, ["--max-model-len", "32768"]),
    ("qwen3-30b-a3b", 2, 4, False, ["--gpu-memory", "80GiB"]),
    ("qwen3-30b-a3b", 2, 2, True, ["--gpu-memory", "80GiB", "--max-model-len", "8192"]),
    ("llama-3.1-70b", 2, 2, False, ["--gpu-memory", "80GiB"]),
    ("llama-3.1-70b", 1, 8, False, []),
]


def plan_nodes(model, nodes, gpn, pd, extra):
    args = [
        "plan",
        "--model",
        str(FIX / model),
        "--nodes",
        str(nodes),
        "--gpus-per-node",
        str(gpn),
        "--format",
        "json",
        *extra,
    ] + (["--pd"] if pd else [])
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)["nodes"]


@pytest.mark.parametrize(
    "model,nodes,gpn,pd,extra", CASES, ids=[f"{c[0]}-{c[1]}x{c[2]}{'-pd' if c[3] else ''}" for c in CASES]
)
def test_per_node_commands_lint_clean(tmp_path, model, nodes, gpn, pd, extra):
    doc = plan_nodes(model, nodes, gpn, pd, extra)
    assert [x["node"] for x in doc["launches"]] == list(range(nodes))
    script = tmp_path / "deploy.sh"
    script.write_text(doc["script"])
    res = lint_paths([str(script)], "0.33.0")
    assert not res.internal_errors
    bad = [(d.code, d.span.line, d.message) for d in res.diagnostics if d.severity in ("error", "warning")]
    assert bad == []
    assert res.summary.launches == nodes  # every node's vllm serve was read
    flat = " ".join(c for x in doc["launches"] for c in x["commands"])
    if pd:
        assert "kv_producer" in flat and "kv_consumer" in flat and "toy_proxy_server.py" in flat
    if nodes > (2 if pd else 1):  # a group of several nodes: a head and headless nodes
        assert "--headless" in flat


def test_a_broken_copy_is_caught(tmp_path):
    """The lint of the plan's script sees the nodes together: two nodes given the same
    start rank, or a node pointed at another head, is found."""
    doc = plan_nodes("deepseek-v3.2", 3, 8, False, ["--max-model-len", "32768"])
    text = doc["script"]
    assert "--data-parallel-start-rank 16" in text
    script = tmp_path / "deploy.sh"
    script.write_text(text.replace("--data-parallel-start-rank 16", "--data-parallel-start-rank 8"))
    assert "VC308" in {d.code for d in lint_paths([str(script)], "0.33.0").diagnostics}
    script.write_text(
        text.replace(
            "--data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --data-parallel-start-rank 16",
            "--data-parallel-address 10.0.0.9 --data-parallel-rpc-port 13345 --data-parallel-start-rank 16",
        )
    )
    assert "VC307" in {d.code for d in lint_paths([str(script)], "0.33.0").diagnostics}


def test_text_output_and_errors():
    r = CliRunner().invoke(
        main,
        [
            "plan",
            "--model",
            str(FIX / "deepseek-v3"),
            "--nodes",
            "2",
            "--gpus-per-node",
            "8",
            "--max-model-len",
            "16384",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "per-node launch commands (2 nodes x 8 GPUs):" in r.output
    assert "  1)  # worker, 10.0.0.2" in r.output
    r = CliRunner().invoke(
        main, ["plan", "--model", str(FIX / "deepseek-v3"), "--nodes", "1", "--gpus-per-node", "8", "--pd"]
    )
    assert r.exit_code == 2 and "--pd needs" in r.output
    r = CliRunner().invoke(
        main, ["plan", "--model", str(FIX / "deepseek-v3"), "--nodes", "2", "--gpus-per-node", "8", "--gpus", "8"]
    )
    assert r.exit_code == 2 and "is not --nodes 2 x --gpus-per-node 8" in r.output
