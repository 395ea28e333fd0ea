"""The judgement of an error's extent: where a codec says the error it refused ends.

Python's codecs say it (`UnicodeDecodeError.end`, `UnicodeEncodeError.end`), and a program may
(the optional field `end=` of harness/PROTOCOL.md, which the server of a Python codec in a child
process sends: codec/answer_fields.py); a refusal that does not say is not judged here. An error
handler replaces, and a caller skips, exactly the bytes from `start` to `end`, so an end that
is wrong makes the next decoding resume in the wrong place.

- Decoding: the error is the first maximal subpart (Unicode §3.9 D93b), and its end is no
  sooner than the end of that subpart (the rest of the subpart would be read as a new sequence)
  and no later than the end of the run of ill-formed bytes it begins (the well-formed text after
  it would be swallowed). `should`, the level of the recommended practice it follows (weaker
  when the vector says so). An end over several subparts of one run (a lax reader's longer
  sequence, CPython surrogatepass's ED A0) is the granularity of U+FFFD, which replace mode
  judges (`wrong U+FFFD count`) and no dialect profile models: not judged here.
- Encoding: each value that cannot be encoded is an error of its own, and a codec may report a
  run of them at once, as CPython does, or one at a time (tests/support/hand_rolled.py does): an end
  anywhere from the first value after `start` up to the end of that run is right. An end at or
  before `start`, past the text, or over a value that can be encoded is wrong: `should`.

Only judged once the error's start is right (a wrong start is its own finding).

A refusal that is a plain `ValueError` with no offset (check/interface.py's `generic`: not a
UnicodeError, not `Refusal`, not a class the codec declared) places the error nowhere, and is
most often not a refusal at all but an operation that failed on the bad input (`chr(-1)`):
`may`, for the position a caller loses. A codec that says it cannot tell (`Refusal(message)`,
its own declared error class, a program's `-` without `generic=1`) is not judged.
"""

from __future__ import annotations

from typing import Final

from utf8cert.harness.check.diagnose import Finding
from utf8cert.harness.check.expected import Expected, ExpectedEncoding
from utf8cert.harness.codec.interface import Refused
from utf8cert.harness.vectors.model import LEVELS, Level

WRONG_END: Final = "wrong error end"
UNPLACED: Final = "refused with a plain ValueError, placing the error nowhere"
UNPLACED_FIX: Final = {
    "decode": "raise UnicodeDecodeError('utf-8', data, start, end, reason) at the first "
    "ill-formed byte, or raise Refusal(message, offset) (the Python API)",
    "encode": "raise UnicodeEncodeError('utf-8', text, start, end, reason) at the first "
    "unencodable character, or raise Refusal(message, offset) (the Python API)",
}
"""What makes an UNPLACED behaviour vanish, by direction: a refusal that says where (a report
shows it as the behaviour's one line, never its differences one by one)."""
LARGEST: Final = 0x10FFFF


def _weaker(level: Level) -> Level:
    return max(level, "should", key=LEVELS.index)


def decode_end_mismatch(expected: Expected, outcome: Refused) -> Finding | None:
    """Return what is wrong with the end of a decoder's refusal at the first error (None: it is
    right, see the module, or the codec did not say)."""
    if not expected.errors:
        return None
    first = expected.errors[0]
    subpart = (first.offset, first.offset + first.length)
    if outcome.generic and outcome.offset is None:
        return "may", UNPLACED, (subpart,)
    if outcome.end is None or outcome.offset != first.offset:
        return None
    run_end = subpart[1]
    for error in expected.errors[1:]:  # the run of ill-formed bytes the first error begins
        if error.offset != run_end:
            break
        run_end = error.offset + error.length
    if subpart[1] <= outcome.end <= run_end:
        return None  # the subpart's end, or over more subparts of its run: see the module
    return _weaker(expected.levels["errors"]), WRONG_END, (subpart,)


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
