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
