"""Each deliberately broken codec (tests/support/broken_codecs.py) is caught with the difference its
defect must cause, and nothing else; the correct codecs pass with no difference at all."""

from __future__ import annotations

import codecs
from collections.abc import Iterable
from functools import cache

import pytest
from support.samples import few_of_each_kind

from utf8cert.harness.check.compare import compare_decode
from utf8cert.harness.check.describe import describe_text
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import expectation_for
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, Vector, VectorSet


@cache
def vectors() -> VectorSet:
    return load_vectors()


def by_id(vector_id: str) -> Vector:
    return next(vector for vector in vectors() if vector.id == vector_id)


NAMED = ("sec-1", "sec-3", "sec-4", "sec-10", "sec-34", "sec-36", "sec-37", "trunc-57", "bom-3")
SHOWING = ("bom-1", "bom-11", "bom-12", "dfa-265", "dfa-337", "trunc-16", "trunc-50")
"""Vectors outside the few of each kind on which a finding asserted below shows (a truncated
signature, the decomposed e acute, utf-8-sig's error offsets counted after the signature)."""
CHOSEN = (*few_of_each_kind(), *NAMED, *SHOWING, "rfc3629-7-4")
"""The vectors a broken codec is checked on: a few of each kind (a vector is judged the same
whatever else is checked) and those the tests below name or need."""


@cache
def chosen() -> VectorSet:
    """Return CHOSEN and every vector flagged no-normalization (the normalizing decoder's)."""
    flagged = {v.id for v in vectors() if "no-normalization" in v.flags}
    return only_these(vectors(), {*CHOSEN, *flagged})


@cache
def report(name: str, capabilities: tuple[Capability, ...], every_vector: bool = False) -> Report:
    """Return the check of support.broken_codecs:NAME on some capabilities (the others are not at
    fault), on CHOSEN or on every vector."""
    codec = load_codec(f"support.broken_codecs:{name}")
    return run_check(codec, vectors() if every_vector else chosen(), only=capabilities)


def kinds(differences: Iterable[Difference]) -> set[tuple[str, str, str]]:
    return {(d.capability, d.level, d.what) for d in differences}


def at(differences: Iterable[Difference], vector_id: str, variant: str = "as-is") -> Difference:
    return next(d for d in differences if d.vector == vector_id and d.variant == variant)


def flagged(differences: Iterable[Difference]) -> set[str]:
    """Return every flag of the vectors the differences are on."""
    return {flag for d in differences for flag in by_id(d.vector).flags}


def first_non_ascii(data: bytes) -> int:
    return next(index for index, byte in enumerate(data) if byte >= 0x80)


# Every vector: a correct codec passes them all. CPython's codec behind the same wrapper is slow.
@pytest.mark.parametrize(
    "name", ["HandRolled", pytest.param("CPythonUtf8", marks=pytest.mark.slow)]
)
@pytest.mark.slow
def test_a_correct_codec_passes_every_vector_in_every_variant(name: str) -> None:
    capabilities: tuple[Capability, ...] = (
        "decode",
        "replace",
        "validate",
        "encode",
        "incremental",
    )
    checked = report(name, capabilities, every_vector=True)
    assert checked.differences == []
    assert checked.conformant


@pytest.mark.slow
def test_the_reference_itself_passes_every_one_shot_capability() -> None:
    codec = load_codec("utf8cert.reference")
    checked = run_check(codec, vectors(), only=("decode", "replace", "validate", "encode"))
    assert checked.differences == []


@pytest.mark.slow
def test_the_reference_itself_passes_incremental_decoding() -> None:
    codec = load_codec("utf8cert.reference")
    assert run_check(codec, vectors(), only=("incremental",)).differences == []


def test_a_naive_bit_decoder_is_caught_accepting_overlongs_and_decodes_the_attack() -> None:
    differences = report("NaiveBitDecoder", ("decode",)).differences
    # Where it still refuses, it does so past an overlong it read (it reads an overlong lead
    # on): named by the overlong let through, not the offset (issue 33).
    assert kinds(differences) == {
        ("decode", "must", "accepted ill-formed input"),
        ("decode", "must", "let ill-formed input through, then refused"),
    }
    assert {"overlong", "surrogate"} <= flagged(differences)
    # RFC 3629 §10: 2F C0 AE 2E 2F is "/../" to such a decoder.
    assert at(differences, "sec-3").actual == describe_text("/../")


