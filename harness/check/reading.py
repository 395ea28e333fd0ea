"""The reference's one reading of an input: its walk, made once, and what follows from it.

Each judge of a decoding answer needs something of what RFC 3629 makes of the input: the
expectation its text, U+FFFDs and errors (expected.py); the timeliness judgement when each
character is decided (decided.py); a dialect profile the reference's reading between the
sequences it reads otherwise (profile.py); the offset judgement where each ill-formed run ends
(diagnose.py); the fuzzer the code points to offer an encoder (probe.py). They all read one
`Reading`, which the input's `Expected` carries: the reference (`decoder.pieces`) walks the
input once, when first asked, and no judge walks it again.

A variant of a vector (variants.py) is the vector's bytes between ASCII padding: its reading is
the vector's moved (`padded`), not a walk of its own. ASCII bytes are characters of their own
(RFC 3629 §1), so the padding joins the runs of text beside it, and the sequence the vector ends
inside (truncated) is then cut short by a byte that is not a UTF8-tail (missing-continuation).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Final

from utf8cert.harness.check.decided import Schedule, Walked, schedule_of
from utf8cert.reference import ErrorKind, sequence_at
from utf8cert.reference.decoder import pieces
from utf8cert.reference.table import ROW_OF_BYTE, TAIL

_TAILS: Final = bytes(TAIL)
CHECKPOINT: Final = 4096
"""How often the count of lead bytes is kept: a character's index in a long run of text is read
off the nearest count before it, not counted from the run's start (that was quadratic in the
input: 46 CPU-s for a megabyte's reports, 2.5 for 100 kB)."""
"""The UTF8-tail bytes (RFC 3629 §4), deleted from a run of text to count its characters."""


