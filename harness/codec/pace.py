"""How long a codec in a child process may take to answer one request: long enough for a slow
codec, short enough that a hang is cut in about a second.

A request gets FACTOR times what the slowest comparable answer so far would take at its length:
the answers to requests at least a quarter as long (by powers of two), scaled in proportion to
the length of the request line; never less than FLOOR, never more than the ceiling (the user's
`--timeout`). A request with nothing comparable answered yet — any request before the first
answer, and one far longer than any answered — gets the ceiling. So a codec is never failed for
being slow (its own answers set the pace, and an answer fifty times slower than any comparable
one is a hang by any measure), while a slow answer to a long input does not lengthen the wait
for a hang on a short one. Starting a program is not an answer: its handshake gets the ceiling.
"""

from __future__ import annotations

import threading
from typing import Final

FLOOR: Final = 1.0
"""Seconds any request may take, however fast the codec has been (a loaded machine stalls)."""
FACTOR: Final = 50.0
"""How many times the slowest comparable answer a request may take."""
SMALLEST_SIZE: Final = 64
"""Request lines shorter than this count as this long: below it, the time is not the length's."""


def _size_class(size: int) -> int:
    """Return the power of two a request line's length falls under."""
    return max(size, SMALLEST_SIZE).bit_length()


class Pace:
    """The time allowed to each request of one codec, learnt from its answers."""

    def __init__(self, ceiling: float) -> None:
        self.ceiling = ceiling
        """The most any request may take: the user's timeout."""
        self._rates: dict[int, float] = {}
        """For each size class, the most seconds per byte of request line an answer took."""
        self._lock = threading.Lock()
        """Held while _rates is read or written: copies of a program answer in threads."""

    def expected(self, size: int) -> float | None:
        """Return the seconds the slowest comparable answer would take at `size` bytes of
        request line (None when nothing comparable has been answered)."""
        least = _size_class(size) - 1
        with self._lock:
            rates = [rate for size_class, rate in self._rates.items() if size_class >= least]
        return max(rates) * max(size, SMALLEST_SIZE) if rates else None

    def allowed(self, size: int) -> float:
        """Return the seconds a request line of `size` bytes may take: FACTOR times what is
        expected, within FLOOR and the ceiling; the ceiling when nothing is expected yet."""
        expected = self.expected(size)
        if expected is None:
            return self.ceiling
        return min(self.ceiling, max(FLOOR, FACTOR * expected))

    def answered(self, seconds: float, size: int) -> None:
        """Learn from an answer that took `seconds` to a request line of `size` bytes."""
        size_class = _size_class(size)
        rate = seconds / max(size, SMALLEST_SIZE)
        with self._lock:
            self._rates[size_class] = max(self._rates.get(size_class, 0.0), rate)

    def describe(self, size: int) -> str:
        """Return what the time allowed to a request of `size` bytes means: 'no answer within
        10 s', with the reason when it is shorter than the ceiling."""
        allowed, expected = self.allowed(size), self.expected(size)
        if allowed >= self.ceiling or expected is None:
            return f"no answer within {self.ceiling:g} s"
        return (
            f"no answer within {allowed:.3g} s ({FACTOR:g} times its slowest answer so far to a "
            f"request of this length, {expected * 1000:.3g} ms; at most {self.ceiling:g} s)"
        )
