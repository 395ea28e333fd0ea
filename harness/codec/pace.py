"""How long a codec in a child process may take to answer one request: the whole `--timeout`
before it is failed for a hang; after a hang for real, about a second before it is skipped.

A slow codec is not a hung one, so a request is failed for a timeout only once it has had the
whole ceiling (the user's `--timeout`): a codec that takes 2 s on one input is answered, and
certified, however fast its other answers were. Once the codec has hung for real (a request left
unanswered for the whole ceiling: `hang`), waiting the ceiling again on every question that hangs
the same way would cost hours, so from then on a request waits only its paced time (`allowed`)
and one that outlasts it is cut short: skipped, counted against the coverage, never failed (the
codec is already not conformant for its hang, and a skipped question is never certified).

The paced time of a request is FACTOR times what the slowest comparable answer so far would
take at its length: the answers to requests at least a quarter as long (by powers of two),
scaled in proportion to the length of the request line; never less than FLOOR, never more than
the ceiling. A request with nothing comparable answered yet (one far longer than any answered)
gets the ceiling. So a slow answer to a long input does not lengthen the wait for a hang on a
short one. Starting a program is not an answer: its handshake gets the ceiling.

A request's ceiling grows with its length (`limit`): PER_BYTE a byte of its line on top of the
user's --timeout, so that a 100 MB input, which takes CPython's own codec tens of seconds to read,
answer and write back on a loaded machine, is not failed for a hang it does not have; for a
vector (a line of at most 130 kB) that adds two thirds of a second at most.

A program that read none of its input for the whole ceiling after its handshake (`deafened`:
hung on a write, not on an answer) hangs whatever it is asked, before it can even see the
question: every later question is skipped at once, no program started for it, so that such a
program costs one ceiling, not one a question (it answers nothing to pace itself by).
"""

from __future__ import annotations

import threading
from typing import Final

FLOOR: Final = 1.0
"""Seconds any request may take, however fast the codec has been (a loaded machine stalls)."""
FACTOR: Final = 50.0
"""How many times the slowest comparable answer a request may take."""
PER_BYTE: Final = 5e-6
"""Seconds a request may take per byte of its line, on top of the ceiling: more than five times
the most CPython's own codec took in its child, 900 ns a byte of a 10 MB input's line (20 MB),
with the machine's two cores loaded twenty deep (bench/bench_question_time.py; bench/README.md,
"Time limits that grow with the input"). The verdict must not depend on the machine's load."""
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
        self.hung_on: str | None = None
        """The request the codec hung on for real (no answer within the ceiling), once it has."""
        self.deaf_on: str | None = None
        """The request a program left unread for the whole ceiling, having read nothing since
        its handshake, once one has (`deafened`)."""

    def deafened(self, request: str) -> None:
        """Learn that the program left `request` (shortened), and all it was sent since its
        handshake, unread for the whole ceiling: later requests are skipped, not asked."""
        self.hang(request)
        if self.deaf_on is None:
            self.deaf_on = request

    def deaf(self) -> str | None:
        """Return why every later request is skipped unasked (the program reads none of its
        input), None while it may still be asked."""
        if self.deaf_on is None:
            return None
        return f"skipped: the program read none of its input, as on {self.deaf_on}"

    def hang(self, request: str) -> None:
        """Learn that the codec left `request` (a request line, shortened) unanswered for the
        whole ceiling: later requests wait only their paced time."""
        if self.hung_on is None:
            self.hung_on = request

    def limit(self, size: int) -> float:
        """Return the most seconds a request line of `size` bytes may take before it is failed
        for a hang: the ceiling, and PER_BYTE for each byte."""
        return self.ceiling + PER_BYTE * max(size, 0)

    def wait(self, size: int) -> float:
        """Return the seconds a request line of `size` bytes is waited for: its limit until
        the codec has hung for real, its paced time (`allowed`) after."""
        return self.limit(size) if self.hung_on is None else self.allowed(size)

    def expected(self, size: int) -> float | None:
        """Return the seconds the slowest comparable answer would take at `size` bytes of
        request line (None when nothing comparable has been answered)."""
        least = _size_class(size) - 1
        with self._lock:
            rates = [rate for size_class, rate in self._rates.items() if size_class >= least]
        return max(rates) * max(size, SMALLEST_SIZE) if rates else None

    def allowed(self, size: int) -> float:
        """Return the seconds a request line of `size` bytes may take: FACTOR times what is
        expected, within FLOOR and its limit; its limit when nothing is expected yet."""
        expected = self.expected(size)
        if expected is None:
            return self.limit(size)
        return min(self.limit(size), max(FLOOR, FACTOR * expected))

    def answered(self, seconds: float, size: int) -> None:
        """Learn from an answer that took `seconds` to a request line of `size` bytes."""
        size_class = _size_class(size)
        rate = seconds / max(size, SMALLEST_SIZE)
        if rate <= self._rates.get(size_class, -1.0):
            return  # no slower than one seen: rates only grow, so no lock is needed to know
        with self._lock:
            self._rates[size_class] = max(self._rates.get(size_class, 0.0), rate)

    def describe(self, waited: float, size: int = 0) -> str:
        """Return what a request line of `size` bytes left unanswered for `waited` seconds
        means: 'no answer within 10 s' (a hang; its limit, to the tenth of a second), or, when
        it was cut short after a hang for real, 'skipped: no answer in its paced time after a
        hang on decode c080'."""
        limit = self.limit(size)
        if waited >= limit or self.hung_on is None:
            # The ceiling as the user gave it, unless the length added a tenth of a second.
            shown = self.ceiling if limit - self.ceiling < 0.1 else round(limit, 1)
            return f"no answer within {shown:g} s"
        # No seconds: the paced time varies with the load, the reason a report counts must not.
        return f"skipped: no answer in its paced time after a hang on {self.hung_on}"
