"""The judgement of one answer: what is wrong with a codec's outcome given an expectation.

Pure functions of (expectation, outcome, capability), so that the same answer can be judged
against the reference's expectation and a dialect profile's (profile.py) without asking the codec
again: compare.py asks, and judges with these; the fingerprint rejudges with them.
"""

from __future__ import annotations

import dataclasses

from utf8cert.harness.check.diagnose import (
    SIGNATURE_LEVEL,
    Finding,
    encode_mismatch,
    offset_mismatch,
    replaced_mismatch,
    text_mismatch,
)
from utf8cert.harness.check.difference import Marks
from utf8cert.harness.check.expected import Decoded, Expected, ExpectedEncoding
from utf8cert.harness.check.extent import decode_end_mismatch, encode_end_mismatch
from utf8cert.harness.check.modes import Mode
from utf8cert.harness.check.timeliness import held_back
from utf8cert.harness.codec.interface import Capability, Failed, Outcome, Refused, Returned
from utf8cert.harness.vectors.model import DEFAULT_DECODE_LEVELS
from utf8cert.reference import SIGNATURE

Verdict = Finding | Failed | None
"""What is wrong with one outcome: a finding, a misbehaviour, or nothing (None)."""

BOM = "\ufeff"


def error_marks(expected: Expected) -> Marks:
    """Return (start, end) of every maximal subpart of the input (() for well-formed input)."""
    return tuple((error.offset, error.offset + error.length) for error in expected.errors)


def wrong_type(value: object, wanted: str) -> Failed:
    """Return the failure of returning `value` where a `wanted` was due."""
    return Failed("wrong-type", f"returned {type(value).__name__}, not {wanted}")


def _without_signature(expected: Expected) -> Expected:
    """Return `expected` less the U+FEFF of its leading signature, at the default levels."""
    return dataclasses.replace(
        expected,
        text=None if expected.text is None else expected.text[1:],
        replaced=expected.replaced[1:],
        levels=DEFAULT_DECODE_LEVELS,
    )


def _shifted(finding: Finding, by: int) -> Finding:
    """Return `finding` with its marks moved by `by` bytes."""
    level, what, marks = finding
    return level, what, tuple((start + by, end + by) for start, end in marks)


def _begins_with_bom(text: Decoded) -> bool:
    """Return whether decoded text (a str or code points) begins with U+FEFF."""
    return text[:1] in (BOM, (ord(BOM),))


def _judge_signed_text(expected: Expected, text: Decoded, capability: Capability) -> Verdict:
    """Return what is wrong with `text` decoded from input that begins with a signature.

    RFC 3629 §6: stripping the signature is the protocol's choice, graded `may` alone; whatever
    else is wrong in the text keeps its own level (the vector's relaxed levels are for the
    signature only).
    """
    rest = _without_signature(expected)
    verdict = _judge_returned_text(rest, text, capability)
    if verdict is None:
        return SIGNATURE_LEVEL, "signature stripped", ((0, len(SIGNATURE)),)
    if _begins_with_bom(text):  # the signature kept: the rest is judged at the default levels
        whole = dataclasses.replace(expected, levels=DEFAULT_DECODE_LEVELS)
        return _judge_returned_text(whole, text, capability)
    if isinstance(verdict, Failed) or rest.text is None:
        return verdict  # marks of ill-formed input are byte offsets already
    return _shifted(verdict, len(SIGNATURE))  # text marks count from after the signature


def _judge_returned_text(expected: Expected, text: Decoded, capability: Capability) -> Verdict:
    """Return what is wrong with text a decoder returned (no signature rule)."""
    if expected.text is not None:
        return None if text == expected.text else text_mismatch(expected, text)
    if capability == "decode":
        return expected.levels["valid"], "accepted ill-formed input", error_marks(expected)
    return None if text == expected.replaced else replaced_mismatch(expected, text)


def judge_text(
    expected: Expected, outcome: Outcome, capability: Capability, mode: Mode | None = None
) -> Verdict:
    """Return what is wrong with decoded text, or a refusal, given the expectation.

    A strict decoder must refuse ill-formed input, at the first error's offset when it says
    one; a replacing one must give the replaced text; an incremental one may do either, unless
    its `mode` is held (modes.py): then the other mode is a `must` difference.
    """
    if isinstance(outcome, Failed):
        return outcome
    verdict = _judge_text(expected, outcome, capability)
    if capability != "incremental":
        return verdict
    if mode is not None and expected.text is None:
        verdict = _held(expected, outcome, mode, verdict)
    return held_back(expected, outcome) if verdict is None else verdict


