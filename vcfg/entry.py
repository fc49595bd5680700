"""The ``vcfg`` program.  ``vcfg lint`` runs without importing click (see
``vcfg/lint/command.py``); every other command goes to ``vcfg/cli.py``."""

from __future__ import annotations

import sys


def main() -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["lint"]:
        from vcfg.lint.command import run

        sys.exit(run(argv[1:]))
    from vcfg.cli import main as cli

    cli()
