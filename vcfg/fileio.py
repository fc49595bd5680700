"""Reading the files vcfg did not write: regular files only, never more than a cap.

A FIFO blocks the open (and `O_NONBLOCK` only moves the block to the read), a
character device like ``/dev/zero`` never ends, a socket cannot be opened at all:
so the path is ``stat``-ed first (following symlinks, as the open would) and only
a regular file is opened; the open file is checked again (the path may have been
swapped in between) and read up to ``limit`` + 1 bytes, so the caller can tell a
file that was cut.  The file policy is in docs/file-policy.md.
"""

from __future__ import annotations

import errno
import os
import stat

#: the size cap of every file vcfg reads (launch files, configs, packs, bench results)
MAX_BYTES = 20 * 1024 * 1024


class NotRegularFile(OSError):
    """The path names a FIFO, device, socket or folder: not read."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_regular(path: str) -> None:
    """`NotRegularFile` unless ``path`` is a regular file (after symlinks);
    FileNotFoundError and other OSErrors as ``os.stat`` raises them."""
    st = os.stat(path)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", path)
    if not stat.S_ISREG(st.st_mode):
        err = NotRegularFile(f"{_kind(st.st_mode)}, not a regular file: not read")
        err.strerror = str(err)
        err.filename = path
        raise err


def read_regular(path: str, limit: int = MAX_BYTES) -> bytes:
    """The first ``limit`` + 1 bytes of the regular file at ``path``; OSError
    (`NotRegularFile` for anything but a regular file) otherwise."""
    check_regular(path)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped after the stat
            raise NotRegularFile("not a regular file: not read")
        with os.fdopen(fd, "rb", closefd=True) as fh:
            fd = -1
            return fh.read(limit + 1)
    finally:
        if fd >= 0:
            os.close(fd)


def project_root(folder: str) -> str:
    """The folder a file in ``folder`` may reach others in: the nearest folder at or
    above it holding ``.git``; with none, the current folder when ``folder`` is inside
    it, else ``folder`` itself (docs/file-policy.md)."""
    d = here = os.path.realpath(folder)
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    cwd = os.path.realpath(os.getcwd())
    return cwd if inside(here, cwd) else here


def inside(path: str, root: str) -> bool:
    """Whether the real ``path`` is ``root`` or under it."""
    full = os.path.realpath(path)
    return full == root or full.startswith(root.rstrip(os.sep) + os.sep)
