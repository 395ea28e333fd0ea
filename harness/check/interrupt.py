"""Stopping a run cleanly, on a signal or at a deadline, with a report of what was done.

    stop = Stop()
    with watching(stop, deadline=60):           # SIGINT, SIGTERM, SIGHUP; SIGALRM at 60 s
        report = run_check(codec, vectors, stop=stop)   # report.incomplete says why it stopped

A signal that comes while the codec is being asked (`Stop.asking`) raises `Interrupted` at once,
so that a call that never returns ends: a wait on a child process or a `cmd:` program, or an
in-process codec stuck in Python code (one stuck in C code cannot be interrupted: `--isolate`).
At any other moment the run stops before its next question. A second signal raises at once,
wherever the run is.

Watching also tells the user's Ctrl-C (recorded here) from a `KeyboardInterrupt` a codec raises
of its own (none recorded): the codec's is a crash like any other (breaker.py).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Final

STOPPING: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
DEADLINE_EXIT: Final = 3
"""The exit status of a run stopped by its deadline (0 pass, 1 fail and 2 usage are taken;
a run stopped by a signal exits 128 + its number, as a shell reports it: 130 for SIGINT)."""


class Interrupted(BaseException):
    """The run was told to stop (str(): why, 'SIGTERM' or 'the deadline of 60 s').

    A BaseException, like KeyboardInterrupt: no codec wrapper that turns a codec's exceptions
    into crashes may catch it."""


@dataclass
class Stop:
    """Whether and why a run is to stop, and what it is doing now."""

    reason: str = ""
    """Why the run is to stop: 'SIGTERM', 'the deadline of 60 s' ('' while it goes on)."""
    signal: int | None = None
    """The number of the signal that stopped it (None: the deadline, or not stopped)."""
    asking: bool = False
    """Whether the codec is being asked now: a signal then interrupts the call."""

    def request(self, reason: str, number: int | None = None) -> None:
        """Note that the run is to stop, and raise Interrupted if the codec is being asked (or
        the run was already told once)."""
        again = bool(self.reason)
        if not again:
            self.reason, self.signal = reason, number
        if self.asking or again:
            raise Interrupted(self.reason)

    def check(self) -> None:
        """Return if the run goes on; raise Interrupted if it is to stop."""
        if self.reason:
            raise Interrupted(self.reason)

    @contextmanager
    def interruptible(self) -> Iterator[None]:
        """Within the block (a codec being loaded, say), a signal raises Interrupted at once."""
        self.check()
        self.asking = True
        try:
            yield
        finally:
            self.asking = False
        self.check()

    def exit_status(self) -> int:
        """Return the exit status of a run stopped this way: 128 + the signal, or DEADLINE_EXIT."""
        return DEADLINE_EXIT if self.signal is None else 128 + self.signal


@contextmanager
def watching(stop: Stop, deadline: float | None = None) -> Iterator[Stop]:
    """Within the block, SIGINT, SIGTERM and SIGHUP (and SIGALRM after `deadline` seconds)
    ask `stop` to stop the run; the previous handlers come back after it. Outside the main
    thread no handler can be set: the block runs unwatched."""
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_signal(number: int, frame: FrameType | None) -> None:
        stop.request(signal.Signals(number).name, number)

    def on_deadline(number: int, frame: FrameType | None) -> None:
        stop.request(f"the deadline of {deadline:g} s")

    previous = {number: signal.signal(number, on_signal) for number in STOPPING}
    if deadline is not None:
        previous[signal.SIGALRM] = signal.signal(signal.SIGALRM, on_deadline)
        signal.setitimer(signal.ITIMER_REAL, deadline)
    try:
        yield stop
    finally:
        if deadline is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
