"""The judgement of an error's extent: where a codec says the error it refused ends.

Python's codecs say it (`UnicodeDecodeError.end`, `UnicodeEncodeError.end`: the protocol of
harness/PROTOCOL.md has no such field, so a program's refusals are not judged here). An error
handler replaces, and a caller skips, exactly the bytes from `start` to `end`, so an end that
is wrong makes the next decoding resume in the wrong place.

- Decoding: the error is the first maximal subpart (Unicode §3.9 D93b), and its end is the end
  of that subpart, no sooner (the rest of the subpart would be read as a new sequence) and no
  later (the well-formed text or the next error after it would be swallowed). `should`, the
  level of the recommended practice it follows (weaker when the vector says so).
- Encoding: each value that cannot be encoded is an error of its own, and a codec may report a
  run of them at once, as CPython does, or one at a time (tests/hand_rolled.py does): an end
  anywhere from the first value after `start` up to the end of that run is right. An end at or
  before `start`, past the text, or over a value that can be encoded is wrong: `should`.

Only judged once the error's start is right (a wrong start is its own finding).

A refusal that is a plain `ValueError` with no offset (check/interface.py's `generic`: not a
UnicodeError, not `Refusal`, not a class the codec declared) places the error nowhere, and is
most often not a refusal at all but an operation that failed on the bad input (`chr(-1)`):
`may`, for the position a caller loses. A codec that says it cannot tell (`Refusal(message)`,
its own declared error class, a program's `-`) is not judged.
"""

from __future__ import annotations

from typing import Final

from utf8cert.harness.check.diagnose import Finding
from utf8cert.harness.check.expected import Expected, ExpectedEncoding
from utf8cert.harness.codec.interface import Refused
from utf8cert.harness.vectors.model import LEVELS, Level

WRONG_END: Final = "wrong error end"
UNPLACED: Final = "refused with a plain ValueError, placing the error nowhere"
LARGEST: Final = 0x10FFFF


def _weaker(level: Level) -> Level:
    return max(level, "should", key=LEVELS.index)


def decode_end_mismatch(expected: Expected, outcome: Refused) -> Finding | None:
    """Return what is wrong with the end of a decoder's refusal at the first error (None: it is
    the end of the first maximal subpart, or the codec did not say)."""
    if outcome.generic and outcome.offset is None and expected.errors:
        first = expected.errors[0]
        return "may", UNPLACED, ((first.offset, first.offset + first.length),)
    if outcome.end is None or not expected.errors or outcome.offset != expected.first_error:
        return None
    first = expected.errors[0]
    if outcome.end == first.offset + first.length:
        return None
    return (
        _weaker(expected.levels["errors"]),
        WRONG_END,
        ((first.offset, first.offset + first.length),),
    )


def _unencodable(value: int) -> bool:
    return 0xD800 <= value <= 0xDFFF or not 0 <= value <= LARGEST


def encode_end_mismatch(expected: ExpectedEncoding, outcome: Refused) -> Finding | None:
    """Return what is wrong with the end of an encoder's refusal at the first value it cannot
    encode (None: the end lies within the run of such values that starts there, or is unsaid)."""
    start, end = outcome.offset, outcome.end
    if outcome.generic and start is None:
        return "may", UNPLACED, ()
    if end is None or start is None or start != expected.error_index:
        return None
    run_end = start
    while run_end < len(expected.scalars) and _unencodable(expected.scalars[run_end]):
        run_end += 1
    if start < end <= run_end:
        return None
    return _weaker(expected.level), WRONG_END, ((start, run_end),)
