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

Judged only where the harness saw each call (an in-process Python decoder's `Stream`), and only
on an answer nothing else is wrong with (a wrong answer is its own finding). A leading signature
(EF BB BF), which a decoder may strip (RFC 3629 §6), leaves the answer unjudged here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from utf8cert.harness.check.diagnose import Finding
from utf8cert.harness.check.expected import Expected
from utf8cert.harness.codec.interface import Outcome, Refused, Returned
from utf8cert.reference import SIGNATURE, ErrorKind, decode_replace, errors

HELD_CHARACTER: Final = "held back a character"
HELD_ERROR: Final = "held back an error"
LET_THROUGH: Final = "decoded ill-formed bytes as characters"


def _pending(data: bytes) -> int:
    """Return where the pending end of `data` starts (len(data) when nothing is pending)."""
    tail = data[-3:]
    if len(tail) >= 2 and tail[-2] == 0xED and 0xA0 <= tail[-1] <= 0xBF:
        return len(data) - 2  # an encoded surrogate's first two bytes: see the module
    found = errors(tail)
    if found and found[-1].kind is ErrorKind.TRUNCATED:
        return len(data) - len(tail) + found[-1].offset
    return len(data)


@lru_cache(maxsize=8192)
def decided(data: bytes) -> tuple[int, int | None]:
    """Return what the bytes fed so far decide: how many characters a replacing decoder owes
    (U+FFFD included), and, when an error is certain, how many characters come before it
    (None: no error is)."""
    settled = data[: _pending(data)]
    found = errors(settled)
    before = len(decode_replace(settled[: found[0].offset])) if found else None
    return len(decode_replace(settled)), before


def held_back(expected: Expected, outcome: Outcome) -> Finding | None:
    """Return the first call on which an incremental decoder held back a character or an error
    (None: none did, or its calls were not seen)."""
    if not isinstance(outcome, Returned | Refused) or outcome.stream is None:
        return None
    data = expected.data
    if data.startswith(SIGNATURE):
        return None
    fed, returned = outcome.stream.fed, outcome.stream.returned
    strict = isinstance(outcome, Refused)
    answered = len(returned) if strict else len(returned) - 1  # the final call is the answer
    for call in range(max(0, answered)):
        owed, before_error = decided(data[: fed[call]])
        chunk = ((fed[call - 1] if call else 0), fed[call])
        if strict and before_error is not None:
            if returned[call] > before_error:  # it returned the ill-formed bytes as text
                return "must", LET_THROUGH, (chunk,)
            return "should", HELD_ERROR, (chunk,)
        if returned[call] < owed:
            return "should", HELD_CHARACTER, (chunk,)
    return None
