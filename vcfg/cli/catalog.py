"""`vcfg catalog`: build, list, show and diff the catalogs of vLLM releases (and plugin overlays)."""

from __future__ import annotations

from typing import Optional

import click

from vcfg.cli.shared import Group, catalog_for, echo_json


@click.group(cls=Group)
def catalog() -> None:
    """Build, list, show and compare catalogs of vLLM releases."""


@catalog.command("build")
@click.option("--vllm-version", "version", help="a release number; downloaded if not cached")
@click.option(
    "--source", "source", type=click.Path(), help="a vLLM source tree, git checkout or source tarball (.tar.gz)"
)
@click.option("--wheel", "wheel", type=click.Path(), help="a vLLM wheel file")
@click.option(
    "--plugin",
    "plugin",
    metavar="SPEC",
    help="a plugin's overlay instead: NAME==VERSION (downloaded), its wheel, sdist or folder",
)
@click.option(
    "-o", "--output", type=click.Path(), help="write the catalog here ('-' for stdout) instead of vcfg's cache"
)
def catalog_build(
    version: Optional[str],
    source: Optional[str],
    wheel: Optional[str],
    plugin: Optional[str],
    output: Optional[str],
) -> None:
    """Build a catalog from vLLM's source (the installed vLLM when nothing is named).

    Without -o the catalog goes to vcfg's cache, where lint, explain and schema find it
    by its version.  With --plugin, the overlay of a vLLM plugin (its variables,
    connectors and entry points), which lint uses when the plugin is named.
    """
    from vcfg.catalog import store
    from vcfg.catalog.extract.build import build_catalog
    from vcfg.catalog.extract.source import open_source

    if sum(bool(x) for x in (source, wheel, plugin)) > 1:
        raise click.UsageError("give at most one of --source, --wheel and --plugin")
    if plugin:
        _build_plugin(plugin, output)
        return
    src = open_source(source=source, wheel=wheel, version=None if (source or wheel) else version)
    cat = build_catalog(src, version=version if (source or wheel) else None)
    if (source or wheel) and not version and not src.version:
        click.echo(
            f"note: {src.description} names no version; built as {cat.vllm_version}, after every "
            "bundled release (pass --vllm-version to name it)",
            err=True,
        )
    label = f" ({cat.label})" if cat.label else ""
    summary = (
        f"vllm {cat.vllm_version}{label}: {len(cat.flags)} flags, {len(cat.env_vars)} env vars, "
        f"{len(cat.configs)} config classes, {len(cat.connectors)} connectors"
    )
    if output == "-":
        click.echo(store.dumps(cat, indent=2))
        return
    if output:
        store.write_text(output, store.dumps(cat, indent=2))
        click.echo(f"wrote {output}: {summary}", err=True)
    else:
        path = store.save_user_catalog(cat)
        click.echo(f"wrote {path}: {summary}", err=True)


def _build_plugin(spec: str, output: Optional[str]) -> None:
    from pathlib import Path

    from vcfg.catalog import plugins, store
    from vcfg.catalog.extract.plugin import build_plugin_catalog_from

    pc = build_plugin_catalog_from(spec)
    text = plugins.dumps(pc)
    summary = (
        f"{pc.label}: {len(pc.env_vars)} env vars, {len(pc.connectors)} connectors, "
        f"entry points {', '.join(pc.entry_names)}"
    )
    if output == "-":
        click.echo(text, nl=False)
        return
    path = Path(output) if output else plugins.user_dir() / f"{pc.name}-{pc.version}.json"
    store.write_text(path, text)
    plugins.clear_cache()
    click.echo(f"wrote {path}: {summary}", err=True)


@catalog.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--plugins", "only_plugins", is_flag=True, help="list the plugin overlays only")
def catalog_list(fmt: str, only_plugins: bool) -> None:
    """The bundled catalogs, then the plugin overlays (bundled and built) that a
    launch naming the plugin lays over its release."""
    from vcfg.catalog import plugins, store

    overlays = [
        {"name": n, "version": v, "origin": "bundled" if p.parent == plugins.BUNDLED_DIR else "built", "path": str(p)}
        for n, v, p in plugins.available()
    ]
    if fmt == "json":
        # the releases' list is the contract; the overlays are asked for with --plugins
        echo_json(overlays if only_plugins else store.bundled_versions())
        return
    if not only_plugins:
        for v in store.bundled_versions():
            click.echo(v)
        if overlays:
            click.echo("\nplugin overlays (laid over the release when a launch names the plugin):")
    for o in overlays:
        click.echo(f"{'' if only_plugins else '  '}{o['name']} {o['version']} ({o['origin']}: {o['path']})")


@catalog.command("show")
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def catalog_show(version: Optional[str], fmt: str) -> None:
    """Everything a catalog holds."""
    from vcfg.catalog import store

    cat = catalog_for(version)
    if fmt == "json":
        click.echo(store.dumps(cat, indent=2))
        return
    from vcfg.catalog.text import render_catalog

    click.echo(render_catalog(cat))


@catalog.command("diff")
@click.argument("old")
@click.argument("new")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def catalog_diff(old: str, new: str, fmt: str) -> None:
    """What changed between two releases: flags, variables, fields, connectors."""
    from vcfg.catalog import store
    from vcfg.catalog.diff import diff_catalogs, render_diff

    a, b = catalog_for(old), catalog_for(new)
    d = diff_catalogs(a, b, history=store.history_between(a.vllm_version, b.vllm_version))
    if fmt == "json":
        echo_json(d.to_json())
    else:
        click.echo(render_diff(d))
