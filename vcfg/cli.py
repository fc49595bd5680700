"""The command line: argv -> library calls -> render -> exit code; nothing else.

Exit codes: 0 ok, 1 findings, 2 usage or internal error.  A user mistake never shows
a traceback: library code raises `VcfgError`, which is printed as one line.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn, Optional

import click

from vcfg import __version__
from vcfg.errors import VcfgError

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def fail(message: str, hint: Optional[str] = None) -> NoReturn:
    click.echo(f"vcfg: error: {message}", err=True)
    if hint:
        click.echo(f"  hint: {hint}", err=True)
    sys.exit(EXIT_ERROR)


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


class _Group(click.Group):
    """Turns `VcfgError` into one line and exit 2; usage errors keep click's exit 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except VcfgError as e:
            fail(e.message, e.hint)
        except KeyboardInterrupt:
            fail("interrupted")
        except BrokenPipeError:
            sys.exit(EXIT_OK)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vcfg")
def main() -> None:
    """Validate and explain vLLM launch configurations, before launch."""


# ----------------------------------------------------------------------------- catalog


@main.group(cls=_Group)
def catalog() -> None:
    """Build, list, show and compare catalogs of vLLM releases."""


@catalog.command("build")
@click.option("--vllm-version", "version", help="a release number; downloaded if not cached")
@click.option("--source", "source", type=click.Path(), help="a vLLM source tree")
@click.option("--wheel", "wheel", type=click.Path(), help="a vLLM wheel file")
@click.option("-o", "--output", type=click.Path(), help="write the catalog JSON here")
def catalog_build(
    version: Optional[str], source: Optional[str], wheel: Optional[str], output: Optional[str]
) -> None:
    """Build a catalog from vLLM's source (installed vLLM when nothing is named)."""
    from vcfg.catalog import store
    from vcfg.catalog.build import build_catalog
    from vcfg.catalog.source import open_source

    if sum(x is not None for x in (source, wheel)) > 1:
        raise click.UsageError("give at most one of --source and --wheel")
    src = open_source(source=source, wheel=wheel, version=None if (source or wheel) else version)
    cat = build_catalog(src, version=version if (source or wheel) else None)
    text = store.dumps(cat)
    if output:
        store.write_text(output, text)
        click.echo(
            f"wrote {output}: vllm {cat.vllm_version}, {len(cat.flags)} flags, "
            f"{len(cat.env_vars)} env vars, {len(cat.configs)} config classes, "
            f"{len(cat.connectors)} connectors",
            err=True,
        )
    else:
        click.echo(text)


@catalog.command("list")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def catalog_list(fmt: str) -> None:
    """The bundled catalogs."""
    from vcfg.catalog import store

    versions = store.bundled_versions()
    if fmt == "json":
        echo_json(versions)
    else:
        for v in versions:
            click.echo(v)


@catalog.command("show")
@click.option("--vllm-version", "version", help="default: the newest bundled release")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def catalog_show(version: Optional[str], fmt: str) -> None:
    """Everything a catalog holds."""
    from vcfg.catalog import store

    cat, note = store.load(version)
    if note:
        click.echo(f"note: {note}", err=True)
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

    a, note_a = store.load(old)
    b, note_b = store.load(new)
    for note in (note_a, note_b):
        if note:
            click.echo(f"note: {note}", err=True)
    d = diff_catalogs(a, b, history=store.history_between(a.vllm_version, b.vllm_version))
    if fmt == "json":
        echo_json(d.to_json())
    else:
        click.echo(render_diff(d))


# --------------------------------------------------------------------- other commands
# (bench, launch, lint, explain, schema: added by their issues, below this line)