def test_a_decoder_that_drops_a_truncated_tail_is_caught_only_at_the_end_of_input() -> None:
    checked = report("TruncatedTailDropper", ("decode", "replace"))
    assert kinds(checked.differences) == {
        ("decode", "must", "accepted ill-formed input"),
        ("replace", "must", "dropped ill-formed input silently"),
        ("replace", "must", "dropped a truncated signature silently"),  # EF BB alone
        ("replace", "should", "wrong U+FFFD count"),  # where other errors come before
    }
    for difference in checked.differences:
        assert difference.input[-1:] != b"a"  # padded after, the tail is not at the end
        assert not by_id(difference.vector).valid  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("name", "vector_id", "count"),
    [("OneFffdPerByte", "trunc-57", 2), ("OneFffdPerBadRun", "sec-1", 1)],
)
def test_a_wrong_replacement_count_is_recommended_practice_only(
    name: str, vector_id: str, count: int
) -> None:
    checked = report(name, ("decode", "replace"))
    # Even in a vector that starts with a signature: only the signature is graded `may`.
    assert kinds(checked.differences) == {("replace", "should", "wrong U+FFFD count")}
    assert checked.conformant
    assert at(checked.differences, vector_id).actual.count("U+FFFD") == count


def test_an_error_merged_into_the_literal_u_fffd_before_it_is_a_deletion() -> None:
    # Issue 20: a replacing decoder that writes no U+FFFD for an error right after a U+FFFD,
    # a literal one included, loses the error: must, not a matter of counting.
    checked = report("MergesIntoFffd", ("replace",))
    assert not checked.conformant
    merged = at(checked.differences, "sec-34")  # EF BF BD C0
    assert (merged.level, merged.what) == ("must", "dropped ill-formed input silently")
    assert merged.actual == "U+FFFD"
    musts = {d.vector for d in checked.differences if d.level == "must"}
    assert {"sec-34", "sec-36", "sec-37"} <= musts


def test_a_cesu8_decoder_is_caught_joining_a_surrogate_pair() -> None:
    differences = report("Cesu8Decoder", ("decode",)).differences
    assert kinds(differences) == {
        ("decode", "must", "accepted ill-formed input"),
        # A surrogate read, then a refusal at a later error: the surrogate was let through.
        ("decode", "must", "let ill-formed input through, then refused"),
    }
    assert at(differences, "sec-10").actual == "U+233B4"
    assert flagged(differences) >= {"surrogate", "surrogate-pair"}


def test_an_aligned_fast_path_with_a_wrong_mask_is_caught_only_at_offsets_7_mod_8() -> None:
    differences = report("AlignedFastPath", ("decode",)).differences
    assert ("must", "accepted ill-formed input") in {(d.level, d.what) for d in differences}
    assert ("must", "rejected well-formed input") in {(d.level, d.what) for d in differences}
    assert "shift-7" in {d.variant for d in differences if d.level == "must"}
    assert "as-is" not in {d.variant for d in differences if len(d.input) < 8}
    for difference in differences:
        assert isinstance(difference.input, bytes)
        assert first_non_ascii(difference.input) % 8 == 7


def test_an_incremental_decoder_that_forgets_a_split_character_is_caught_at_the_cuts() -> None:
    differences = report("ChunkBoundaryDecoder", ("decode", "incremental")).differences
    assert {d.capability for d in differences} == {"incremental"}
    assert ("must", "lost the end of the text") in {(d.level, d.what) for d in differences}
    variants = {d.variant.partition(", ")[2] for d in differences}
    assert "whole" not in variants  # one chunk, final: nothing to forget (b'' after it is a cut)
    assert any(variant.startswith("cut at") for variant in variants)
    assert any(variant.startswith("bytewise") for variant in variants)


def test_an_encoder_that_writes_surrogates_is_caught() -> None:
    checked = report("SurrogateWritingEncoder", ("decode", "encode"))
    assert kinds(checked.differences) == {("encode", "must", "encoded a surrogate")}
    assert "surrogate" in flagged(checked.differences)


def test_a_validator_without_the_upper_limit_is_caught_on_values_above_u10ffff() -> None:
    differences = report("LaxRangeValidator", ("validate",)).differences
    assert kinds(differences) == {("validate", "must", "accepted ill-formed input")}
    for difference in differences:
        assert "out-of-range" in by_id(difference.vector).flags, difference.vector


def test_stripping_u_feff_everywhere_is_a_must_difference_beyond_the_signature() -> None:
    differences = report("BomStripper", ("decode",)).differences
    assert kinds(differences) == {
        ("decode", "may", "signature stripped"),
        ("decode", "must", "dropped U+FEFF"),  # a doubled signature's second U+FEFF too
    }
    assert at(differences, "bom-3").level == "must"
    assert at(differences, "rfc3629-7-4").what == "signature stripped"
    assert at(differences, "rfc3629-7-4", "mid-stream").what == "dropped U+FEFF"


