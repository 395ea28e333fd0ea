"""One input's answers side by side: what the reference (or the profile) gives for each
capability, and what the codec gave (`utf8cert check --input HEX`)."""

from __future__ import annotations

from dataclasses import dataclass

from utf8cert.harness.check.compare import describe_expected
from utf8cert.harness.check.diagnose import describe_outcome
from utf8cert.harness.check.expected import expectation_for
from utf8cert.harness.check.probe import encoder_request
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.codec.interface import Capability, Codec, Outcome

DECODING: tuple[Capability, ...] = ("decode", "replace", "validate", "incremental")


@dataclass(frozen=True)
class InputAnswer:
    """One capability's answer to the whole input, beside the expected one."""

    capability: Capability
    question: str
    """What was asked: the input's bytes, or the code points an encoder was offered."""
    expected: str
    actual: str


def input_answers(codec: Codec, data: bytes, profile: Profile = RFC3629) -> list[InputAnswer]:
    """Return each offered capability's answer to `data` fed whole, beside the expected one
    ([] for a codec that offers nothing). An incremental decoder gets `data` as one chunk; the
    check itself also cuts it (run.check_input)."""
    reference = expectation_for(data)
    asked = data.hex(" ") or "(no bytes)"
    outcomes: list[tuple[Capability, Outcome]] = []
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
        outcomes.append((capability, outcome))
    answers = [
        InputAnswer(
            capability,
            asked,
            describe_expected(profile.expect(reference, capability), capability),
            describe_outcome(out),
        )
        for capability, out in outcomes
    ]
    if "encode" in codec.capabilities:
        request = profile.expect_encoding(encoder_request(reference))
        offered = " ".join(f"U+{value:04X}" for value in request.scalars) or "(none)"
        answers.append(
            InputAnswer(
                "encode",
                offered,
                describe_expected(request, "encode"),
                describe_outcome(codec.encode(request.scalars)),
            )
        )
    return answers
