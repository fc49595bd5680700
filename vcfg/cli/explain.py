"""`vcfg explain` and `vcfg connectors`: what a topic is and where vLLM defines it; a release's KV connectors."""

from __future__ import annotations

from typing import Optional

import click

from vcfg.cli.shared import catalog_for, echo_json, project_config, project_version

#: ``--plugin NAME`` (repeatable), shared by `connectors` and `explain`
_plugins_option = click.option(
    "--plugin",
    "plugins",
    multiple=True,
    metavar="NAME",
    help="a vLLM plugin the launches run with (vllm-ascend); default: the project's `plugins`",
)


@click.command("connectors")
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@_plugins_option
def connectors_cmd(version: Optional[str], fmt: str, plugins: tuple[str, ...]) -> None:
    """The KV connector registry of a release, plugin connectors included."""
    from vcfg.catalog.knowledge import load_packs
    from vcfg.catalog.plugins import find
    from vcfg.explain.connectors import connector_rows, render_text

    cat = catalog_for(version)
    config = project_config()
    named = [find(p) for p in (list(plugins) or config.plugins)]
    rows = connector_rows(cat, load_packs(config.knowledge), named)
    if fmt == "json":
        echo_json({"vllm_version": cat.vllm_version, "connectors": rows})
    else:
        click.echo(render_text(cat, rows, markdown=fmt == "markdown"))


@click.command(
    "explain",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": True},
)
@click.argument("topic")
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@click.option("--no-help-text", is_flag=True, help="skip vLLM's own description")
@_plugins_option
def explain_cmd(topic: str, version: Optional[str], fmt: str, no_help_text: bool, plugins: tuple[str, ...]) -> None:
    """What TOPIC is, where vLLM defines it, how it flows, and its history.

    TOPIC: a flag (--kv-transfer-config, -tp), a variable (VLLM_RPC_TIMEOUT), a config
    field (KVTransferConfig.kv_role, kv_role) or class, a connector (NixlConnector),
    a plugin variable (FLAGCX_PATH) or a rule code (VC001).
    """
    from vcfg.explain import explain
    from vcfg.explain.render import render

    config = project_config()
    doc = explain(
        topic,
        project_version(version),
        with_help=not no_help_text,
        knowledge_dirs=config.knowledge,
        plugins=list(plugins) or config.plugins,
    )
    if fmt == "json":
        echo_json(doc)
    else:
        from vcfg.render.full import use_colour

        click.echo(render(doc, markdown=fmt == "markdown", colour=fmt == "text" and use_colour()))
