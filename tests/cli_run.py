"""``vcfg ARGV`` run in the test's own process: the same code as the program
(`vcfg lint` through `vcfg.cli.lint.run`, every other command through the click group,
`VcfgError` printed as one line and exit 2 by both) without starting an interpreter
per call. Tests of what only a fresh process shows (start-up imports, timing, memory,
signals) start one instead."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Optional


def run_vcfg(*argv: str, cwd: Optional[Path] = None) -> SimpleNamespace:
    """(returncode, stdout, stderr) of ``vcfg *argv`` run in ``cwd`` (default: here)."""
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        if argv[:1] == ("lint",):
            from vcfg.cli.lint import run

            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = run(list(argv[1:]))
                except SystemExit as e:  # a usage error
                    code = e.code if isinstance(e.code, int) else 2
            return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())
        from click.testing import CliRunner

        from vcfg.cli.commands import main

        r = CliRunner().invoke(main, list(argv))
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            raise r.exception
        return SimpleNamespace(returncode=r.exit_code, stdout=r.stdout, stderr=r.stderr)
    finally:
        os.chdir(old)
