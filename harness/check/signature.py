"""Whether a strict decoder that counted its error offset after a leading signature had stripped
that signature: only then is the offset the signature's doing.

RFC 3629 §6 lets a decoder strip a leading EF BB BF; one that does may count what follows from
after it, so an offset short by exactly the signature's length is graded `may` (diagnose.py).
But a decoder that keeps the signature has no such excuse: its offset is simply wrong, a
`should` departure (Unicode §3.9), whatever the coincidence of lengths (PyICU searches the input
for the bad bytes from its start, and finds EF BB at 0 in EF BB BF EF BB). A refusal does not
say which kind of decoder it came from, so the decoder is asked: the same capability, on the
input up to its first error (well-formed, and beginning with the signature).
"""

from __future__ import annotations

import dataclasses
from typing import Final

from utf8cert.harness.check.diagnose import OFFSET_AFTER_SIGNATURE
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import Expected
from utf8cert.harness.codec.interface import Capability, Codec, Failed, Inapplicable, Returned
from utf8cert.harness.vectors.model import DEFAULT_DECODE_LEVELS

WRONG_OFFSET: Final = "wrong error offset"


def strips_signature(codec: Codec, capability: Capability, expected: Expected) -> bool | None:
    """Return whether the decoder strips the leading signature of `expected`'s input, as it
    answers the input up to the first error: True (text without U+FEFF first), False (U+FEFF
    kept, or a refusal of that well-formed prefix), None when it cannot tell (no error, no
    answer: an inapplicable or failed question)."""
    if expected.first_error is None:
        return None
    prefix = expected.data[: expected.first_error]
    if capability == "incremental":
        outcome = codec.decode_chunks([prefix], False)
    else:
        outcome = codec.decode(prefix)
    if isinstance(outcome, Failed | Inapplicable):
        return None
    if isinstance(outcome, Returned):
        text = outcome.value
        return isinstance(text, str | tuple) and text[:1] not in ("\ufeff", (0xFEFF,))
    return False


def kept_signature(
    codec: Codec, capability: Capability, expected: Expected, differences: list[Difference]
) -> list[Difference]:
    """Return `differences`, with an offset counted after the signature regraded as a wrong
    error offset (at the default level, `should`) when the decoder keeps the signature (see
    the module); as they are otherwise, without asking anything when there is none."""
    if not any(difference.what == OFFSET_AFTER_SIGNATURE for difference in differences):
        return differences
    if strips_signature(codec, capability, expected) is not False:
        return differences
    level = DEFAULT_DECODE_LEVELS["errors"]
    return [
        dataclasses.replace(difference, level=level, what=WRONG_OFFSET)
        if difference.what == OFFSET_AFTER_SIGNATURE
        else difference
        for difference in differences
    ]
