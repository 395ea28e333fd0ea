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
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Final

STOPPING: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
DEADLINE_EXIT: Final = 3
"""The exit status of a run stopped by its deadline (0 pass, 1 fail and 2 usage are taken;
a run stopped by a signal exits 128 + its number, as a shell reports it: 130 for SIGINT)."""
DEFAULT_DEADLINE_BASE: Final = 120.0
DEFAULT_DEADLINE_PER_VECTOR: Final = 1.0
"""A check given no --deadline stops after DEFAULT_DEADLINE_BASE seconds and this many more a
vector asked (`default_deadline`)."""


def default_deadline(vectors: int) -> float:
    """Return the seconds a check of `vectors` vectors may take when no --deadline is given:
    2 minutes and 1 s a vector (the built-in 2401: about 42 minutes, where CPython's codec
    takes half a minute and the slowest shipped adapter a few), so that a codec that answers
    each question just under its timeout costs minutes, not a day; 120.0 for none."""
    return DEFAULT_DEADLINE_BASE + DEFAULT_DEADLINE_PER_VECTOR * vectors


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
    deadline: str = ""
    """What the deadline set is, as the reason says it ('the deadline of 60 s'; '' for none)."""

    def arm(self, seconds: float, why: str = "") -> None:
        """Ask this run to stop `seconds` from now, saying `why` (default: 'the deadline of S s'),
        by SIGALRM, which `watching` handles; nothing outside the main thread, where no handler
        can be set."""
        if threading.current_thread() is not threading.main_thread():
            return
        self.deadline = why or f"the deadline of {seconds:g} s"
        signal.setitimer(signal.ITIMER_REAL, seconds)

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


def heeded(signals: Iterable[int]) -> tuple[int, ...]:
    """Return those of `signals` this process does not ignore (() when it ignores them all).

    One its parent set to be ignored — Ctrl-C for a shell's background job, SIGHUP under
    `nohup` — stays ignored, as Python leaves it at start: a handler set for the run alone would
    heed it only part of the time (lost while utf8cert starts, entry.py) and undo `nohup`."""
    return tuple(number for number in signals if signal.getsignal(number) is not signal.SIG_IGN)


@contextmanager
def watching(stop: Stop, deadline: float | None = None, *, alarm: bool = False) -> Iterator[Stop]:
    """Within the block, SIGINT, SIGTERM and SIGHUP (and SIGALRM after `deadline` seconds, or,
    with `alarm`, once `stop.arm` is called) ask `stop` to stop the run; the previous handlers
    come back after it (SIGALRM is left alone without either: a test timeout's). Outside the
    main thread no handler can be set: the block runs unwatched."""
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_signal(number: int, frame: FrameType | None) -> None:
        stop.request(signal.Signals(number).name, number)

    def on_deadline(number: int, frame: FrameType | None) -> None:
        stop.request(stop.deadline)

    previous = {number: signal.signal(number, on_signal) for number in heeded(STOPPING)}
    alarm = alarm or deadline is not None
    if alarm:
        previous[signal.SIGALRM] = signal.signal(signal.SIGALRM, on_deadline)
    if deadline is not None:
        stop.arm(deadline)
    try:
        yield stop
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