def _judge_text(expected: Expected, outcome: Outcome, capability: Capability) -> Verdict:
    """Return what is wrong with decoded text, or a refusal (judge_text, less the mode)."""
    if isinstance(outcome, Refused):
        if expected.data.startswith(SIGNATURE):  # the vector's relaxed levels are the signature's
            expected = dataclasses.replace(expected, levels=DEFAULT_DECODE_LEVELS)
        if expected.text is not None:
            at = () if outcome.offset is None else ((outcome.offset, outcome.offset + 1),)
            return expected.levels["valid"], "rejected well-formed input", at
        if capability == "replace":
            return expected.levels["replaced"], "refused instead of replacing", ()
        if outcome.offset is not None and outcome.offset != expected.first_error:
            return offset_mismatch(expected, outcome.offset)
        return decode_end_mismatch(expected, outcome)
    if not isinstance(outcome, Returned):
        return None  # Inapplicable: nothing was asked
    text = outcome.value
    due = expected.replaced if expected.text is None else expected.text
    if text == due and (expected.text is not None or capability != "decode"):
        # The common case first: the answer due (for ill-formed input, the replaced text: a
        # strict decoder that returns it has accepted the input, and is judged below).
        return None
    if not isinstance(text, str | tuple):
        return wrong_type(text, "str")
    if expected.data.startswith(SIGNATURE) and _begins_with_bom(expected.replaced):
        return _judge_signed_text(expected, text, capability)
    return _judge_returned_text(expected, text, capability)


def _held(expected: Expected, outcome: Outcome, mode: Mode, verdict: Verdict) -> Verdict:
    """Return the verdict on an incremental decoder's answer to ill-formed input given the mode
    it is held to: an answer in the other mode is a `must` difference (modes.py)."""
    if mode == "replace" and isinstance(outcome, Refused):
        return "must", "refused ill-formed input in replace mode", error_marks(expected)
    lesser = verdict is None or (not isinstance(verdict, Failed) and verdict[0] != "must")
    if mode == "strict" and isinstance(outcome, Returned) and lesser:
        return "must", "replaced ill-formed input in strict mode", error_marks(expected)
    return verdict


def judge_validate(expected: Expected, outcome: Outcome) -> Verdict:
    """Return what is wrong with a validator's verdict (a ValueError is a no)."""
    if isinstance(outcome, Failed):
        return outcome
    if isinstance(outcome, Returned) and not isinstance(outcome.value, bool):
        return wrong_type(outcome.value, "bool")
    if isinstance(outcome, Returned | Refused):
        said = isinstance(outcome, Returned) and outcome.value is True
        if said != expected.valid:
            what = "rejected well-formed input" if expected.valid else "accepted ill-formed input"
            return expected.levels["valid"], what, error_marks(expected)
    return None


def judge_encode(expected: ExpectedEncoding, outcome: Outcome) -> Verdict:
    """Return what is wrong with an encoder's bytes or refusal."""
    if isinstance(outcome, Failed):
        return outcome
    if isinstance(outcome, Returned) and not isinstance(outcome.value, bytes):
        return wrong_type(outcome.value, "bytes")
    finding = encode_mismatch(expected, outcome)
    if finding is None and isinstance(outcome, Refused) and expected.encoded is None:
        return encode_end_mismatch(expected, outcome)
    return finding


def judge(
    expected: Expected | ExpectedEncoding,
    outcome: Outcome,
    capability: Capability,
    mode: Mode | None = None,
) -> Verdict:
    """Return what is wrong with one answer of `capability` (None: nothing); `mode`: the
    incremental mode held (modes.py), None for either."""
    if capability == "encode":
        assert isinstance(expected, ExpectedEncoding)
        return judge_encode(expected, outcome)
    assert isinstance(expected, Expected)
    if capability == "validate":
        return judge_validate(expected, outcome)
    return judge_text(expected, outcome, capability, mode)
