"""`vcfg plan`: parallel layouts for a model on a number of GPUs, and each node's launch command."""

from __future__ import annotations

import sys
from typing import Optional

import click

from vcfg.cli.shared import echo_json, project_config
from vcfg.errors import EXIT_FINDINGS, EXIT_OK, VcfgError


@click.command("plan")
@click.option("--model", "model_dir", type=click.Path(), help="a local model directory (with config.json)")
@click.option("--model-config", "model_config", type=click.Path(), help="a config.json file")
@click.option("--gpus", type=int, help="how many GPUs in all (default: --nodes x --gpus-per-node)")
@click.option("--gpus-per-node", type=int, help="GPUs of each node: print each node's launch command")
@click.option("--pd", is_flag=True, help="with --gpus-per-node: prefill on half the nodes, decode on the rest")
@click.option(
    "--head-address",
    default="10.0.0.1",
    show_default=True,
    help="node 0's address in the printed commands (the others follow it)",
)
@click.option("--gpu-memory", help="memory of one GPU (default: the project's gpu-memory, else 141GiB)")
@click.option("--nodes", type=int, default=1, show_default=True, help="nodes the GPUs are spread over")
@click.option("--max-model-len", type=int, help="default: the model's limit from config.json")
@click.option("--kv-cache-dtype", default="auto", show_default=True)
@click.option("--gpu-memory-utilization", type=float, default=0.9, show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def plan_cmd(
    model_dir: Optional[str],
    model_config: Optional[str],
    gpus: Optional[int],
    gpus_per_node: Optional[int],
    pd: bool,
    head_address: str,
    gpu_memory: Optional[str],
    nodes: int,
    max_model_len: Optional[int],
    kv_cache_dtype: str,
    gpu_memory_utilization: float,
    fmt: str,
) -> None:
    """Tensor/pipeline/data/expert parallel layouts for a model on GPUS, with the
    memory each needs, ranked (see docs/plan.md).  Reads local files only.

    Exit 0 when a layout works, 1 when none does, 2 on bad input.
    """
    from vcfg.plan.layouts import PlanRequest, plan
    from vcfg.plan.memory import parse_size
    from vcfg.plan.model_facts import load_facts
    from vcfg.plan.render import render_json, render_text

    if gpus_per_node is not None:
        if gpus_per_node < 1:
            raise VcfgError(f"--gpus-per-node must be at least 1, got {gpus_per_node}")
        if gpus is not None and gpus != nodes * gpus_per_node:
            raise VcfgError(f"--gpus {gpus} is not --nodes {nodes} x --gpus-per-node {gpus_per_node}")
        gpus = nodes * gpus_per_node
    if gpus is None:
        raise VcfgError("give --gpus, or --nodes and --gpus-per-node")
    if pd and (gpus_per_node is None or nodes < 2):
        raise VcfgError("--pd needs --gpus-per-node and at least 2 nodes (prefill and decode nodes)")
    facts = load_facts(model=model_dir, config_file=model_config)
    project_memory = project_config().gpu_memory
    request = PlanRequest(
        gpus=gpus,
        gpu_memory=parse_size(gpu_memory) if gpu_memory else (project_memory or parse_size("141GiB")),
        nodes=nodes,
        max_model_len=max_model_len,
        kv_cache_dtype=kv_cache_dtype,
        gpu_memory_utilization=gpu_memory_utilization,
    )
    result = plan(facts, request)
    per_node = None
    if gpus_per_node is not None:
        from pathlib import Path

        from vcfg.plan.nodes import per_node_plan

        per_node = per_node_plan(
            facts,
            request,
            result,
            nodes,
            gpus_per_node,
            pd,
            head_address,
            model_dir or str(Path(model_config or ".").parent),
        )
    if fmt == "json":
        doc = render_json(result)
        if per_node is not None:
            doc["nodes"] = per_node.to_json()
        echo_json(doc)
    else:
        click.echo(render_text(result), nl=False)
        if per_node is not None:
            click.echo(per_node.text(), nl=False)
    ok = result.feasible and (per_node is None or per_node.launches)
    sys.exit(EXIT_OK if ok else EXIT_FINDINGS)
