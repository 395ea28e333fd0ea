"""The fuzzer's structure-aware mutator: edits UTF-8 by characters and error kinds, not only bytes.

libFuzzer's own mutations flip bits and copy bytes; on UTF-8 they mostly make garbage that every
decoder rejects at the first byte. The operations here keep an input close to the valid space:
they insert, duplicate and cut whole sequences, build runs of like characters, and move an
input's interesting parts to where implementations keep their fast paths and buffers: at every
alignment, across 64, 4096 and 65536 bytes, and inside long runs of any length (runs.py), which
every block boundary up to their length cuts.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from typing import Final

from utf8cert.harness.fuzzing.runs import (
    LONG_RUN_ODDS,
    SHORT,
    character_run,
    character_start,
    grow_run,
    window_size,
)
from utf8cert.harness.vectors.samples import (
    BOUNDARY_SCALARS,
    below,
    between,
    error_sequence,
    pick,
    proper_prefix,
    scalar_of_length,
    well_formed_sequence,
)
from utf8cert.reference import ErrorKind, sequence_at

ByteMutate = Callable[[bytes, int], bytes]
"""libFuzzer's byte mutations (`atheris.Mutate(data, max_size)`, usable only inside a campaign)."""

BLOCK_BOUNDARIES: Final = (64, 4096, 65536)
"""Sizes where codecs switch to vector paths or refill a buffer: inputs are grown across them."""

# The length schedule. Errors, boundaries of the RFC 3629 §4 table and chunk cuts are dense in
# short inputs, and a short input costs a pure-Python codec about a hundred microseconds on all
# five capabilities where one of 64 KiB costs a tenth of a second or more. Left alone, a
# campaign's corpus drifts long (libFuzzer keeps every input that reaches a new loop count, and
# mutating or crossing a long input gives a long one): at the default --max-len, 22 to 45
# executions a second. So each mutation first cuts its input to a window of NARROW bytes (SHORT
# in WIDE_ODDS of them: runs.py) and works on that; LONG_RUN_ODDS of them then grow the result
# into a long run of a drawn length (runs.py), and LONG_ODDS across the fixed 4096- or
# 65536-byte boundary (bench/README.md).
LONG_ODDS: Final = ((4096, 0.001), (65536, 0.0001))
"""The fraction of mutations grown across each fixed long boundary (when --max-len leaves room).

Measured (bench/README.md, "## fuzz: past the seeds"): for a byte-at-a-time Python codec one
4 KiB input (in ASCII) costs about 10 short ones and one 64 KiB input about 200; the long runs of
runs.py reach these boundaries too, so the fixed ones keep a small share (a 4096-byte page bug is
also met in the seed pass, by the straddling seeds)."""

MAX_SHIFT: Final = 15
"""Up to 15 bytes of shift puts a sequence at every offset of a 16-byte vector register."""

_KINDS: Final = tuple(ErrorKind)
_NON_ASCII: Final = re.compile(b"[\x80-\xff]")


