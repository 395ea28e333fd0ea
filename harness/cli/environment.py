"""The command's surroundings, made safe: standard streams that cannot encode a report or were
closed under it, a working directory that was deleted, threads a codec left running.

Each would otherwise end `utf8cert` in a traceback (UnicodeEncodeError under
PYTHONIOENCODING=ascii, OSError when a codec closed file descriptor 1) or keep it from exiting
(a codec's non-daemon thread that never ends).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence

from utf8cert.harness.cli.held import HELD_SIGNALS

USAGE_ERROR = 2
WRITE_ERRORS = frozenset({errno.EBADF, errno.EPIPE, errno.EIO, errno.ENOSPC})
"""What writing to a standard stream that is closed or gone raises."""


def prepare() -> None:
    """Let standard output and error write any text: what their encoding cannot hold is
    escaped (\\u2026) instead of raising UnicodeEncodeError; and keep Python's own
    initialisation from failing later on a deleted working directory."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        os.getcwd()
    except OSError:  # deleted under us: the current directory can hold no module any more
        sys.path[:] = [entry for entry in sys.path if entry]


def release_signals() -> None:
    """Act on the signals held since utf8cert started (entry.py, held.py): one that came
    meanwhile is delivered now (Ctrl-C: KeyboardInterrupt here); nothing when none are held."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)


def unwritable(run: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None) -> int:
    """Return run(argv), or USAGE_ERROR with one line on stderr if standard output or error
    could not be written (closed, by a codec or by the caller)."""
    try:
        return run(argv)
    except OSError as error:
        if error.errno not in WRITE_ERRORS:
            raise
        _silence()
        with contextlib.suppress(OSError):
            print(f"utf8cert: error: cannot write the report: {error.strerror}", file=sys.stderr)
        return USAGE_ERROR


def _silence() -> None:
    """Point standard output at /dev/null, so that the flush at exit does not fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until the process ends


def lingering() -> bool:
    """Return whether a thread other than the main one, not a daemon, is still running (one
    that Python would wait for before exiting)."""
    return any(
        thread.is_alive() and not thread.daemon and thread is not threading.main_thread()
        for thread in threading.enumerate()
    )


def end_now(status: int) -> None:
    """Never return: run the exit handlers, flush the streams and end the process with
    `status`, without waiting for the threads still running."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)
