"""The command line, the only edge: argv -> library calls -> render -> exit code.

``main`` is the ``vcfg`` program (``program`` runs it as the console script and
``python -m vcfg``).  ``vcfg lint`` runs without importing click (its options are
read by ``vcfg/cli/lint.py``, because it runs on every commit); every other command
is the click group in ``vcfg/cli/commands.py``.  This module imports
nothing but `typing`'s NoReturn, so that importing ``vcfg.cli.lint`` stays click-free.
"""

from __future__ import annotations

import sys
from typing import NoReturn


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


def program() -> None:
    """The ``vcfg`` program (the console script, ``python -m vcfg``): `main`, and a
    ``vcfg lint`` ends with `end`. A caller of `main` gets its ``SystemExit``."""
    try:
        main()
    except SystemExit as e:
        if sys.argv[1:2] == ["lint"] and isinstance(e.code, int):
            end(e.code)
        raise


def end(code: int) -> NoReturn:
    """End a ``vcfg lint`` process with ``code`` without the interpreter's teardown.

    By now the lint's output is written and every file it wrote is closed; what is
    left is freeing its heap (catalogs, plans, rule modules: 12% of a one-script
    lint's instructions, docs/performance.md). The standard streams are flushed
    first. Anything that still needs the normal exit gets it (``sys.exit``): an
    ``atexit`` handler (a caller's own, coverage's, ``logging``'s, a
    ``weakref.finalize``), a thread other than the main one, or a stream whose flush
    fails (the interpreter then reports it as before)."""
    import atexit
    import os

    threading = sys.modules.get("threading")
    if atexit._ncallbacks() or (threading is not None and threading.active_count() > 1):
        sys.exit(code)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)
