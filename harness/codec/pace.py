"""How long a codec in a child process may take to answer one request: long enough for a slow
codec, short enough that a hang is cut in about a second.

Before the codec has answered anything, a request gets the ceiling (the user's `--timeout`).
After that it gets FACTOR times the slowest answer so far, scaled up for a longer request at the
slowest rate seen (seconds per byte of request line), never less than FLOOR and never more than
the ceiling. A codec is never failed for being slow: its own slowest answer sets the pace, and
an answer fifty times slower than any before it is a hang by any measure. The start of a program
is not an answer: its handshake always gets the ceiling.
"""

from __future__ import annotations

from typing import Final

FLOOR: Final = 1.0
"""Seconds any request may take, however fast the codec has been (a loaded machine stalls)."""
FACTOR: Final = 50.0
"""How many times its slowest answer a request may take."""
SMALLEST_SIZE: Final = 64
"""Request lines shorter than this count as this long when working out a rate."""


class Pace:
    """The time allowed to each request of one codec, learnt from its answers."""

    def __init__(self, ceiling: float) -> None:
        self.ceiling = ceiling
        """The most any request may take: the user's timeout."""
        self.slowest = 0.0
        """The longest answer so far, in seconds (0.0: none yet)."""
        self.slowest_rate = 0.0
        """The most seconds per byte of request line an answer took."""
        self.answers = 0

    def allowed(self, size: int) -> float:
        """Return the seconds a request line of `size` bytes may take: the ceiling before any
        answer, else FACTOR times the slowest answer (or the slowest rate times `size`),
        within FLOOR and the ceiling."""
        if not self.answers:
            return self.ceiling
        expected = max(self.slowest, self.slowest_rate * max(size, SMALLEST_SIZE))
        return min(self.ceiling, max(FLOOR, FACTOR * expected))

    def answered(self, seconds: float, size: int) -> None:
        """Learn from an answer that took `seconds` to a request line of `size` bytes."""
        self.answers += 1
        self.slowest = max(self.slowest, seconds)
        self.slowest_rate = max(self.slowest_rate, seconds / max(size, SMALLEST_SIZE))

    def describe(self, allowed: float) -> str:
        """Return what a timeout of `allowed` seconds means: 'no answer within 3 s', with the
        reason when it is shorter than the ceiling."""
        if allowed >= self.ceiling:
            return f"no answer within {self.ceiling:g} s"
        slowest = f"{self.slowest * 1000:.3g} ms"
        return (
            f"no answer within {allowed:.3g} s ({FACTOR:g} times its slowest answer so far, "
            f"{slowest}; at most {self.ceiling:g} s)"
        )
