"""Telling the user's Ctrl-C from a KeyboardInterrupt a codec raised itself.

An in-process codec that raises KeyboardInterrupt has crashed, like one raising any other
exception; a KeyboardInterrupt that Python raised because SIGINT arrived is the user stopping
utf8cert, and must go through. `watch()` wraps Python's own SIGINT handler so that each SIGINT
is counted before the KeyboardInterrupt is raised; `came_from_user()` then says whether one
arrived since it was last asked. A program that installs its own SIGINT handler (the command
line does, to kill its children) calls `note()` from it.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

_received = 0
"""SIGINTs received since the start."""
_seen = 0
"""SIGINTs received up to the last call of came_from_user."""


def note() -> None:
    """Count one SIGINT the user sent (for a SIGINT handler other than Python's own)."""
    global _received
    _received += 1


def _counting_handler(signum: int, frame: FrameType | None) -> None:
    note()
    signal.default_int_handler(signum, frame)


def watch() -> None:
    """Count every SIGINT from now on, if Python's own handler is the one installed (it is
    wrapped, and still raises KeyboardInterrupt); otherwise leave the installed one alone."""
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set handlers
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _counting_handler)


def came_from_user() -> bool:
    """Return whether a SIGINT arrived since this was last asked: a KeyboardInterrupt caught
    now is then the user's, and must be raised again."""
    global _seen
    arrived, _seen = _received != _seen, _received
    return arrived
