"""Reading a file the user named (a vector file, a baseline, --input-file): a regular file only,
of bounded size, or one line saying why not.

A FIFO would hang the run, a device (/dev/zero, /dev/urandom) never ends, and a file of
gigabytes fills the memory before anything is said: each is refused before it is read. A
symlink to a regular file is fine. The bound is MAX_MB MiB unless the environment variable
LIMIT_VARIABLE says otherwise, for `check`, `fuzz` and the pytest plugin alike.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

MAX_MB: Final = 64
"""The largest file read, in MiB, unless LIMIT_VARIABLE says otherwise."""
LIMIT_VARIABLE: Final = "UTF8CERT_MAX_FILE_MB"

KINDS: Final = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
}


class NamedFileError(OSError):
    """A file that cannot be read; str() and strerror are one line saying why, filename the
    file (as OSError's are)."""

    def __init__(self, problem: str, filename: str | Path | None = None) -> None:
        super().__init__(problem)
        self.strerror = problem
        self.filename = None if filename is None else str(filename)


def limit_bytes() -> int | None:
    """Return the largest size read, in bytes (None: no bound, LIMIT_VARIABLE=0); raise
    NamedFileError if LIMIT_VARIABLE is not a whole number of MiB."""
    given = os.environ.get(LIMIT_VARIABLE, "").strip()
    if not given:
        return MAX_MB << 20
    try:
        megabytes = int(given)
    except ValueError:
        megabytes = -1
    if megabytes < 0:
        raise NamedFileError(f"{LIMIT_VARIABLE}={given!r} is not a whole number of MiB")
    return megabytes << 20 if megabytes else None


def read_named(path: str | Path, bounded: bool = True) -> bytes:
    """Return the bytes of the regular file at `path` (a symlink to one is followed); raise
    NamedFileError for anything else, or (`bounded`) for a file larger than limit_bytes()."""
    limit = limit_bytes() if bounded else None
    try:
        # O_NONBLOCK: opening a FIFO with no writer would wait for one
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise NamedFileError(error.strerror or str(error), path) from None
    with os.fdopen(descriptor, "rb") as file:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = KINDS.get(stat.S_IFMT(mode), "not a regular file")
            problem = f"{kind}, not a regular file: only regular files are read"
            raise NamedFileError(problem, path)
        os.set_blocking(descriptor, True)
        size = os.fstat(descriptor).st_size
        if limit is not None and size > limit:
            raise NamedFileError(_too_large(size, limit), path)
        # a file may grow while it is read (or claim size 0, as /proc's do): read one byte more
        data = file.read() if limit is None else file.read(limit + 1)
    if limit is not None and len(data) > limit:
        raise NamedFileError(_too_large(len(data), limit), path)
    return data


def _too_large(size: int, limit: int) -> str:
    return (
        f"{size / (1 << 20):.1f} MiB, more than the {limit >> 20} MiB read"
        f" (set {LIMIT_VARIABLE} to more, or 0 for no bound)"
    )
