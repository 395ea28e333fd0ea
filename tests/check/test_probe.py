"""How the fuzzer turns one byte string into questions for a codec (probe.py).

Code points read the RFC 2279 way are checked against RFC 2279's own examples and bit layout;
differences come from compare.py, so here the point is which questions are asked.
"""

from __future__ import annotations

from hypothesis import given, settings

from utf8cert.harness.check.expected import expectation_for
from utf8cert.harness.check.probe import (
    at_or_above,
    chunks_at,
    code_points_of,
    cut_points,
    describe_chunks,
    encoder_request,
    probe,
)
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.fuzzing.strategies import utf8_inputs


def test_code_points_of_reads_surrogates_and_values_beyond_u10ffff_the_rfc_2279_way() -> None:
    # RFC 3629 §3 forbids these; RFC 2279 §2's table gives their values.
    assert code_points_of(b"\xed\xa0\x80") == (0xD800,)
    assert code_points_of(b"\xed\xbf\xbf") == (0xDFFF,)
    assert code_points_of(b"\xf4\x90\x80\x80") == (0x110000,)
    assert code_points_of(b"\xf8\x88\x80\x80\x80") == (0x200000,)
    assert code_points_of(b"\xfd\xbf\xbf\xbf\xbf\xbf") == (0x7FFFFFFF,)


def test_code_points_of_keeps_characters_and_drops_other_ill_formed_bytes() -> None:
    # RFC 3629 §7's first example, with an overlong, a lone tail and a truncated tail around.
    data = b"\x41\xe2\x89\xa2\xce\x91\x2e" + b"\xc0\xaf\x80" + b"\xed\xa0\x80" + b"\xe2\x82"
    assert code_points_of(data) == (0x41, 0x2262, 0x391, 0x2E, 0xD800)
    assert code_points_of(b"\xf8\x80\x80\x80\x80") == ()  # an overlong five-byte form
    assert code_points_of(b"") == ()


def test_the_encoder_gets_the_text_of_well_formed_input() -> None:
    request = encoder_request(expectation_for("Hi Mom ☺!".encode()))
    assert request.scalars == tuple(map(ord, "Hi Mom ☺!"))
    assert request.encoded == "Hi Mom ☺!".encode()


def test_the_encoder_gets_the_surrogate_that_the_input_spells() -> None:
    request = encoder_request(expectation_for(b"a\xed\xb2\x80b"))
    assert request.scalars == (0x61, 0xDC80, 0x62)
    assert (request.encoded, request.error_index) == (None, 1)


def test_the_encoder_gets_the_replaced_text_of_other_ill_formed_input() -> None:
    request = encoder_request(expectation_for(b"a\xffb"))
    assert request.scalars == (0x61, 0xFFFD, 0x62)
    assert request.encoded == b"a\xef\xbf\xbdb"


def test_cut_points_feed_a_multi_byte_sequence_byte_by_byte() -> None:
    data = b"abc" + "😀".encode() + b"xyz"
    cuts = cut_points(data)
    assert {3, 4, 5, 6, 7} <= set(cuts)
    assert cuts == sorted(set(cuts)) and all(0 < cut < len(data) for cut in cuts)
    assert cut_points(b"") == cut_points(b"a") == []


def test_cut_points_straddle_each_block_boundary_the_input_crosses() -> None:
    cuts = set(cut_points(b"a" * 5000))
    assert {61, 62, 63, 64, 4093, 4094, 4095, 4096} <= cuts
    assert not any(cut > 5000 for cut in cuts)


def test_chunks_at_cuts_put_the_input_back_together() -> None:
    data = "€uro".encode()
    assert chunks_at(data, [1, 2]) == [b"\xe2", b"\x82", b"\xacuro"]
    assert chunks_at(data, []) == [data]
    assert describe_chunks([1, 2], True) == "cut at 1,2, then final b''"
    assert describe_chunks(list(range(1, 20)), False).endswith("… (19 cuts)")


def test_levels_at_or_above() -> None:
    assert at_or_above("must") == {"must"}
    assert at_or_above("should") == {"must", "should"}
    assert at_or_above("may") == {"must", "should", "may"}


@settings(max_examples=100)
@given(utf8_inputs())
def test_cpythons_codec_shows_no_difference_on_any_capability(data: bytes) -> None:
    assert probe(load_codec("codec:utf-8"), data) == []


@settings(max_examples=100)
@given(utf8_inputs())
def test_the_reference_as_a_codec_shows_no_difference(data: bytes) -> None:
    reference = load_codec("utf8cert.reference")
    assert {"decode", "replace", "validate", "encode", "incremental"} <= reference.capabilities
    assert probe(reference, data) == []


def test_probe_asks_only_the_capabilities_wanted() -> None:
    surrogatepass = load_codec("codec:utf-8:surrogatepass")
    found = probe(surrogatepass, b"\xed\xa0\x80")
    assert {difference.capability for difference in found} >= {"decode", "encode"}
    only = probe(surrogatepass, b"\xed\xa0\x80", capabilities=["replace"])
    assert only == []


def test_an_incremental_difference_names_how_the_input_was_cut() -> None:
    [difference] = probe(
        load_codec("support.fuzz_codecs:ForgetfulIncremental"),
        "€".encode(),
        chunks=[b"\xe2", b"\x82", b"\xac"],
        final_empty=False,
    )
    assert (difference.capability, difference.variant) == ("incremental", "cut at 1,2")