class Reading:
    """The reference's walk of one byte string, made when first asked, and what follows from
    it (a reading of b'' has no pieces). Once made it never changes."""

    __slots__ = ("_leads", "_pieces", "_schedule", "_source", "_starts", "data")

    def __init__(self, data: bytes) -> None:
        self.data: Final = data
        self._source: tuple[Reading, int, int] | None = None
        """(reading, before, after): this input is that reading's bytes between ASCII padding."""
        self._pieces: tuple[Walked, ...] | None = None
        self._starts: tuple[int, ...] | None = None
        self._leads: list[int] | None = None
        """How many bytes of data before each multiple of CHECKPOINT are not UTF8-tails."""
        self._schedule: Schedule | None = None

    @property
    def pieces(self) -> tuple[Walked, ...]:
        """Return the runs of text and the maximal subparts (offset, length, kind) of the input,
        in order (() for b''): the reference's walk, made on the first call only."""
        if self._pieces is None:
            walked = pieces(self.data) if self._source is None else self._moved(*self._source)
            self._pieces = tuple(walked)
        return self._pieces

    @property
    def errors(self) -> tuple[tuple[int, int, ErrorKind], ...]:
        """Return every maximal subpart (offset, length, kind), in order (() if well-formed)."""
        return tuple(piece for piece in self.pieces if not isinstance(piece, str))

    @property
    def schedule(self) -> Schedule:
        """Return when each character of the input is decided (decided.py), worked out once."""
        if self._schedule is None:
            self._schedule = schedule_of(self.data, self.pieces)
        return self._schedule

    def padded(self, data: bytes, before: int, after: int) -> Reading:
        """Return the reading of `data`: this reading's bytes with `before` ASCII bytes in front
        and `after` behind. It is this walk moved, when first asked: never a walk of its own."""
        if not (data[:before] + data[len(data) - after :]).isascii():
            raise ValueError("a reading is moved past ASCII padding only")
        if len(data) != before + len(self.data) + after:
            raise ValueError("the padded input is not this reading's bytes and the padding")
        moved = Reading(data)
        moved._source = (self, before, after)
        return moved

    def _moved(self, inner: Reading, before: int, after: int) -> list[Walked]:
        """Return the walk of this input read off `inner`'s (see the module)."""
        data = self.data
        walked: list[Walked] = [data[:before].decode("ascii")] if before else []
        for piece in inner.pieces:
            if isinstance(piece, str):
                _add_text(walked, piece)
                continue
            offset, length, kind = piece
            if after and kind is ErrorKind.TRUNCATED:  # cut short by the padding now
                kind = ErrorKind.MISSING_CONTINUATION
            walked.append((offset + before, length, kind))
        if after:
            _add_text(walked, data[len(data) - after :].decode("ascii"))
        return walked

    def _piece_starts(self) -> tuple[int, ...]:
        """Return where each piece starts in the input: a run of text where the subpart before
        it ends (0 for the first)."""
        if self._starts is None:
            starts: list[int] = []
            position = 0
            for piece in self.pieces:
                if isinstance(piece, str):
                    starts.append(position)
                else:
                    starts.append(piece[0])
                    position = piece[0] + piece[1]
            self._starts = tuple(starts)
        return self._starts

    def between(self, start: int, end: int) -> list[Walked]:
        """Return the reference's reading of data[start:end] alone, offsets in the input ([] when
        `start` >= `end`), read off this walk.

        A sequence cut short at `end` is cut by what the caller reads next, not by the end of
        the input: it is missing-continuation, not truncated (unless `end` ends the input).
        Where `start` lies inside a step of the walk (a character or a maximal subpart), the
        bytes up to the next lead are UTF8-tails, each a subpart of its own; from a lead on the
        slice is read as the whole is (the walk is one step at a time from left to right, and
        each step reads only its own bytes and the one after it). The step that `end` cuts or
        ends, whose kind may have been read off the byte after it, is read again alone: the
        reference's `sequence_at` on at most three bytes. tests/check/test_reading_of_input.py
        proves this equal to the reference's walk of the slice, on every slice.
        """
        data = self.data
        end = min(end, len(data))
        if start == 0 and end == len(data):
            return list(self.pieces)
        walked: list[Walked] = []
        position = start
        while position < end and data[position] in TAIL:
            # A UTF8-tail alone is a subpart of one byte, its kind the table's row for it.
            kind = ROW_OF_BYTE[data[position]]
            assert isinstance(kind, ErrorKind)
            walked.append((position, 1, kind))
            position += 1
        everything, starts = self.pieces, self._piece_starts()
        at = bisect_right(starts, position) - 1
        while position < end:
            piece = everything[at]
            stop = starts[at + 1] if at + 1 < len(starts) else len(data)
            if isinstance(piece, str):
                text_end = min(stop, end)
                while text_end < stop and data[text_end] in TAIL:
                    text_end -= 1  # back to the start of the character `end` cuts
                first = self._characters(starts[at], position)
                text = piece[first : first + self._characters(position, text_end)]
                if text:
                    walked.append(text)
                walked += self._cut_short(text_end, end) if text_end < min(stop, end) else []
            elif stop < end or stop == end == len(data):
                walked.append(piece)
            else:
                walked += self._cut_short(position, end)
            position = min(stop, end)
            at += 1
        return walked

    def _characters(self, start: int, end: int) -> int:
        """Return how many characters data[start:end] holds, inside a run of text: its lead
        bytes."""
        return self._leads_before(end) - self._leads_before(start)

    def _leads_before(self, position: int) -> int:
        """Return how many bytes of data[:position] are not UTF8-tails (0 for position 0)."""
        if self._leads is None:
            counts, total = [0], 0
            for block in range(0, len(self.data), CHECKPOINT):
                total += len(self.data[block : block + CHECKPOINT].translate(None, _TAILS))
                counts.append(total)
            self._leads = counts
        block = position // CHECKPOINT
        rest = self.data[block * CHECKPOINT : position].translate(None, _TAILS)
        return self._leads[block] + len(rest)

    def _cut_short(self, start: int, end: int) -> list[Walked]:
        """Return the reference's reading of data[start:end] (a few bytes: a proper prefix of a
        step of the walk, or a UTF8-tail), a sequence cut short at `end` missing-continuation
        unless `end` ends the input."""
        chunk = self.data[start:end]
        walked: list[Walked] = []
        position = 0
        while position < len(chunk):
            length, kind = sequence_at(chunk, position)
            if kind is None:
                raise AssertionError(f"a step of the walk cut short at {end} reads as text")
            if kind is ErrorKind.TRUNCATED and end < len(self.data):
                kind = ErrorKind.MISSING_CONTINUATION
            walked.append((start + position, length, kind))
            position += length
        return walked


def _add_text(walked: list[Walked], text: str) -> None:
    """Append `text` to `walked`, joined to a run of text it ends with (the walk never has two
    runs side by side)."""
    if walked and isinstance(walked[-1], str):
        walked[-1] += text
    else:
        walked.append(text)
