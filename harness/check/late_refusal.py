"""What an encoder did with the values it passed before a refusal that came too late.

An encoder refused at index i, past the first value that has no UTF-8 form (RFC 3629 §3): the
index is wrong (`should`), but that is the milder half of the answer. Either the encoder counts
its index otherwise (GLib's `g_utf16_to_utf8` names the place after a lone high surrogate), or
it wrote the unencodable value and went on (`IntlChar::chr` writes `ED A0 80` for U+D800, then
fails on U+110000): a `must` departure that the index alone hides. A refusal does not say which,
so the encoder is asked: the same capability, on the values before its refusal. When it writes
them, the difference is what writing them is, with its own name and level, if graver (the
gravest name wins); when it refuses them too, or that prefix is the whole input, the difference
stays a wrong index.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from utf8cert.harness.check.describe import describe_bytes, describe_text
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import ExpectedEncoding
from utf8cert.harness.check.fingerprint import explaining
from utf8cert.harness.check.judge import judge_encode
from utf8cert.harness.codec.interface import Codec, Outcome, Refused, Returned
from utf8cert.harness.vectors.model import LEVELS, Level

WRONG_INDEX: Final = "wrong error index"


def passed_prefix(expected: ExpectedEncoding, outcome: Outcome) -> tuple[int, ...] | None:
    """Return the values an encoder passed before refusing too late (index past the first
    unencodable value and inside the input), or None when there is nothing to ask."""
    if expected.error_index is None or not isinstance(outcome, Refused):
        return None
    if outcome.offset is None or not expected.error_index < outcome.offset < len(expected.scalars):
        return None
    return expected.scalars[: outcome.offset]


def refused_late(
    codec: Codec, expected: ExpectedEncoding, outcome: Outcome, differences: list[Difference]
) -> list[Difference]:
    """Return `differences`, with a wrong error index renamed and regraded as what the encoder
    wrote for the values before it when that is graver (see the module); as they are, without
    asking anything, when no difference is a wrong index past the first unencodable value."""
    prefix = passed_prefix(expected, outcome)
    if prefix is None or not any(d.what == WRONG_INDEX and not d.allowed_by for d in differences):
        return differences
    written = codec.encode(prefix)
    if not isinstance(written, Returned) or not isinstance(written.value, bytes):
        return differences  # refused (it counts its index otherwise), failed or inapplicable
    before = dataclasses.replace(expected, scalars=prefix, encoded=None, window=None)
    verdict = judge_encode(before, written)
    if not isinstance(verdict, tuple):
        return differences  # None cannot be (a refusal was due); a failure is not this answer
    level, what, marks = verdict
    actual = f"wrote {describe_bytes(written.value)} for {describe_text(prefix)}, then "
    explained = explaining(expected, outcome, "encode") if level == "must" else ()

    def graver(other: Level) -> bool:
        return LEVELS.index(level) <= LEVELS.index(other)  # the written act's name wins a tie

    return [
        dataclasses.replace(
            d, level=level, what=what, marks=marks, actual=actual + d.actual, explained_by=explained
        )
        if d.what == WRONG_INDEX and not d.allowed_by and graver(d.level)
        else d
        for d in differences
    ]
