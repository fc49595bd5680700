"""`vcfg schema` and `vcfg init-editor`: JSON Schemas of a release, and the editor settings that point at them."""

from __future__ import annotations

import sys
from typing import Optional

import click

from vcfg.cli.shared import echo_json, project_version
from vcfg.errors import EXIT_FINDINGS, EXIT_OK


@click.command("schema")
@click.argument("kind")
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option(
    "--catalog",
    "catalog_file",
    type=click.Path(exists=True, dir_okay=False),
    help="use this catalog JSON (from `vcfg catalog build -o`) instead of a bundled one",
)
@click.option("--strict", is_flag=True, help="reject unknown keys where vLLM rejects them")
@click.option("--draft", type=click.Choice(["07", "2020-12"]), default="07", show_default=True)
@click.option(
    "--vllm-source",
    type=click.Path(exists=True),
    help="add vLLM's own help texts, read from this vLLM source tree or wheel",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="write here, not stdout")
def schema_cmd(
    kind: str,
    version: Optional[str],
    catalog_file: Optional[str],
    strict: bool,
    draft: str,
    vllm_source: Optional[str],
    output: Optional[str],
) -> None:
    """JSON Schema of KIND: serve (the --config YAML), kv-transfer-config, env, or a
    config class name such as CompilationConfig."""
    from vcfg.catalog import store
    from vcfg.schema.api import load_catalog, make_schema
    from vcfg.schema.common import dumps

    cat, note = load_catalog(project_version(version) if not catalog_file else version, catalog_file)
    if note:
        click.echo(f"note: {note}", err=True)
    text = dumps(make_schema(kind, cat, strict=strict, draft=draft, vllm_source=vllm_source))
    if output:
        store.write_text(output, text)
        click.echo(f"wrote {output} ({len(text) // 1024} KiB, vllm {cat.vllm_version})", err=True)
    else:
        click.echo(text, nl=False)


@click.command("init-editor")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option(
    "--kind",
    type=click.Choice(["serve", "kv-transfer-config", "env"]),
    help="default: serve for YAML files, kv-transfer-config for JSON files",
)
@click.option("--strict", is_flag=True, help="use the strict schemas")
@click.option(
    "--schema-dir",
    default=".vcfg/schemas",
    show_default=True,
    help="where the schema files the modelines point to are written",
)
@click.option("--url", "base_url", help="point at schemas published under this URL; write none")
@click.option("--vscode", is_flag=True, help="print VS Code settings instead of editing files")
@click.option("--force", is_flag=True, help="replace a modeline that names another schema")
def init_editor_cmd(
    files: tuple[str, ...],
    version: Optional[str],
    kind: Optional[str],
    strict: bool,
    schema_dir: str,
    base_url: Optional[str],
    vscode: bool,
    force: bool,
) -> None:
    """Point editors at vcfg's schemas: a `# yaml-language-server: $schema=` line at the
    top of each YAML file (nothing else changes), or VS Code settings to paste.

    Exit 1 when a file already names another schema (see --force).
    """
    from vcfg.schema.api import load_catalog, make_schema
    from vcfg.schema.editor import init_editor

    cat, note = load_catalog(project_version(version, files[0] if files else None))
    if note:
        click.echo(f"note: {note}", err=True)
    result = init_editor(
        list(files),
        cat.vllm_version,
        lambda k, s: make_schema(k, cat, strict=s),
        kind=kind,
        strict=strict,
        schema_dir=schema_dir,
        base_url=base_url,
        vscode=vscode,
        force=force,
    )
    for line in result.actions:
        click.echo(line, err=True)
    for line in result.conflicts:
        click.echo(f"skipped {line}; use --force to replace it", err=True)
    if result.settings:
        click.echo("add to .vscode/settings.json:", err=True)
        echo_json(result.settings)
    sys.exit(EXIT_FINDINGS if result.conflicts else EXIT_OK)
