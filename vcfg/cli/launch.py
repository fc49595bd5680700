"""`vcfg launch show`: what vcfg understood of a file: its launches, their arguments and environment."""

from __future__ import annotations

import json
from typing import Any, Optional

import click

from vcfg.cli.shared import Group, catalog_for
from vcfg.errors import VcfgError, write


@click.group(cls=Group)
def launch() -> None:
    """What vcfg understood of a launch script: launches, arguments, environment."""


def _release_catalog(inv: Any, cat: Any, version: Optional[str]) -> Any:
    """The catalog of the release a launch's image names, unless --vllm-version or the
    project config chose one."""
    from vcfg.launch.release import release_of

    if version:
        return cat
    from vcfg.lint.config import load_config

    if load_config().vllm_version:
        return cat
    rel = release_of(inv)
    if rel.version is None or rel.version == cat.vllm_version:
        return cat
    from vcfg.catalog import store

    try:
        return store.load(rel.version)[0]
    except VcfgError:  # older than every bundled catalog
        return cat


@launch.command("show")
@click.argument("path")
@click.option("--vllm-version", "version", help="resolve arguments against this release")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--why", is_flag=True, help="say which reader took the file and why, or why none did")
def launch_show(path: str, version: Optional[str], fmt: str, why: bool) -> None:
    """Every vLLM launch found in PATH, as vcfg (and vLLM) would see it."""
    from vcfg.launch.args import parse_invocation
    from vcfg.launch.model import SERVE, plan_to_json
    from vcfg.launch.read import choice_to_json, choose, describe_choice, read_bytes, read_plan
    from vcfg.launch.readers import ReadContext
    from vcfg.lint.deployment_view import launch_hosts

    cat = catalog_for(version, path)
    data = read_bytes(path)
    ctx = ReadContext(catalog=cat)
    choice = choose(path, data.decode("utf-8", "surrogateescape"), ctx, data[:256])
    if why:
        if fmt == "json":
            write(json.dumps(choice_to_json(choice), indent=2, ensure_ascii=False))
        else:
            write(describe_choice(choice))
        return
    plan = read_plan(path, data, ctx, choice)
    members, hosts = launch_hosts(path, cat.vllm_version)
    if fmt == "json":
        doc = plan_to_json(plan)
        doc["reader"] = choice_to_json(choice)
        for inv, out, (_, label, key) in zip(plan.invocations, doc["invocations"], hosts):
            if inv.kind == SERVE:
                out["parsed"] = parse_invocation(inv, _release_catalog(inv, cat, version), plan).to_json()
            out["host"] = {"key": key, "label": label}
        doc["deployment"] = members
        doc["vllm_version"] = cat.vllm_version
        from vcfg.render.json_ import dumps

        write(dumps(doc, indent=2))
        return
    from vcfg.launch.model import ENGINE_KINDS

    engines = sum(1 for inv in plan.invocations if inv.kind in ENGINE_KINDS)
    # `vcfg lint` counts the vLLM engines; the others here are proxies and benchmark clients
    of = f" ({engines} vLLM engine{'s' if engines != 1 else ''})" if engines != len(plan.invocations) else ""
    write(f"{path}: {len(plan.invocations)} launch(es){of}, checked against vllm {cat.vllm_version}")
    write("  " + describe_choice(choice, short=True))
    if len(members) > 1:
        write("deployment: " + ", ".join(members))
    for p in plan.problems:
        write(f"  problem {p.span.line}:{p.span.col}: {p.message}")
    from vcfg.launch.release import release_of

    for inv, (_, label, _) in zip(plan.invocations, hosts):
        bg = " (background)" if inv.background else ""
        lcat = _release_catalog(inv, cat, version)
        whence = "its image" if release_of(inv).pin is None else "the file's vllm== pin"
        on = f" (vllm {lcat.vllm_version}, from {whence})" if lcat is not cat else ""
        write(f"\nline {inv.span.line}: {inv.entrypoint}{bg}{on}")
        write(f"  host: {label}")
        if inv.wrappers:
            write("  started through: " + ", ".join(inv.wrappers))
        if inv.kind == SERVE:
            pa = parse_invocation(inv, lcat, plan)
            if pa.model is not None:
                write(f"  model: {pa.model.value if pa.model.known else '<unknown>'}")
            for ov in pa.occurrences:
                value = json.dumps(ov.value) if ov.known else "<unknown>"
                # `--no-enable-prefix-caching`, `--disable-log-requests`: the option sets
                # a field of another name; `= false` beside the option's own name misleads
                shown = ov.option if ov.option.lstrip("-").replace("-", "_") == ov.dest else f"{ov.option}: {ov.dest}"
                write(f"  {shown} = {value}" + ("" if ov.flag else "   (unknown option)"))
        else:
            write("  args: " + " ".join(w.text if w.text is not None else "<unknown>" for w in inv.args))
        env = inv.exported_env()
        if env:
            write(
                "  environment from the script: "
                + ", ".join(
                    f"{k}={b.value.text if b.value and b.value.text is not None else '<unknown>'}"
                    for k, b in sorted(env.items())
                )
            )
        unset = sorted(k for k, b in inv.env.items() if b.unset)
        if unset:
            write("  unset by the script: " + ", ".join(unset))
