"""Errors the user can cause.  The CLI prints them as one line and exits 2."""

from __future__ import annotations


class VcfgError(Exception):
    """A user-facing error: bad input, unknown version, no network, ...

    ``hint`` is an optional second line telling the user what to do.
    """

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message


# ------------------------------------------------------------------ the command line's edge
# Shared by the click commands (vcfg/cli/commands.py and its command modules) and
# vcfg/cli/lint.py (which must not import click).

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def write(text: str, err: bool = False) -> None:
    """Print one block of text and a newline.  Text quoted from a file that is not
    UTF-8 carries lone surrogates; they, and anything the terminal's encoding
    cannot show, are printed as replacement characters instead of failing."""
    import sys

    stream = sys.stderr if err else sys.stdout
    text = text.encode("utf-8", "replace").decode("utf-8") + "\n"
    try:
        stream.write(text)
    except UnicodeEncodeError:
        enc = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(enc, "replace").decode(enc))
    stream.flush()


def print_error(message: str, hint: str | None = None) -> None:
    write(f"vcfg: error: {message}", err=True)
    if hint:
        write(f"  hint: {hint}", err=True)


def exit_code_for(e: BaseException) -> int:
    """What a command prints and returns when ``e`` escapes it: one line and 2 for a
    `VcfgError`, an interrupt or a vcfg bug (``VCFG_DEBUG=1`` re-raises a bug to show
    its traceback); 0 for a closed pipe (``vcfg ... | head``)."""
    import os

    if isinstance(e, BrokenPipeError):
        return EXIT_OK
    if isinstance(e, VcfgError):
        print_error(e.message, e.hint)
    elif isinstance(e, KeyboardInterrupt):
        print_error("interrupted")
    elif os.environ.get("VCFG_DEBUG"):
        raise e
    else:
        print_error(f"internal error: {type(e).__name__}: {e}", "please report it; VCFG_DEBUG=1 shows the traceback")
    return EXIT_ERROR


def guarded(fn, *args):  # type: ignore[no-untyped-def]
    """``fn(*args)`` as a command: its exit code, or `exit_code_for` what escapes it."""
    try:
        return fn(*args)
    except (Exception, KeyboardInterrupt) as e:
        return exit_code_for(e)
