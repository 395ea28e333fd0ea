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

from typing import Final

from utf8cert.harness.check.decided import Schedule
from utf8cert.harness.check.diagnose import Finding
from utf8cert.harness.check.expected import Expected
from utf8cert.harness.check.reading import Reading
from utf8cert.harness.codec.interface import Outcome, Refused, Stream
from utf8cert.reference import SIGNATURE

HELD_CHARACTER: Final = "held back a character"
HELD_ERROR: Final = "held back an error"
LET_THROUGH: Final = "decoded ill-formed bytes as characters"


def schedule(data: bytes) -> Schedule:
    """Return when each character of `data` alone is decided (decided.py): for a byte string
    no Expected carries; a judge reads its expectation's `reading.schedule`, worked out once."""
    return Reading(data).schedule


def held_back(expected: Expected, outcome: Outcome) -> Finding | None:
    """Return the first call on which an incremental decoder held back a character or an error
    (None: none did, or its calls were not seen)."""
    stream = getattr(outcome, "stream", None)  # Returned's and Refused's; None when unseen
    if stream is None or len(stream.fed) < 2:
        return None  # unseen, or one call: the final one, judged as the answer
    data = expected.data
    if data.startswith(SIGNATURE):
        return None
    timing = expected.reading.schedule  # the reference's, whatever profile `expected` is of
    if timing.error_offset != expected.first_error:
        return None  # a dialect profile's expectation (RFC 2279, surrogatepass): not judged here
    return late(timing, stream, isinstance(outcome, Refused))


def late(timing: Schedule, stream: Stream, strict: bool) -> Finding | None:
    """Return the first call on which a decoder held back a character or an error, given when
    RFC 3629 decides each character of its input (`Reading.schedule`): held_back, less what it
    checks first; the fuzzer's screen asks it too."""
    fed, returned = stream.fed, stream.returned
    answered = len(returned) if strict else len(returned) - 1
    error_at = None if timing.error is None else timing.first[timing.error]
    for call in range(answered):
        bytes_fed = fed[call]
        chunk = ((fed[call - 1] if call else 0), bytes_fed)
        if strict and error_at is not None and error_at <= bytes_fed:
            if returned[call] > timing.before[timing.error or 0]:  # ill-formed bytes as text
                # The bytes of the call that returned ill-formed bytes as text, from the first
                # of them when it came on an earlier call: behaviour.py names the bug by their
                # kind, not by the tail that happened to complete them.
                start = chunk[0] if timing.error_offset is None else timing.error_offset
                return "must", LET_THROUGH, ((min(start, chunk[0]), bytes_fed),)
            return "should", HELD_ERROR, (chunk,)
        if returned[call] < timing.owed(bytes_fed):
            return "should", HELD_CHARACTER, (chunk,)
    return None
