"""The judgement of an incremental decoder's timeliness: output and errors on the call that
decides them, not one call later.

A streaming decoder (a socket reader, a log tailer) that holds a complete character back until
the next chunk delays it indefinitely when no chunk comes; one that waits for more bytes after
an error that is already certain keeps a reader waiting on input that can change nothing. So,
for each call but the final one (whose answer is the whole answer, judged as such), given the
bytes fed so far:

- every character they complete, and in replace mode every U+FFFD of an error they make
  certain, is due by that call: a decoder that has returned fewer characters in all has *held
  back a character* (`should`);
- a strict decoder must refuse on the call that makes its first error certain: one that returns
  instead, and refuses later, has *held back an error* (`should`); if what it returned runs
  past the characters before the error, it has *decoded ill-formed bytes as characters*
  (`must`), though its last call refuses.

What the bytes fed so far decide is all of them but a pending end: a last sequence cut short by
the end of the chunk that more bytes could still complete (Unicode §3.9 D93b's truncated maximal
subpart). One more end counts as pending: ED followed by A0..BF, the start of an encoded
surrogate, which can never become well-formed. CPython's decoder waits for its third byte so
that its `surrogatepass` handler can take the three bytes as one code point, and a decoder may
do as it does: the error is reported on the next call either way.

Judged only where the harness knows each call (a Python decoder's `Stream`, in process or sent
from a child; a program's `returned=` field, harness/PROTOCOL.md), only
on an answer nothing else is wrong with (a wrong answer is its own finding), and only against
RFC 3629's reading of the input (a dialect profile that reads other sequences as characters,
such as surrogatepass, is not judged on timeliness). A leading signature
(EF BB BF), which a decoder may strip (RFC 3629 §6), leaves the answer unjudged here.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from utf8cert.harness.check.diagnose import Finding
from utf8cert.harness.check.expected import Expected
from utf8cert.harness.codec.interface import Outcome, Refused, Stream
from utf8cert.reference import SIGNATURE, ErrorKind
from utf8cert.reference.decoder import pieces

HELD_CHARACTER: Final = "held back a character"
HELD_ERROR: Final = "held back an error"
LET_THROUGH: Final = "decoded ill-formed bytes as characters"


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


@lru_cache(maxsize=2048)
def schedule(data: bytes) -> Schedule:
    """Return when each character of `data` is decided, read off the reference's pieces: a
    character is decided by its last byte, a maximal subpart by the byte after it (or at once,
    or by the end of input), and none before the one ahead of it."""
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

    for piece in pieces(data):
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


def held_back(expected: Expected, outcome: Outcome) -> Finding | None:
    """Return the first call on which an incremental decoder held back a character or an error
    (None: none did, or its calls were not seen)."""
    stream = getattr(outcome, "stream", None)  # Returned's and Refused's; None when unseen
    if stream is None or len(stream.fed) < 2:
        return None  # unseen, or one call: the final one, judged as the answer
    data = expected.data
    if data.startswith(SIGNATURE):
        return None
    timing = schedule(data)
    if timing.error_offset != expected.first_error:
        return None  # a dialect profile's expectation (RFC 2279, surrogatepass): not judged here
    return late(timing, stream, isinstance(outcome, Refused))


def late(timing: Schedule, stream: Stream, strict: bool) -> Finding | None:
    """Return the first call on which a decoder held back a character or an error, given when
    RFC 3629 decides each character of its input (`schedule(data)`): held_back, less what it
    checks first; the fuzzer's screen asks it too."""
    fed, returned = stream.fed, stream.returned
    answered = len(returned) if strict else len(returned) - 1
    error_at = None if timing.error is None else timing.first[timing.error]
    for call in range(answered):
        bytes_fed = fed[call]
        chunk = ((fed[call - 1] if call else 0), bytes_fed)
        if strict and error_at is not None and error_at <= bytes_fed:
            if returned[call] > timing.before[timing.error or 0]:  # ill-formed bytes as text
                return "must", LET_THROUGH, (chunk,)
            return "should", HELD_ERROR, (chunk,)
        if returned[call] < timing.owed(bytes_fed):
            return "should", HELD_CHARACTER, (chunk,)
    return None
