"""What the click commands share: the group class that turns errors into one line and an
exit code, the project's config and release, its catalog, and JSON output."""

from __future__ import annotations

import sys
from typing import Any, Optional

import click

from vcfg.errors import exit_code_for


def project_config(start: Optional[str] = None) -> Any:
    """The project's ``[tool.vcfg]`` (or ``.vcfg.toml``) nearest ``start`` (a file or
    folder; default: the working directory), as `vcfg lint` finds it."""
    from pathlib import Path

    from vcfg.lint.config import load_config

    folder = None
    if start:
        p = Path(start)
        folder = p if p.is_dir() else p.parent
        if not folder.is_dir():
            folder = None
    return load_config(folder)


def project_version(version: Optional[str], start: Optional[str] = None) -> Optional[str]:
    """``--vllm-version`` if given, else the project's ``vllm-version`` (every command
    targets the release `vcfg lint` does), else None (the newest bundled)."""
    return version or project_config(start).vllm_version


def catalog_for(version: Optional[str], start: Optional[str] = None) -> Any:
    """The catalog for ``version`` (else the project's release); a note on stderr when
    it is another release's."""
    from vcfg.catalog import store

    cat, note = store.load(project_version(version, start))
    if note:
        click.echo(f"note: {note}", err=True)
    return cat


def echo_json(value: Any) -> None:
    from vcfg.render.json_ import dumps

    click.echo(dumps(value, indent=2))


class Group(click.Group):
    """Turns `VcfgError` into one line and exit 2; usage errors keep click's exit 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException):
            raise
        except (Exception, KeyboardInterrupt) as e:  # the same lines and codes as `vcfg lint`
            sys.exit(exit_code_for(e))