def test_a_normalizing_decoder_is_caught_on_the_decomposed_e_acute() -> None:
    differences = report("NormalizingDecoder", ("decode",)).differences
    assert kinds(differences) == {("decode", "must", "normalized the text")}
    assert flagged(differences) >= {"no-normalization"}


def test_a_64_byte_block_bug_shows_only_on_inputs_of_64_bytes_or_more() -> None:
    differences = report("Block64Decoder", ("decode",)).differences
    assert "straddle-64" in {d.variant for d in differences}
    assert all(len(d.input) >= 64 for d in differences)
    assert ("must", "rejected well-formed input") in {(d.level, d.what) for d in differences}


def test_a_4096_byte_page_bug_shows_only_across_page_boundaries() -> None:
    differences = report("Page4096Decoder", ("decode", "replace")).differences
    assert {d.variant for d in differences} == {"straddle-4096", "straddle-65536"}
    assert "must" in {d.level for d in differences}


def test_a_decoder_that_crashes_with_type_error_is_a_must_difference_not_a_crash() -> None:
    differences = report("CrashingDecoder", ("decode",)).differences
    assert kinds(differences) == {("decode", "must", "crashed")}
    assert all(d.actual.startswith("crash: TypeError") for d in differences)
    assert all(not by_id(d.vector).valid for d in differences)  # type: ignore[union-attr]


def test_a_decoder_that_returns_bytes_is_a_wrong_type_difference() -> None:
    differences = report("BytesReturningDecoder", ("decode",)).differences
    assert kinds(differences) == {("decode", "must", "returned the wrong type")}
    assert at(differences, "sec-4").input == b"/../"


@pytest.mark.slow
def test_a_hanging_decoder_times_out_in_its_child_process_and_the_next_call_works() -> None:
    codec = load_codec("support.broken_codecs:HangingDecoder", isolate=True, timeout=2.0)
    try:
        hung = compare_decode(codec, expectation_for(b"a\x80b"), ("input", "as-is"))
        assert kinds(hung) == {("decode", "must", "timed out")}
        assert compare_decode(codec, expectation_for(b"caf\xc3\xa9"), ("input", "as-is")) == []
    finally:
        codec.close()


def test_cpython_utf8_sig_differs_only_on_signatures() -> None:
    checked = run_check(load_codec("codec:utf-8-sig"), chosen())
    assert kinds(checked.differences) == {
        ("decode", "may", "signature stripped"),
        ("replace", "may", "signature stripped"),
        ("incremental", "may", "signature stripped"),
        ("encode", "may", "signature written"),
        ("decode", "may", "error offset counted after the signature"),
        ("incremental", "may", "error offset counted after the signature"),
        # CPython's own bug, found by utf8cert: utf-8-sig's incremental decoder returns '' for a
        # lone EF or EF BB at the end of input even with final=True.
        ("incremental", "must", "dropped a truncated signature silently"),
        # Reused after a stream that ended, it keeps the next stream's signature (check/reuse.py):
        # a signature stripped once and kept once is RFC 3629 §6's choice made two ways.
        ("incremental", "may", "answered otherwise than a fresh decoder"),
    }
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    assert decoder.decode(b"\xef\xbb", final=True) == ""
    reused = codecs.getincrementaldecoder("utf-8-sig")()
    assert reused.decode(b"\xef\xbb\xbfA", final=True) == "A"
    assert reused.decode(b"\xef\xbb\xbfA", final=True) == "\ufeffA"
    for difference in checked.differences:
        if difference.level == "must":
            assert difference.input in (b"\xef", b"\xef\xbb")
        elif difference.capability != "encode":
            assert isinstance(difference.input, bytes) and difference.input[:3] == b"\xef\xbb\xbf"


@pytest.mark.slow
def test_cpython_surrogatepass_is_caught_reading_and_writing_surrogates() -> None:
    checked = run_check(load_codec("codec:utf-8:surrogatepass"), chosen())
    assert not checked.conformant
    assert ("decode", "must", "accepted ill-formed input") in kinds(checked.differences)
    assert ("encode", "must", "encoded a surrogate") in kinds(checked.differences)
    for difference in checked.differences:
        vector = by_id(difference.vector)
        assert "surrogate" in vector.flags, vector.id
        if isinstance(vector, DecodeVector):
            assert b"\xed" in vector.data
