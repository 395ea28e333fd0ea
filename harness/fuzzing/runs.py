"""Runs of characters for the fuzzer's mutator: lengths drawn so a block bug of any size is met.

A decoder that reads its input in blocks (a page, a buffer, a SIMD register) of N bytes goes wrong
on a character cut by a multiple of N, and N is whatever its author chose: 1000 as well as 4096.
Seeds and fixed boundaries reach only the sizes someone thought of. A run of multi-byte
characters longer than N is cut by N unless N falls on a character start, so the long inputs here
are such runs (or ASCII runs, for word and vector loops), of a length drawn log-uniformly from
SHORT to the campaign's max_len: each doubling of size gets the same share, and a block of any
size from 16 to 65,536 bytes is reached (sizes up to SHORT by the short runs, `character_run`).
"""

from __future__ import annotations

import math
from random import Random
from typing import Final

from utf8cert.harness.vectors.samples import below, between, pick, scalar_of_length, tail

SHORT: Final = 128
"""The longest input of a short execution (the mutator's window, mutator.py)."""
NARROW: Final = 16
"""The window of most short executions: a pure-Python codec's cost grows with the input (all
five capabilities: about 300 µs at 16 bytes, 700 at 48, 1,000 to 1,500 at 128 on HandRolled),
and the errors, rows and chunk cuts a mutation works on fit in a few characters."""
WIDE_ODDS: Final = 0.2
"""The fraction of short executions whose window is SHORT, room to straddle 64 bytes."""


def window_size(rng: Random, max_size: int) -> int:
    """Return the window of one short execution: SHORT in WIDE_ODDS of the draws, else NARROW
    (never more than `max_size`)."""
    return min(max_size, SHORT if rng.random() < WIDE_ODDS else NARROW)


LONG_RUN_ODDS: Final = 0.001
"""The fraction of mutations grown into a long run (when --max-len leaves room).

Measured (bench/README.md, "## fuzz: past the seeds"): multi-byte characters cost a
byte-at-a-time Python codec about 3 µs a byte on all five capabilities (ASCII a tenth of that),
and the mean length drawn up to 64 KiB is about 10 KiB; at this rate long runs take about a
tenth of a campaign's time, and a block bug of 30,000 bytes (one drawn length in eight is longer)
was met in 1 to 5 s on a loaded core (at 6 in 10,000, fully multi-byte, one seed in three missed
it in 60 s)."""
PATTERN_CHARACTERS: Final = 24
"""Characters in the pattern a long multi-byte run repeats: mixed lengths, so that where a block
boundary falls on the pattern (a character start, or inside one) changes from run to run."""


def _is_tail(byte: int) -> bool:
    return 0x80 <= byte <= 0xBF  # RFC 3629 §4: UTF8-tail


def character_start(data: bytes, position: int) -> int:
    """Return `position` moved back over at most 3 UTF8-tail bytes (0 for empty input).

    RFC 3629 §1: a lead byte is never a UTF8-tail, so in well-formed text this lands on the
    start of the character holding `position`; in ill-formed text it lands on some byte edge.
    """
    position = min(position, len(data))
    for _ in range(3):
        if 0 < position < len(data) and _is_tail(data[position]):
            position -= 1
    return position


def run_length(rng: Random, max_size: int) -> int:
    """Return a length from SHORT to `max_size`, log-uniform (`max_size` itself if smaller)."""
    if max_size <= SHORT:
        return max_size
    return min(max_size, int(SHORT * math.exp(rng.random() * math.log(max_size / SHORT))))


def _multibyte_pattern(rng: Random) -> bytes:
    """Return PATTERN_CHARACTERS characters of two to four bytes (one length, or mixed)."""
    lengths = (between(rng, 2, 4),) if rng.random() < 0.5 else (2, 3, 4)
    return b"".join(
        chr(scalar_of_length(rng, pick(rng, lengths))).encode("utf-8")
        for _ in range(PATTERN_CHARACTERS)
    )


def filler(rng: Random, length: int) -> bytes:
    """Return well-formed text of `length` bytes or fewer (at most 3 short, to end on a whole
    character): printable ASCII in one draw in four, else ASCII for the first half (and 0..3
    bytes more, so the boundaries fall anywhere on the characters) and multi-byte characters
    for the second.

    The second half alone holds a multiple of every block size up to `length` (any span of
    length/2 bytes does, for a size of length/2 or less; a larger size is its own multiple),
    so a block bug that repeats at each block (a page loop, a buffer refilled) is met, and the
    ASCII half costs a byte-at-a-time decoder a tenth of what characters cost."""
    if rng.random() < 1 / 4:
        return bytes([between(rng, 0x20, 0x7E)]) * length
    pattern = _multibyte_pattern(rng)
    head = b"a" * (length // 2 + below(rng, 4))
    text = head + pattern * ((length - len(head)) // len(pattern) + 1)
    return text[: character_start(text, length)]


def grow_run(rng: Random, data: bytes, max_size: int) -> bytes:
    """Return `data` whole inside a run of text (`filler`), the two `run_length` bytes long (at
    most `max_size`): `data` at the run's start, its end, or anywhere between."""
    text = filler(rng, max(0, run_length(rng, max_size) - len(data)))
    cut = character_start(text, pick(rng, (0, len(text), below(rng, len(text) + 1))))
    return (text[:cut] + data + text[cut:])[:max_size]


def value_only_error(rng: Random, length: int) -> bytes:
    """Return an ill-formed sequence of `length` (2..4) bytes with the shape of a character (a
    lead of that length and its UTF8-tails) that only its value rules out (RFC 3629 §3, §4):
    C0/C1 overlongs, E0 80..9F and F0 80..8F overlongs, ED A0..BF surrogates, F4 90..BF above
    U+10FFFF. A fast path that checks shapes alone lets it through."""
    if length == 2:
        return bytes([pick(rng, (0xC0, 0xC1)), tail(rng)])
    if length == 3:
        if rng.random() < 0.5:
            return bytes([0xE0, between(rng, 0x80, 0x9F), tail(rng)])
        return bytes([0xED, between(rng, 0xA0, 0xBF), tail(rng)])
    if rng.random() < 0.5:
        return bytes([0xF0, between(rng, 0x80, 0x8F), tail(rng), tail(rng)])
    return bytes([0xF4, between(rng, 0x90, 0xBF), tail(rng), tail(rng)])


def character_run(rng: Random) -> bytes:
    """Return one character of two to four bytes repeated 2 to 64 times (log-uniform), in half
    of the draws followed by a sequence of its shape that only its value makes ill-formed: the
    input of a fast path taken after a run of like characters (Cyrillic, CJK, emoji)."""
    length = between(rng, 2, 4)
    character = chr(scalar_of_length(rng, length)).encode("utf-8")
    run = character * int(math.exp(rng.random() * math.log(64)) + 1)
    return run + value_only_error(rng, length) if rng.random() < 0.5 else run
