"""Standard output kept for utf8cert while an in-process codec runs: what the codec writes
there (a debugging print, a library's banner, a forged report) goes to standard error instead.

utf8cert writes its reports to standard output (`--json -` is a document a program reads), and a
codec in the same process shares that output: one `print` of its own would corrupt the
document. So while the codec is loaded, asked and closed, both the file descriptor 1 and
Python's `sys.stdout` point at standard error, and both are put back before utf8cert writes.
A codec that closes descriptor 1 meanwhile closes only that copy.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

STDOUT, STDERR = 1, 2


def _flush(stream: object) -> None:
    """Flush a stream if it can be flushed (a codec may have closed or replaced it)."""
    with contextlib.suppress(Exception):
        stream.flush()  # type: ignore[attr-defined]


def _copy_of_stderr() -> int:
    """Return a new descriptor on standard error, or on the null device when it is closed."""
    try:
        return os.dup(STDERR)
    except OSError:
        return os.open(os.devnull, os.O_WRONLY)


@contextlib.contextmanager
def codec_output_to_stderr() -> Iterator[None]:
    """Within the block, send what is written to standard output (the descriptor and
    `sys.stdout`) to a copy of standard error; afterwards both are as they were, whatever the
    codec closed. Nothing is redirected when standard output is not open (nothing to keep)."""
    _flush(sys.stdout)
    try:
        saved = os.dup(STDOUT)
    except OSError:  # standard output closed: nothing to keep
        yield
        return
    copy = _copy_of_stderr()
    os.dup2(copy, STDOUT)
    os.close(copy)
    ours = sys.stdout
    # A stream of its own: a codec that closes sys.stdout closes neither ours nor sys.stderr.
    sys.stdout = os.fdopen(_copy_of_stderr(), "w", buffering=1, errors="backslashreplace")
    try:
        yield
    finally:
        theirs, sys.stdout = sys.stdout, ours
        _flush(theirs)
        with contextlib.suppress(Exception):
            theirs.close()
        os.dup2(saved, STDOUT)
        os.close(saved)
