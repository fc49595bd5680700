"""The command line, the only edge: argv -> library calls -> render -> exit code.

``main`` is the ``vcfg`` program.  ``vcfg lint`` runs without importing click (its
options are read by ``vcfg/cli/lint.py``, because it runs on every commit); every
other command is the click group in ``vcfg/cli/commands.py``.  This module imports
nothing, so that importing ``vcfg.cli.lint`` stays click-free.
"""

from __future__ import annotations

import sys


def main() -> None:
    import gc

    from vcfg.bytecode import install

    # a regular install's modules from one file of bytecode (vcfg/bytecode.py)
    install()

    # A lint makes millions of short-lived objects and keeps few cycles, while the
    # catalogs, rules and plans it holds make the heap large: at the default
    # thresholds (700, 10, 10) the collector walks that heap again and again (31
    # collections in a one-script lint, a fifth of the CPU of a 1,000-file batch)
    # and finds almost nothing. Collected 70x less often, cycles are still freed.
    gc.set_threshold(50_000, 20, 100)
    argv = sys.argv[1:]
    if argv[:1] == ["lint"]:
        from vcfg.cli.lint import run

        sys.exit(run(argv[1:]))
    if argv[:1] == ["lsp"]:
        from vcfg.lsp import run as lsp

        sys.exit(lsp(argv[1:]))
    from vcfg.cli.commands import main as cli

    cli()
