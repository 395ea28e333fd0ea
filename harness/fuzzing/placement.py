"""Where an input's non-ASCII bytes go: at each offset of a 16-byte register, or across the 64- and
4096-byte boundaries where codecs switch to block or page loops (for `utf8_inputs`, strategies.py).
"""

from __future__ import annotations

from random import Random

from utf8cert.harness.vectors.samples import SCALAR_RANGES, pick

TARGETS: tuple[int, ...] = (*range(16), *(64,) * 8, *(4096,) * 16)
"""Where an input's non-ASCII bytes go: its first at each offset of a 16-byte register
(alignment-bound word and SIMD loops), or one of its sequences across a block boundary (buffers
that lose a character across it): two inputs in five straddle 4096, one in five 64. Measured
(tests/fuzzing/test_strategies_rate.py): Hypothesis draws a run's examples in clusters, so a
run can hold few long inputs; 4096 gets the larger share, since only its own inputs reach it."""


def _sequence_starts(data: bytes) -> list[int]:
    """Return the offsets where a run of non-ASCII bytes or a lead byte (C0..FF) begins."""
    return [
        index
        for index, byte in enumerate(data)
        if byte >= 0xC0 or (byte >= 0x80 and (index == 0 or data[index - 1] < 0x80))
    ]


def _long_character(rng: Random) -> bytes:
    """Return the UTF-8 of a scalar of three or four bytes (RFC 3629 §4, rows 3 and 4)."""
    row = pick(rng, (*SCALAR_RANGES[3], *SCALAR_RANGES[4]))
    return chr(row.start + int(rng.random() * len(row))).encode("utf-8")


def place(rng: Random, joined: bytes, target: int) -> bytes:
    """Return `joined` behind ASCII, as far as it can: at a register offset (`target` < 16) its
    first non-ASCII byte at `target`, and in half of the draws ASCII behind it up to 64 bytes
    (where vector paths take over from scalar ones); at a block boundary one of its sequences
    across it, 1 to 3 bytes before it (within the sequence's length; 3 for a lone byte, which
    the property also asks as U+FFFD's three bytes: kinds.py) — or, in half of the draws, a
    character of three or four bytes across it with two or more before it, then `joined`: a
    buffer that holds back too little of a character cut there loses it, and the pieces alone
    hold such a character too rarely (most carry errors)."""
    starts = _sequence_starts(joined) or [0]
    if target < 16:
        placed = b"a" * max(0, target - starts[0]) + joined
        return placed + b"a" * (64 - len(placed)) if rng.random() < 0.5 else placed
    if rng.random() < 0.5:
        character = _long_character(rng)
        back = 2 + int(rng.random() * (len(character) - 2))
        return b"a" * (target - back) + character + joined
    start = pick(rng, starts)
    lead = joined[start] if joined else 0
    length = 2 if 0xC0 <= lead < 0xE0 else 4 if lead >= 0xF0 else 3
    back = 1 + int(rng.random() * (length - 1))
    return b"a" * max(0, target - back - start) + joined
