"""``vcfg lint --fix`` / ``--diff``: the fix loop, what it writes, what it prints."""

from __future__ import annotations

from typing import Any, Callable

from vcfg.errors import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, VcfgError, write
from vcfg.fix.run import fix_files, unified_diff, write_files


def run_fixes(args: dict[str, Any], lint: Callable[..., Any], render: Callable[[Any, str], str]) -> int:
    """Fix (or, with ``--diff``, show the fixes for) ``args["paths"]``; the exit code:
    ``--diff`` 1 when there is something to change, ``--fix`` as a lint of the result."""
    from vcfg.lint.engine import expand_paths

    files = expand_paths(args["paths"])
    if args["fix"] and not args["diff"] and "-" in files:
        raise VcfgError("--fix cannot write to stdin", hint="use --diff to see the fixes")
    run = fix_files(files, lint, unsafe=args["unsafe_fixes"])
    result = run.result
    changed = [f for f in run.files if f.changed]
    for f in run.files:
        for why in f.refused:
            write(f"vcfg: {f.path}: a fix was not applied: {why}", err=True)
    if args["diff"]:
        text = unified_diff(run)
        if text:
            write(text.rstrip("\n"))
        n = run.applied
        write(
            f"vcfg: would fix {n} finding{'s' * (n != 1)} in {len(changed)} file{'s' * (len(changed) != 1)}", err=True
        )
        return EXIT_FINDINGS if changed else EXIT_OK
    problems = write_files(run)
    for p in problems:
        write(f"vcfg: {p}", err=True)
    write(render(result, args["fmt"]))
    n = run.applied
    left = len(result.diagnostics)
    write(
        f"vcfg: fixed {n} finding{'s' * (n != 1)} in {len(changed)} file{'s' * (len(changed) != 1)}; "
        f"{left} left" + (" (some have unsafe fixes: --unsafe-fixes)" if _unsafe_left(result, args) else ""),
        err=True,
    )
    for message in result.internal_errors:
        write(f"vcfg: internal error: {message} (please report it)", err=True)
    if result.internal_errors or problems:
        return EXIT_ERROR
    return EXIT_OK if args["exit_zero"] else result.exit_code


def _unsafe_left(result: Any, args: dict[str, Any]) -> bool:
    return not args["unsafe_fixes"] and any(
        d.fix is not None and d.fix.applicability == "unsafe" for d in result.diagnostics
    )
