"""A codec with two independent bugs, for one finding per root cause (issue 42): one input can
hold both, and its differences are then neither bug's alone.

`SurrogatesAndOverlongs`: the WHATWG decoder (hand_rolled.py) that reads ED A0..BF as the lead
of an encoded surrogate (a lone surrogate in the text), and reads C0 or C1 with a tail as a
character by the bit layout (an overlong). Loadable as `support.two_bug_codecs:NAME`.
"""

from __future__ import annotations

from collections.abc import Iterator

from support.fuzz_codecs import _two_byte_overlongs
from support.hand_rolled import HandRolled, Step, whatwg_steps


class SurrogatesAndOverlongs(HandRolled):
    """Accepts encoded surrogates (ED A0..BF xx) and two-byte overlongs (C0/C1 xx)."""

    def steps(self, data: bytes) -> Iterator[Step]:
        return _two_byte_overlongs(data, whatwg_steps(data, surrogates=True))


def _c1_controls(data: bytes, steps: Iterator[Step]) -> Iterator[Step]:
    """Yield `steps` with each lone byte 80..9F read as the C1 control of that number (a
    Latin-1 fallback for bytes that start no sequence)."""
    for start, end, piece in steps:
        if piece is None and end == start + 1 and 0x80 <= data[start] <= 0x9F:
            yield start, end, chr(data[start])
        else:
            yield start, end, piece


class SurrogatesAndC1Controls(HandRolled):
    """Accepts encoded surrogates (ED A0..BF xx) and lone 80..9F as C1 controls."""

    def steps(self, data: bytes) -> Iterator[Step]:
        return _c1_controls(data, whatwg_steps(data, surrogates=True))


class Surrogates(HandRolled):
    """Accepts encoded surrogates alone: the first bug of SurrogatesAndOverlongs."""

    def steps(self, data: bytes) -> Iterator[Step]:
        return whatwg_steps(data, surrogates=True)
