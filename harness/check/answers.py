"""One input's answers side by side: what the reference (or the profile) gives for each
capability, and what the codec gave (`utf8cert check --input HEX`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from utf8cert.harness.check.compare import describe_expected
from utf8cert.harness.check.describe import describe_outcome
from utf8cert.harness.check.expected import Expected, expectation_for
from utf8cert.harness.check.probe import encoder_requests
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.codec.interface import Capability, Codec

DECODING: tuple[Capability, ...] = ("decode", "replace", "validate", "incremental")
SHOWN: Final = 64
"""At most this many bytes (or code points) of an input are named in full."""
EDGE: Final = 8
"""How many are shown at each end of a longer one."""


@dataclass(frozen=True)
class InputAnswer:
    """One capability's answer to the whole input, beside the expected one."""

    capability: Capability
    question: str
    """What was asked: the input's bytes, or the code points an encoder was offered."""
    expected: str
    actual: str


def short_hex(data: bytes) -> str:
    """Return the bytes as spaced hex, or for more than SHOWN bytes the first and last few and
    the count ('(no bytes)' for b''): a 100 MB input is named, not printed."""
    if len(data) <= SHOWN:
        return data.hex(" ") or "(no bytes)"
    return f"{data[:EDGE].hex(' ')} … {data[-EDGE:].hex(' ')} ({len(data):,} bytes)"


def _short_code_points(values: Sequence[int]) -> str:
    """Return code points as U+XXXX, the first and last few of more than SHOWN, or '(none)'."""
    if len(values) > SHOWN:
        head, tail = _short_code_points(values[:EDGE]), _short_code_points(values[-EDGE:])
        return f"{head} … {tail} ({len(values):,} code points)"
    return " ".join(f"U+{value:04X}" for value in values) or "(none)"


def input_answers(
    codec: Codec, data: bytes, profile: Profile = RFC3629, reference: Expected | None = None
) -> list[InputAnswer]:
    """Return each offered capability's answer to `data` fed whole, beside the expected one
    ([] for a codec that offers nothing). An incremental decoder gets `data` as one chunk; the
    check itself also cuts it (run.check_input). Each answer is described (in a few words, see
    diagnose.py) as soon as it comes, so that no two decoded copies of a large input are held.
    The encoder is offered what check_input offers it first (all of a short input's code
    points, the first piece of a long one's). `reference` is `expectation_for(data)` when the
    caller has it already."""
    reference = expectation_for(data) if reference is None else reference
    asked = short_hex(data)
    answers = []
    for capability in DECODING:
        if capability not in codec.capabilities:
            continue
        if capability == "decode":
            outcome = codec.decode(data)
        elif capability == "replace":
            outcome = codec.decode_replace(data)
        elif capability == "validate":
            outcome = codec.validate(data)
        else:
            outcome = codec.decode_chunks([data], False)
        # RFC 3629 rereads nothing; profile.expect would also keep the input's text as its memo.
        judged = reference if profile.is_reference else profile.expect(reference, capability)
        expected = describe_expected(judged, capability)
        answers.append(InputAnswer(capability, asked, expected, describe_outcome(outcome)))
        del outcome  # as large as the input's text
    if "encode" in codec.capabilities:
        first, _ = next(encoder_requests(reference))
        request = profile.expect_encoding(first)
        answers.append(
            InputAnswer(
                "encode",
                _short_code_points(request.scalars),
                describe_expected(request, "encode"),
                describe_outcome(codec.encode(request.scalars)),
            )
        )
    return answers
