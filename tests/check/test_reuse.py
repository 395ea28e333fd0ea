"""A codec judged over its life (issue 40): a decoder used before, one-shot answers after other
questions, encoders graded by what they wrote in place of an unencodable value.

Independent evidence: the peer suite ExodusOSS/bytes tests/encoding/mistakes.test.js (exported
to web-platform-tests as encoding/textdecoder-mistakes.any.js, PR 56892, December 2025): its
STATE cases, run here on the codecs of support/reuse_codecs.py through the WHATWG calls they
stand for, say which decoders are right; the reuse judge must say the same. CPython's own codec
and utf8cert's reference must stay clean. In-process: no CLI but one run.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import pytest
from support import reuse_codecs
from support.cli_runs import check

from utf8cert.harness.check.compare import compare_encode, compare_incremental
from utf8cert.harness.check.expected import ExpectedEncoding, expectation_for
from utf8cert.harness.check.modes import HeldMode
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629, WHATWG
from utf8cert.harness.check.reuse import REUSE, reuse_differences
from utf8cert.harness.codec.handshake import read_handshake
from utf8cert.harness.codec.interface import Capability, Earlier, Inapplicable, Returned
from utf8cert.harness.codec.protocol import Request, parse_request, request_line
from utf8cert.harness.codec.spec import load_codec

DECODING: tuple[Capability, ...] = ("decode", "replace", "validate", "incremental")


def reuse_levels(spec: str, profile: Profile = RFC3629) -> set[str]:
    """Return the levels of the reuse differences of an in-process codec."""
    codec = load_codec(spec)
    found = reuse_differences(codec, profile, HeldMode.of(codec), DECODING)
    assert found.not_asked == ""
    return {difference.level for difference in found.differences}


@pytest.mark.parametrize(
    ("name", "profile"),
    [
        ("ErrorsIgnoredAfterFirst", RFC3629),
        ("TailKeepingDecoder", RFC3629),
        ("SkipsAfterTruncatedEnd", RFC3629),
        ("StickyBomAfterError", WHATWG),
        ("NoResetAfterFinal", WHATWG),
    ],
)
def test_a_decoder_that_goes_wrong_when_used_again_is_not_conformant(
    name: str, profile: Profile
) -> None:
    assert "must" in reuse_levels(f"support.reuse_codecs:{name}", profile)


@pytest.mark.parametrize(
    ("spec", "profile"),
    [
        ("codec:utf-8", RFC3629),
        ("codec:utf-8:replace", RFC3629),
        ("utf8cert.reference", RFC3629),
        ("support.hand_rolled:HandRolled", RFC3629),
        ("support.reuse_codecs:BomStripper", WHATWG),
    ],
)
def test_decoders_that_start_afresh_stay_clean(spec: str, profile: Profile) -> None:
    assert reuse_levels(spec, profile) == set()


def test_under_rfc_3629_a_signature_kept_once_stripped_once_is_a_may() -> None:
    # RFC 3629 §6 lets a decoder strip a signature or keep it: either answer is right, and a
    # decoder that does both, by what it was asked before, departs at the level of that choice.
    assert reuse_levels("support.reuse_codecs:NoResetAfterFinal") == {"may"}
    assert reuse_levels("codec:utf-8-sig") == {"may"}  # CPython's: final=True does not reset


def test_a_reuse_difference_names_the_event_and_the_codecs_two_answers() -> None:
    codec = load_codec("support.reuse_codecs:ErrorsIgnoredAfterFirst")
    found = reuse_differences(codec, RFC3629, HeldMode.of(codec), DECODING).differences
    after_error = [d for d in found if d.variant.startswith("reused after an error")]
    assert after_error and all(d.level == "must" for d in after_error)
    first = after_error[0]
    assert "reset()" in first.variant and "fresh: refused" in first.actual
    from utf8cert.harness.check.behaviour import behaviour_of

    assert str(behaviour_of(first)) == f"decode: {REUSE} (after an error)"


def whatwg_calls(decoder: object, calls: Sequence[tuple[bytes, bool]]) -> list[str | None]:
    """Return what a Python incremental decoder gives for TextDecoder.decode(bytes, {stream})
    calls (None: it raised): a call without stream is final=True; after a raise, reset(), the
    rule the judge holds (check/reuse.py)."""
    answers: list[str | None] = []
    for data, stream in calls:
        try:
            answers.append(decoder.decode(data, not stream))  # type: ignore[attr-defined]
        except UnicodeDecodeError:
            answers.append(None)
            decoder.reset()  # type: ignore[attr-defined]
    return answers


# textdecoder-mistakes.any.js, 'Sticky fatal BOM: utf-8' (Firefox failed it).
STICKY_FATAL_BOM = (
    [(b"\xff", False), (b"\xef\xbb\xbf", False), (b"\xff", False), (b"\xef\xbb\xbf@", False)],
    [None, "", None, "@"],
)
# The same file, 'BOM splitting / repeats: utf-8' (Bun failed it), its first four streams.
BOM_SPLITTING = (
    [
        (b"\x01\x02", True),
        (b"\x03", False),
        (b"\xef\xbb", True),
        (b"\xbf", True),
        (b"\xef\xbb", True),
        (b"\xbf", True),
        (b"B", False),
        (b"", True),
        (b"\xef\xbb", True),
        (b"\xbf\x43", False),
        (b"\xef", True),
        (b"\xbb\xbf\x2a\x2b", False),
    ],
    ["\x01\x02", "\x03", "", "", "", "\ufeff", "B", "", "", "C", "", "*+"],
)


PEER_CASES = (STICKY_FATAL_BOM, BOM_SPLITTING)


def fails_the_peer_suite(name: str) -> bool:
    """Return whether a codec's incremental decoder fails one of the peer suite's cases."""
    codec = getattr(reuse_codecs, name)()
    return any(whatwg_calls(codec.incremental_decoder(), c) != w for c, w in PEER_CASES)


@pytest.mark.parametrize("name", ["BomStripper", "StickyBomAfterError", "NoResetAfterFinal"])
def test_the_peer_suites_state_cases_and_the_reuse_judge_agree(name: str) -> None:
    fails = fails_the_peer_suite(name)
    assert fails == (name != "BomStripper")
    assert ("must" in reuse_levels(f"support.reuse_codecs:{name}", WHATWG)) == fails


def test_a_bom_split_across_chunks_and_kept_is_caught_by_the_runs_own_chunkings() -> None:
    # Bun's mistake is a fresh decoder's: the peer suite catches it, and so does the run
    # (a BOM fed byte by byte), not the reuse questions.
    assert fails_the_peer_suite("BomOnlyInOneChunk")
    spec = "support.reuse_codecs:BomOnlyInOneChunk"
    assert "must" not in reuse_levels(spec, WHATWG)
    codec = load_codec(spec)
    found = compare_incremental(
        codec, expectation_for(b"\xef\xbb\xbfA"), ("v", "as-is"), profile=WHATWG
    )
    assert "must" in {difference.level for difference in found}


def encoded(encoder: str, *scalars: int) -> set[tuple[str, str]]:
    codec = load_codec(f"support.reuse_codecs:{encoder}")
    expected = ExpectedEncoding(tuple(scalars), None, list(scalars).index(0xD800))
    return {(d.level, d.what) for d in compare_encode(codec, expected, ("v", "as-is"))}


def test_an_encoder_writing_a_character_of_its_own_for_a_lone_surrogate_is_must() -> None:
    other = ("must", "wrote a different character for an unencodable value")
    assert encoded("WritesLetterForSurrogate", 0x41, 0xD800) == {other}
    assert encoded("ReadsSurrogateAsPair", 0xD800) == {other}  # F0 90 80 80: U+10000
    # D800 D7FF read as one pair: U+103FF, the U+D7FF lost.
    assert encoded("ReadsSurrogateAsPair", 0xD800, 0xD7FF) == {
        ("must", "wrote other text for an unencodable value")
    }


def test_an_encoder_writing_a_replacement_for_a_lone_surrogate_stays_should() -> None:
    substituted = ("should", "substituted a character for an unencodable value")
    assert encoded("WritesReplacementForSurrogate", 0x41, 0xD800) == {substituted}
    assert encoded("WritesQuestionMarkForSurrogate", 0x41, 0xD800) == {substituted}


def test_a_reuse_request_travels_over_the_protocol_and_back() -> None:
    request = Request(
        "incremental",
        chunks=(b"\xac", b""),
        before=(Earlier((b"\xe2\x82", b"\xff"), True, True), Earlier((b"A",), False, False)),
    )
    line = request_line(request)
    assert line == "reuse 0 e282 ff reset - 41 next 0 ac -"
    assert parse_request(line) == request
    assert read_handshake("utf8cert-protocol 2 incremental reuse=yes").reuse
    assert not read_handshake("utf8cert-protocol 2 incremental").reuse


def test_a_program_that_does_not_announce_reuse_is_never_sent_a_reuse_request() -> None:
    from utf8cert.harness.codec.isolate import ProcessCodec

    program = [sys.executable, "-c", "print('utf8cert-protocol 2 incremental', flush=True)"]
    codec = ProcessCodec("cmd:silent", program, timeout=10, description="no reuse")
    try:
        answer = codec.decode_after([Earlier((b"A",))], [b"B"], False)
        assert isinstance(answer, Inapplicable) and "reuse=yes" in answer.reason
    finally:
        codec.close()


def test_an_isolated_python_codec_is_reused_in_its_child() -> None:
    from utf8cert.harness.codec.isolate import ProcessCodec

    # The child (serve.py) announces reuse=yes and feeds one decoder object: CPython's keeps
    # the bytes it held when a call raised, and reset() clears them.
    codec = load_codec("codec:utf-8", isolate=True)
    assert isinstance(codec, ProcessCodec)
    try:
        after = [Earlier((b"A\xe2", b"\x82\xff"), True, True)]
        assert codec.decode_after(after, [b"B"], False) == Returned("B")
    finally:
        codec.close()


@pytest.mark.slow
def test_the_check_names_the_reuse_behaviour_and_fails() -> None:
    # One whole-CLI run (in process), on one vector: the reuse questions are asked whatever
    # the vectors.
    done = check("support.reuse_codecs:ErrorsIgnoredAfterFirst", "--vector", "wf-1")
    assert done.status == 1, done.out + done.err
    assert f"must: decode: {REUSE} (after an error)" in done.out
    assert "reused (the same decoder after each event): asked" in done.out
