"""The click group: every command but `vcfg lint` (`vcfg/cli/lint.py`), which it forwards.

Each command (or command group) is its own module in `vcfg/cli/`, named for it;
this module puts them under one ``vcfg`` group.  Exit codes: 0 ok, 1 findings, 2
usage or internal error.  A user mistake never shows a traceback: library code
raises `VcfgError`, which is printed as one line (`vcfg.cli.shared.Group`).
"""

from __future__ import annotations

import sys

import click

from vcfg import __version__
from vcfg.cli import bench, catalog, explain, launch, plan, schema, upgrade
from vcfg.cli.shared import Group


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="vcfg")
def main() -> None:
    """Validate and explain vLLM launch configurations, before launch."""


@main.command(
    "lint",
    add_help_option=False,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def lint_cmd(args: tuple[str, ...]) -> None:
    """Lint launch scripts and `vllm serve --config` YAML files (`vcfg lint --help`)."""
    from vcfg.cli.lint import run

    sys.exit(run(args))


@main.command(
    "lsp",
    add_help_option=False,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def lsp_cmd(args: tuple[str, ...]) -> None:
    """Serve the language server over stdio (pip install 'vcfg[lsp]'; docs/editors.md)."""
    from vcfg.lsp import run

    sys.exit(run(args))


for _command in (
    catalog.catalog,
    schema.schema_cmd,
    schema.init_editor_cmd,
    upgrade.upgrade_cmd,
    explain.connectors_cmd,
    explain.explain_cmd,
    launch.launch,
    bench.bench,
    plan.plan_cmd,
):
    main.add_command(_command)


if __name__ == "__main__":
    main()
