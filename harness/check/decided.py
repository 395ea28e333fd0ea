"""When each character of an input is decided: the timeliness points of the reference's walk.

A character is decided by its last byte; a maximal subpart (Unicode §3.9 D93b) by the byte that
cuts it short, or at once (a byte that can never start a sequence), or only by the end of input
(a sequence the input ends inside); and none before the one ahead of it. ED followed by A0..BF,
the start of an encoded surrogate, is decided by its third byte, as CPython's decoder waits for
it (timeliness.py says why). The judgement of a decoder's timeliness is timeliness.py's; this
module only reads the points off the walk that reading.py holds.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from utf8cert.reference import ErrorKind

Walked = str | tuple[int, int, ErrorKind]
"""What the reference's walk (`utf8cert.reference.decoder.pieces`) yields: a run of text, or a
maximal subpart (offset, length, kind)."""


@dataclass(frozen=True)
class Schedule:
    """When each character of one input is decided: the characters (U+FFFD included) fall in
    segments, each decided one character a byte from `first` to `last` (a run of ASCII) or all
    at `first` (== `last`), after `before` characters; `error`: the first error's place in the
    segments, if any, and `before` of it."""

    first: tuple[int, ...]
    last: tuple[int, ...]
    before: tuple[int, ...]
    error: int | None
    error_offset: int | None
    """Where the first error starts in the input (None: well-formed)."""

    def owed(self, fed: int) -> int:
        """Return how many characters the first `fed` bytes decide."""
        at = bisect_right(self.first, fed) - 1
        if at < 0:
            return 0
        return self.before[at] + min(fed, self.last[at]) - self.first[at] + 1

    def before_error(self, fed: int) -> int | None:
        """Return how many characters come before the first error, when the first `fed` bytes
        make it certain (None: they do not)."""
        if self.error is None or self.first[self.error] > fed:
            return None
        return self.before[self.error]


_ASCII_OR_ONE: Final = re.compile(r"[\x00-\x7f]+|[^\x00-\x7f]")


def _subpart_decided(data: bytes, offset: int, length: int, kind: ErrorKind) -> int | None:
    """Return how many bytes must be fed for a maximal subpart to be certain (None: only the
    end of input makes it so)."""
    end = offset + length
    if not 0xC2 <= data[offset] <= 0xF4:
        return end  # a byte that can never start a sequence: certain at once
    if kind is ErrorKind.TRUNCATED:
        return None
    if data[offset] == 0xED and length == 1 and kind is ErrorKind.SURROGATE:
        return end + 2  # an encoded surrogate's first two bytes: see the module
    return end + 1  # a sequence cut short: certain once the byte that cuts it is seen


def schedule_of(data: bytes, walked: Iterable[Walked]) -> Schedule:
    """Return when each character of `data` is decided, read off `walked`, the reference's walk
    of `data` (an empty Schedule for b'')."""
    first: list[int] = []
    last: list[int] = []
    before: list[int] = []
    error: int | None = None
    error_offset: int | None = None
    count = position = latest = 0

    def add(start: int, stop: int, characters: int) -> None:
        nonlocal count, latest
        start = max(start, latest)
        first.append(start)
        last.append(max(stop, start))
        before.append(count)
        count += characters
        latest = last[-1]

    for piece in walked:
        if isinstance(piece, str):
            for run in _ASCII_OR_ONE.finditer(piece):
                text = run.group()
                if text.isascii():
                    add(position + 1, position + len(text), len(text))
                    position += len(text)
                else:
                    position += len(text.encode("utf-8", "surrogatepass"))
                    add(position, position, 1)
            continue
        offset, length, kind = piece
        decided_at = _subpart_decided(data, offset, length, kind)
        position = offset + length
        if decided_at is None:
            break  # truncated by the end of input: only the final call decides it
        if error is None:
            error, error_offset = len(first), offset
        add(decided_at, decided_at, 1)
    return Schedule(tuple(first), tuple(last), tuple(before), error, error_offset)
