"""The raw material of generated inputs: boundary scalars, and byte sequences of each error kind.

Shared by the Hypothesis strategies (`strategies.py`) and the fuzzer's mutator (`mutator.py`), so
that both speak of the same boundaries and the same ways of being ill-formed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final, TypeVar

from utf8cert.reference import ErrorKind

# RFC 3629 §3: the scalar values each sequence length holds (surrogates excluded from the third).
SCALAR_RANGES: Final[Mapping[int, tuple[range, ...]]] = {
    1: (range(0x0000, 0x007F + 1),),
    2: (range(0x0080, 0x07FF + 1),),
    3: (range(0x0800, 0xD7FF + 1), range(0xE000, 0xFFFF + 1)),
    4: (range(0x10000, 0x10FFFF + 1),),
}

# fmt: off
# The first and last scalar of every row of the RFC 3629 §4 table, and the values that often get
# special treatment (NUL, U+FEFF the signature of §6, U+FFFD, the noncharacters U+FFFE/U+FFFF).
BOUNDARY_SCALARS: Final = (
    0x0000, 0x007F,            # UTF8-1 = %x00-7F
    0x0080, 0x07FF,            # UTF8-2 = %xC2-DF UTF8-tail
    0x0800, 0x0FFF,            # %xE0 %xA0-BF UTF8-tail
    0x1000, 0xCFFF,            # %xE1-EC 2( UTF8-tail )
    0xD000, 0xD7FF,            # %xED %x80-9F UTF8-tail (then the surrogates, RFC 3629 §3)
    0xE000, 0xFFFF,            # %xEE-EF 2( UTF8-tail )
    0x10000, 0x3FFFF,          # %xF0 %x90-BF 2( UTF8-tail )
    0x40000, 0xFFFFF,          # %xF1-F3 3( UTF8-tail )
    0x100000, 0x10FFFF,        # %xF4 %x80-8F 2( UTF8-tail )
    0xFEFF, 0xFFFD, 0xFFFE,    # signature (§6), replacement character, noncharacter
)
# fmt: on

SURROGATES: Final = range(0xD800, 0xDFFF + 1)

Rng = random.Random
T = TypeVar("T")

# Draws made with `random()` alone: the fuzzer mutates tens of thousands of inputs a second, and
# `randint` or `choice` cost three times as much (still uniform: 2**53 >> any n used here).


def below(rng: Rng, n: int) -> int:
    """Return a uniform int in 0..n-1 (n >= 1)."""
    return int(rng.random() * n)


def between(rng: Rng, low: int, high: int) -> int:
    """Return a uniform int in low..high, both included."""
    return low + int(rng.random() * (high - low + 1))


def pick(rng: Rng, items: Sequence[T]) -> T:
    """Return one of `items` (not empty), uniformly."""
    return items[int(rng.random() * len(items))]


def tail(rng: Rng) -> int:
    """Return one UTF8-tail byte, 80..BF (RFC 3629 §4), biased to the two ends."""
    return pick(rng, (0x80, 0xBF, between(rng, 0x80, 0xBF)))


def scalar_of_length(rng: Rng, length: int) -> int:
    """Return a scalar whose UTF-8 is `length` bytes (1..4): an end of its range one time in
    four, else uniform within it."""
    chosen = pick(rng, SCALAR_RANGES[length])
    if rng.random() < 0.25:
        return pick(rng, (chosen[0], chosen[-1]))
    return between(rng, chosen[0], chosen[-1])


def any_scalar(rng: Rng) -> int:
    """Return a scalar value: a boundary one half of the time, else of a random length."""
    if rng.random() < 0.5:
        return pick(rng, BOUNDARY_SCALARS)
    return scalar_of_length(rng, between(rng, 1, 4))


def well_formed_sequence(rng: Rng) -> bytes:
    """Return the UTF-8 of one scalar value (1 to 4 bytes), from `any_scalar`."""
    return chr(any_scalar(rng)).encode("utf-8")


def _unexpected_continuation(rng: Rng) -> bytes:
    return bytes([tail(rng)])  # RFC 3629 §4: a UTF8-tail can never lead


def _overlong(rng: Rng) -> bytes:
    # RFC 3629 §3/§10: C0, C1; E0 80..9F; F0 80..8F: a longer form than the value needs.
    length = between(rng, 2, 4)
    if length == 2:
        return bytes([pick(rng, (0xC0, 0xC1)), tail(rng)])
    if length == 3:
        return bytes([0xE0, between(rng, 0x80, 0x9F), tail(rng)])
    return bytes([0xF0, between(rng, 0x80, 0x8F), tail(rng), tail(rng)])


def _surrogate(rng: Rng) -> bytes:
    return bytes([0xED, between(rng, 0xA0, 0xBF), tail(rng)])  # U+D800..U+DFFF, RFC 3629 §3


def _out_of_range(rng: Rng) -> bytes:
    # Above U+10FFFF: F4 90..BF, or the leads F5..F7 (RFC 3629 §3 ends the range at 10FFFF).
    if rng.random() < 0.5:
        return bytes([0xF4, between(rng, 0x90, 0xBF), tail(rng), tail(rng)])
    return bytes([between(rng, 0xF5, 0xF7), tail(rng), tail(rng), tail(rng)])


def _legacy_form(rng: Rng) -> bytes:
    # RFC 2279 §2: F8..FB lead five bytes, FC..FD six; RFC 3629 dropped both.
    lead = between(rng, 0xF8, 0xFD)
    return bytes([lead] + [tail(rng) for _ in range(4 if lead < 0xFC else 5)])


def _invalid_byte(rng: Rng) -> bytes:
    return bytes([pick(rng, (0xFE, 0xFF))])  # never part of UTF-8 (RFC 3629 §1)


def proper_prefix(rng: Rng) -> bytes:
    """Return a proper prefix of a well-formed multi-byte sequence: its lead and 0..n-2 more."""
    length = between(rng, 2, 4)
    sequence = chr(scalar_of_length(rng, length)).encode("utf-8")
    return sequence[: between(rng, 1, length - 1)]


def _missing_continuation(rng: Rng) -> bytes:
    # The prefix is cut short by an ASCII byte, which is no UTF8-tail (RFC 3629 §4).
    return proper_prefix(rng) + bytes([between(rng, 0x00, 0x7F)])


ERROR_MAKERS: Final[Mapping[ErrorKind, Callable[[Rng], bytes]]] = {
    ErrorKind.UNEXPECTED_CONTINUATION: _unexpected_continuation,
    ErrorKind.OVERLONG: _overlong,
    ErrorKind.SURROGATE: _surrogate,
    ErrorKind.OUT_OF_RANGE: _out_of_range,
    ErrorKind.LEGACY_FORM: _legacy_form,
    ErrorKind.INVALID_BYTE: _invalid_byte,
    ErrorKind.MISSING_CONTINUATION: _missing_continuation,
    ErrorKind.TRUNCATED: proper_prefix,
}
"""For each kind, bytes whose first ill-formed subpart has that kind when placed at a character
boundary. A `truncated` prefix is truncated only at the end of the input: before the next
character of well-formed text (never a UTF8-tail) it is `missing-continuation`."""


def error_sequence(rng: Rng, kind: ErrorKind) -> bytes:
    """Return bytes whose first maximal subpart is ill-formed for reason `kind`."""
    return ERROR_MAKERS[kind](rng)
