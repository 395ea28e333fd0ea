"""The one definition of a difference: a codec's outcome for one input against the expectation.

`utf8cert check`, the pytest plugin and the fuzzer all call these functions, so a difference
means the same thing wherever it is found. Each function asks the codec once (or once per
chunking), judges the answer (judge.py) against what `profile` expects (RFC 3629 unless told;
profile.py), and returns the differences found, [] when the codec did what is expected.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence

from utf8cert.harness.check.describe import (
    describe_act,
    describe_bytes,
    describe_outcome,
    describe_text,
)
from utf8cert.harness.check.diagnose import Finding
from utf8cert.harness.check.difference import Difference, Label
from utf8cert.harness.check.expected import Expected, ExpectedEncoding
from utf8cert.harness.check.fingerprint import (
    DIALECTS,
    Contradictions,
    contradicting,
    explaining,
)
from utf8cert.harness.check.judge import judge, judge_text
from utf8cert.harness.check.late_refusal import refused_late
from utf8cert.harness.check.modes import HeldMode, Mode
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.check.signature import kept_signature
from utf8cert.harness.codec.interface import FAILURE_WHAT, Capability, Codec, Failed, Outcome


def describe_expected(
    expected: Expected | ExpectedEncoding, capability: Capability, mode: Mode | None = None
) -> str:
    """Return the expected outcome in a few words, as the report prints it (`mode`: the
    incremental decoder's, when held: modes.py)."""
    if isinstance(expected, ExpectedEncoding):
        if expected.encoded is None:
            return f"refusal at index {expected.error_index}"
        return describe_bytes(expected.encoded)
    if capability == "validate":
        return str(expected.valid)
    if expected.text is not None:
        return describe_text(expected.text)
    if capability == "replace":
        return describe_text(expected.replaced)
    if capability == "incremental" and mode == "replace":
        return describe_text(expected.replaced)
    if capability == "incremental" and mode is None:
        return f"refusal, or {describe_text(expected.replaced)}"
    return f"refusal at offset {expected.first_error}"


def _difference(
    verdict: Finding | Failed,
    expected: Expected | ExpectedEncoding,
    outcome: Outcome,
    capability: Capability,
    label: Label,
    mode: Mode | None = None,
) -> Difference:
    """Return the Difference a verdict makes (a failure is always must)."""
    finding: Finding
    if isinstance(verdict, Failed):
        outcome, finding = verdict, ("must", FAILURE_WHAT[verdict.kind], ())
    else:
        finding = verdict
    level, what, marks = finding
    data = expected.data if isinstance(expected, Expected) else expected.scalars
    described = describe_expected(expected, capability, mode)
    actual = describe_outcome(outcome)
    return Difference(
        *label, capability, level, what, data, described, actual, expected.span, marks
    )


def differences_of(
    expected: Expected | ExpectedEncoding,
    outcome: Outcome,
    capability: Capability,
    label: Label,
    profile: Profile = RFC3629,
    contradicted: Contradictions | None = None,
    mode: Mode | None = None,
) -> list[Difference]:
    """Return [] when an answer is what `profile` expects, else the one Difference it makes
    (`mode`: the incremental decoder's mode, when held: modes.py).

    Under RFC 3629 a `must` difference carries the profiles that would explain it, and a right
    answer notes in `contradicted` (when given) the profiles it rules out (fingerprint.py);
    under another profile an answer that differs from RFC 3629 only as the profile allows comes
    back as a Difference with `allowed_by` set.
    """
    if type(outcome) is Failed and outcome.cut_short:
        return []  # skipped after a hang elsewhere (codec/pace.py): a slow answer is no hang
    judged = (
        expected  # RFC 3629 rereads nothing: spare the call on every question
        if profile is RFC3629
        else profile.expect_encoding(expected)
        if isinstance(expected, ExpectedEncoding)
        else profile.expect(expected, capability)
    )
    verdict = (
        judge_text(judged, outcome, capability, mode)  # the most frequent question, directly
        if capability == "incremental" and isinstance(judged, Expected)
        else judge(judged, outcome, capability, mode)
    )
    if verdict is not None:
        difference = _difference(verdict, judged, outcome, capability, label, mode)
        if profile.is_reference and difference.level == "must":
            names = explaining(expected, outcome, capability, mode)
            difference = dataclasses.replace(difference, explained_by=names)
        return [difference]
    if judged is expected:
        # Once every dialect is ruled out, a right answer is rejudged under none.
        if contradicted is not None and len(contradicted) < len(DIALECTS) and profile is RFC3629:
            for name, _ in contradicting(expected, outcome, capability, contradicted, mode):
                # Named by what the codec did (right under RFC 3629), never by the dialect's
                # judgement of it: 'rejected well-formed input' of a codec that rejected nothing.
                contradicted[name] = f"{label[0]}, {capability}: {describe_act(outcome)}"
        return []
    departure = judge(expected, outcome, capability, mode)
    if departure is None:
        return []
    allowed = _difference(departure, expected, outcome, capability, label, mode)
    return [dataclasses.replace(allowed, allowed_by=profile.name)]


def compare_decode(
    codec: Codec,
    expected: Expected,
    label: Label,
    profile: Profile = RFC3629,
    contradicted: Contradictions | None = None,
) -> list[Difference]:
    """Return how strict decoding departs from `expected`: verdict, text, error offset."""
    differences = differences_of(
        expected, codec.decode(expected.data), "decode", label, profile, contradicted
    )
    return kept_signature(codec, "decode", expected, differences)


def compare_replace(
    codec: Codec,
    expected: Expected,
    label: Label,
    profile: Profile = RFC3629,
    contradicted: Contradictions | None = None,
) -> list[Difference]:
    """Return how decoding with U+FFFD departs from `expected` (exact output)."""
    outcome = codec.decode_replace(expected.data)
    return differences_of(expected, outcome, "replace", label, profile, contradicted)


def compare_validate(
    codec: Codec,
    expected: Expected,
    label: Label,
    profile: Profile = RFC3629,
    contradicted: Contradictions | None = None,
) -> list[Difference]:
    """Return how the validator's verdict departs from `expected` ([] when it agrees).

    A validator that raises ValueError on ill-formed input has said no.
    """
    outcome = codec.validate(expected.data)
    return differences_of(expected, outcome, "validate", label, profile, contradicted)


def chunkings(
    expected: Expected, cuts: Sequence[int] | None = None, bytewise: bool = True
) -> Iterator[tuple[str, list[bytes]]]:
    """Yield (description, chunks) for each way to feed the input: whole, bytewise, cut in two.

    Bytewise (unless turned off), only the bytes under test (the window) are fed one at a time.
    The input is cut in two at each of `cuts`, or, when None, at every point inside and at the
    edges of the window.
    """
    data = expected.data
    yield "whole", [data]
    start, end = expected.span
    if end - start == 0 or len(data) < 2:
        return
    if bytewise:
        before, after = [data[:start]] if start else [], [data[end:]] if end < len(data) else []
        yield "bytewise", [*before, *(data[i : i + 1] for i in range(start, end)), *after]
    if cuts is None:
        cuts = range(max(1, start), min(len(data) - 1, end) + 1)
    for cut in cuts:
        yield f"cut at {cut}", [data[:cut], data[cut:]]


def compare_chunks(
    codec: Codec,
    expected: Expected,
    chunks: Sequence[bytes],
    final_empty: bool,
    label: Label,
    profile: Profile = RFC3629,
    contradicted: Contradictions | None = None,
    held: HeldMode | None = None,
) -> list[Difference]:
    """Return how incremental decoding of `chunks` departs from the one-shot expectation.

    Ill-formed input may be refused (a strict decoder; its offset in the whole input is checked
    when the adapter can tell it) or replaced (a replacing decoder): each is the one-shot
    result of its mode, and the mode `held` for the run (modes.py) is the only one right.
    """
    outcome = codec.decode_chunks(chunks, final_empty)
    mode = None if held is None else held.judging(expected.valid, outcome, ", ".join(label))
    differences = differences_of(
        expected, outcome, "incremental", label, profile, contradicted, mode
    )
    return kept_signature(codec, "incremental", expected, differences)


def compare_incremental(
    codec: Codec,
    expected: Expected,
    label: Label,
    cuts: Sequence[int] | None = None,
    bytewise: bool = True,
    profile: Profile = RFC3629,
    contradicted: Contradictions | None = None,
    held: HeldMode | None = None,
) -> list[Difference]:
    """Return the differences of incremental decoding over every chunking (see `chunkings`),
    with and without a final empty chunk, judged in the mode `held`; the variant of each names
    the chunking."""
    differences: list[Difference] = []
    vector, variant = label
    for description, chunks in chunkings(expected, cuts, bytewise):
        for final_empty in (False, True):
            suffix = ", then final b''" if final_empty else ""
            chunk_label = (vector, f"{variant}, {description}{suffix}")
            differences += compare_chunks(
                codec, expected, chunks, final_empty, chunk_label, profile, contradicted, held
            )
    return differences


def compare_encode(
    codec: Codec,
    expected: ExpectedEncoding,
    label: Label,
    profile: Profile = RFC3629,
    contradicted: Contradictions | None = None,
) -> list[Difference]:
    """Return how strict encoding departs from `expected`: the bytes, or the refusal and index
    (a refusal past an unencodable value the encoder wrote is named by what it wrote:
    late_refusal.py)."""
    outcome = codec.encode(expected.scalars)
    differences = differences_of(expected, outcome, "encode", label, profile, contradicted)
    return refused_late(codec, expected, outcome, differences)


def compare(
    codec: Codec,
    capability: Capability,
    expected: Expected,
    label: Label = ("input", "as-is"),
    cuts: Sequence[int] | None = None,
    bytewise: bool = True,
    profile: Profile = RFC3629,
    contradicted: Contradictions | None = None,
    held: HeldMode | None = None,
) -> list[Difference]:
    """Return the differences of one decoding capability on one input ([] if none); `cuts` and
    `bytewise` say how incremental decoding is fed (see `chunkings`) and `held` in which mode it
    is judged (modes.py); `contradicted`, when given, counts the dialect profiles right answers
    contradict (`differences_of`). Encoding takes code points, not bytes: ask
    `compare_encode`."""
    if capability == "decode":
        return compare_decode(codec, expected, label, profile, contradicted)
    if capability == "replace":
        return compare_replace(codec, expected, label, profile, contradicted)
    if capability == "validate":
        return compare_validate(codec, expected, label, profile, contradicted)
    if capability == "incremental":
        return compare_incremental(
            codec, expected, label, cuts, bytewise, profile, contradicted, held
        )
    raise ValueError(f"compare() judges decoding; for {capability!r} call compare_encode()")
