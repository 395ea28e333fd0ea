"""SIGTERM and SIGHUP end a plugin session as a Ctrl-C does, wherever they arrive.

During an item the run watches them itself (items.py `stoppable`: a codec call that never
returns is interrupted). Between items (setup, teardown, reporting, the restart of a codec's
child) Python's default action for SIGTERM and SIGHUP would end pytest at once: no summary, no
--junitxml written, and the previous run's report left at its path for CI to read. Within
`session_signals` they raise KeyboardInterrupt instead, which pytest turns into an INTERRUPTED
session whose reports are written (session.py marks them INCOMPLETE). SIGINT already does so.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Final

ENDING: Final = (signal.SIGTERM, signal.SIGHUP)


def _interrupt(number: int, frame: FrameType | None) -> None:
    """Raise KeyboardInterrupt naming the signal, as the items' own watch words it."""
    raise KeyboardInterrupt(f"utf8cert: stopped by {signal.Signals(number).name}")


@contextmanager
def session_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise KeyboardInterrupt (the previous handlers
    come back after it); outside the main thread no handler can be set, and none is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, _interrupt) for number in ENDING}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
