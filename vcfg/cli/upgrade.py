"""`vcfg upgrade`: launches written for one release rewritten for another."""

from __future__ import annotations

import sys
from typing import Optional

import click

from vcfg.errors import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, print_error


@click.command("upgrade")
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "--from",
    "old",
    help="the release the files were written for (default: the one in effect "
    "for them: the project config's, else the installed vLLM's)",
)
@click.option("--to", "new", help="the release to migrate to (default: the newest bundled)")
@click.option("--write", is_flag=True, help="write the migrated files (default: print the diff only)")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="a .vcfg.toml or pyproject.toml")
@click.option("--knowledge", "knowledge", multiple=True, type=click.Path(), help="extra knowledge packs")
def upgrade_cmd(
    paths: tuple[str, ...],
    old: Optional[str],
    new: Optional[str],
    write: bool,
    fmt: str,
    config_path: Optional[str],
    knowledge: tuple[str, ...],
) -> None:
    """Rewrite launches for a newer vLLM: renamed and removed flags, variables that became
    flags, renamed connectors and JSON keys.  Prints a diff and what it could not migrate;
    exit 1 when something could not be migrated."""
    from pathlib import Path

    from vcfg.lint.config import load_config
    from vcfg.upgrade.migrate import resolve_versions, upgrade
    from vcfg.upgrade.report import render_json, render_text

    first = Path(paths[0])
    config = (
        load_config(explicit=Path(config_path))
        if config_path
        else load_config(first.resolve() if first.is_dir() else first.resolve().parent)
    )
    old, new = resolve_versions(old, new, config, paths)
    u = upgrade(list(paths), old, new, config=config, knowledge_dirs=[Path(k) for k in knowledge])
    problems: list[str] = []
    if write:
        from vcfg.fix.run import write_files

        problems = write_files(u.run)
    click.echo(render_json(u) if fmt == "json" else render_text(u, written=write and not problems))
    for p in problems:
        print_error(p)
    sys.exit(EXIT_ERROR if problems else (EXIT_FINDINGS if u.not_migrated else EXIT_OK))