class Mutator:
    """The mutator and crossover handed to `atheris.Setup`.

    Its random generator is seeded once, from the seed of libFuzzer's first call (reseeding on
    every call would cost more than the mutation): a campaign run with the same -seed makes the
    same calls in the same order, so it stays reproducible.
    """

    def __init__(self, byte_mutate: ByteMutate, splices: Sequence[bytes] = ()) -> None:
        self.byte_mutate = byte_mutate
        self.splices = tuple(splice for splice in splices if splice)
        self._rng = random.Random()
        self._seeded = False
        operations: tuple[tuple[Callable[[bytes, int], bytes], int], ...] = (
            (self.byte_mutation, 30),
            (self.insert_sequence, 12),
            (self.replace_sequence, 8),
            (self.insert_boundary_value, 6),
            (self.insert_error, 12),
            (self.replace_with_error, 6),
            (self.splice_vector, 8),
            (self.grow_across_boundary, 8),
            (self.shift_alignment, 6),
            (self.repeat_slice, 4),
            (self.repair, 6),
            (self.duplicate_sequence, 6),
            (self.cut_sequences, 6),
            (self.insert_character_run, 6),
        )
        # One slot per unit of weight: picking an operation is one draw and one index.
        self._slots = [function for function, weight in operations for _ in range(weight)]

    def _seed(self, seed: int) -> None:
        if not self._seeded:
            self._rng.seed(seed)
            self._seeded = True

    def __call__(self, data: bytes, max_size: int, seed: int) -> bytes:
        """Return `data` after one to four mutations, at most `max_size` bytes long: a window of
        at most SHORT bytes of it mutated, in LONG_RUN_ODDS of the calls grown into a long run
        of text (runs.py), and in LONG_ODDS across a fixed long block boundary."""
        self._seed(seed)
        short = window_size(self._rng, max_size)
        data = self.window(data, short)
        count = 1 + min(3, int(self._rng.expovariate(1.5)))
        for _ in range(count):
            data = pick(self._rng, self._slots)(data, short)
        data = data[:short]
        if max_size > SHORT and self._rng.random() < LONG_RUN_ODDS:
            return grow_run(self._rng, data, max_size)
        boundary = self.long_boundary(max_size)
        if boundary is not None:
            data = self.straddle(data, boundary)[: boundary + SHORT]
        return data[:max_size]

    def long_boundary(self, max_size: int) -> int | None:
        """Return the long block boundary to grow this mutation across (LONG_ODDS), None for a
        short one (always None when `max_size` leaves no room past the boundary)."""
        draw = self._rng.random()
        for boundary, odds in LONG_ODDS:
            if draw < odds and boundary + SHORT <= max_size:
                return boundary
            draw -= odds
        return None

    def window(self, data: bytes, size: int) -> bytes:
        """Return `data` if it is at most `size` bytes, else `size` bytes or fewer of it, cut at
        character starts: most often around a non-ASCII byte, where the errors are."""
        if len(data) <= size:
            return data
        found = _NON_ASCII.search(data, below(self._rng, len(data))) or _NON_ASCII.search(data)
        centre = found.start() if found is not None else below(self._rng, len(data))
        start = character_start(data, max(0, centre - below(self._rng, size)))
        end = character_start(data, start + size)
        return data[start : end if end > start else start + size]

    def crossover(self, first: bytes, second: bytes, max_size: int, seed: int) -> bytes:
        """Return a head of `first` joined to a tail of `second`, cut at character starts (of
        SHORT windows of each: a crossover is a short execution)."""
        self._seed(seed)
        short = window_size(self._rng, max_size)
        first, second = self.window(first, short), self.window(second, short)
        head = character_start(first, between(self._rng, 0, len(first)))
        tail = character_start(second, between(self._rng, 0, len(second)))
        return (first[:head] + second[tail:])[:short]

    # Each operation below returns the new input; it may exceed max_size, which __call__ trims.

    def _position(self, data: bytes) -> int:
        return character_start(data, between(self._rng, 0, len(data)))

    def _insert(self, data: bytes, piece: bytes) -> bytes:
        position = self._position(data)
        return data[:position] + piece + data[position:]

    def _replace(self, data: bytes, piece: bytes) -> bytes:
        if not data:
            return piece
        position = character_start(data, below(self._rng, len(data)))
        length, _ = sequence_at(data, position)
        return data[:position] + piece + data[position + length :]

    def byte_mutation(self, data: bytes, max_size: int) -> bytes:
        """Return libFuzzer's own mutation of `data` (bit flips, dictionary words, copies)."""
        return self.byte_mutate(data, max_size)

    def insert_sequence(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with one to eight well-formed characters inserted at a character start."""
        count = pick(self._rng, (1, 1, 2, 8))
        return self._insert(data, b"".join(well_formed_sequence(self._rng) for _ in range(count)))

    def replace_sequence(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with one character (or maximal subpart) swapped for another character."""
        return self._replace(data, well_formed_sequence(self._rng))

    def insert_boundary_value(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with the UTF-8 of a boundary scalar (U+007F, U+0800…) inserted."""
        return self._insert(data, chr(pick(self._rng, BOUNDARY_SCALARS)).encode("utf-8"))

    def insert_error(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with an ill-formed sequence of a random kind, or cut short at the end."""
        kind = pick(self._rng, _KINDS)
        if kind is ErrorKind.TRUNCATED:
            return data + proper_prefix(self._rng)  # truncated only at the end of input
        return self._insert(data, error_sequence(self._rng, kind))

    def replace_with_error(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with one character replaced by an ill-formed sequence of a random kind."""
        return self._replace(data, error_sequence(self._rng, pick(self._rng, _KINDS)))

    def splice_vector(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with a vector's input (or a slice of it) inserted, or replaced by one."""
        if not self.splices:
            return self.insert_sequence(data, max_size)
        piece = pick(self._rng, self.splices)
        if self._rng.random() < 0.25:
            return piece
        if self._rng.random() < 0.5:
            start = character_start(piece, below(self._rng, len(piece)))
            piece = piece[start : start + between(self._rng, 1, 16)]
        return self._insert(data, piece)

    def grow_across_boundary(self, data: bytes, max_size: int) -> bytes:
        """Return `data` padded so a non-ASCII sequence in it starts 0..3 bytes before a block
        boundary (64, 4096 or 65536) that fits in `max_size`, straddling it; `data` itself when
        no boundary fits."""
        fitting = [boundary for boundary in BLOCK_BOUNDARIES if boundary < max_size]
        if not fitting:
            return data
        return self.straddle(data, pick(self._rng, fitting))

    def straddle(self, data: bytes, boundary: int) -> bytes:
        """Return `data` padded (or its head dropped) so that a non-ASCII sequence in it (or
        one inserted) starts 0..3 bytes before `boundary`, straddling it."""
        found = _NON_ASCII.search(data, between(self._rng, 0, len(data))) or _NON_ASCII.search(data)
        if found is None or self._rng.random() < 0.25:
            target = self._position(data)  # bring something to straddle the boundary with
            data = data[:target] + self._non_ascii_piece() + data[target:]
        else:
            target = character_start(data, found.start())
        wanted = boundary - between(self._rng, 0, 3)
        if target > wanted:
            return data[target - wanted :]  # drop the head so the target moves back to `wanted`
        return self._pad(data, target, wanted - target)

    def _non_ascii_piece(self) -> bytes:
        """Return a multi-byte character, or an ill-formed sequence of a random kind."""
        if self._rng.random() < 0.5:
            return error_sequence(self._rng, pick(self._rng, _KINDS))
        return chr(scalar_of_length(self._rng, between(self._rng, 2, 4))).encode("utf-8")

    def _pad(self, data: bytes, before: int, length: int) -> bytes:
        """Return `data` with `length` bytes of well-formed filler inserted at a character start
        at or before offset `before`."""
        at = character_start(data, between(self._rng, 0, before))
        if self._rng.random() < 0.5:
            filler = bytes([between(self._rng, 0x20, 0x7E)]) * length  # ASCII: vector fast paths
        else:
            text = "".join(chr(ord("a") + below(self._rng, 26)) for _ in range(64))
            filler = (text.encode() * (length // 64 + 1))[:length]
        return data[:at] + filler + data[at:]

    def repair(self, data: bytes, max_size: int) -> bytes:
        """Return `data` made well-formed: each maximal subpart replaced by EF BF BD (U+FFFD).

        Followed by an error insertion, this gives an input with exactly one ill-formed
        sequence in otherwise valid text: the inputs that reach a codec's fast paths.
        """
        # CPython's codec only shapes the input here; the judging is the reference's.
        return data.decode("utf-8", "replace").encode("utf-8")

    def shift_alignment(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with 1..15 ASCII bytes added at, or removed from, its start."""
        count = between(self._rng, 1, MAX_SHIFT)
        if data[:count].isascii() and len(data) > count and self._rng.random() < 0.5:
            return data[count:]
        return b" " * count + data

    def _times(self, most: int) -> int:
        """Return a count from 2 to `most`, log-uniform (each doubling as likely)."""
        return min(most, 1 + int(math.exp(self._rng.random() * math.log(most))))

    def repeat_slice(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with a slice of it (cut at character starts) repeated 2 to 64 times."""
        if not data:
            return self.insert_sequence(data, max_size)
        start = self._position(data)
        end = character_start(data, between(self._rng, start, min(len(data), start + 64)))
        return data[:end] + data[start:end] * self._times(64) + data[end:]

    def duplicate_sequence(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with one whole sequence (a character or a maximal subpart) of it
        repeated 2 to 64 times in place."""
        if not data:
            return self.insert_character_run(data, max_size)
        position = character_start(data, below(self._rng, len(data)))
        length, _ = sequence_at(data, position)
        sequence = data[position : position + length]
        return data[:position] + sequence * self._times(64) + data[position + length :]

    def cut_sequences(self, data: bytes, max_size: int) -> bytes:
        """Return `data` less one to eight whole sequences (characters or maximal subparts, as
        the reference cuts them) from a character start on."""
        if not data:
            return data
        start = end = character_start(data, below(self._rng, len(data)))
        for _ in range(self._times(9) - 1):
            if end >= len(data):
                break
            end += sequence_at(data, end)[0]
        return data[:start] + data[end:]

    def insert_character_run(self, data: bytes, max_size: int) -> bytes:
        """Return `data` with a run of one multi-byte character inserted at a character start,
        in half of the draws ending in a sequence of its shape that only its value makes
        ill-formed (runs.character_run)."""
        return self._insert(data, character_run(self._rng))
