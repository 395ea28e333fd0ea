"""Derived variants: each is the vector's own expectation moved into padding, and CPython's codec
(independent of both the vectors and utf8cert) decodes every variant as its expectation says."""

from __future__ import annotations

from functools import cache

import pytest

from utf8cert.harness.check.expected import Expected
from utf8cert.harness.check.variants import (
    BLOCKS,
    PAD,
    decode_variants,
    embed,
    encode_variants,
    layouts,
)
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import (
    DecodeVector,
    EncodeVector,
    ExpectedError,
    Origin,
    VectorSet,
)
from utf8cert.reference import ErrorKind


@cache
def vectors() -> VectorSet:
    return load_vectors()


def decoding() -> list[DecodeVector]:
    return [vector for vector in vectors() if isinstance(vector, DecodeVector)]


def test_each_vector_has_as_is_mid_stream_fifteen_shifts_and_three_straddles() -> None:
    names = [layout.name for layout in layouts(3)]
    assert names[:2] == ["as-is", "mid-stream"]
    assert names[2:17] == [f"shift-{shift}" for shift in range(1, 16)]
    assert names[17:] == ["straddle-64", "straddle-4096", "straddle-65536"]
    assert [layout.name for layout in layouts(0)] == ["as-is"]


def test_the_as_is_variant_is_the_vector_itself() -> None:
    for vector in decoding():
        first = next(decode_variants(vector))
        assert first.name == "as-is"
        assert (first.expected.data, first.expected.text) == (vector.data, vector.text)
        assert first.cuts == tuple(range(1, len(vector.data)))


@pytest.mark.slow
def test_every_variant_holds_the_vector_in_ascii_padding() -> None:
    for vector in decoding():
        for variant in decode_variants(vector):
            data, (start, end) = variant.expected.data, variant.expected.span
            assert data[start:end] == vector.data
            assert set(data[:start] + data[end:]) <= {PAD}


def test_cpython_decodes_every_variant_as_its_expectation_says() -> None:
    # CPython's codec follows RFC 3629 and the maximal subparts of Unicode §3.9; the vector
    # files are checked against it, so every shift of them must agree with it too.
    for vector in decoding():
        for variant in decode_variants(vector):
            expected = variant.expected
            assert expected.data.decode("utf-8", "replace") == expected.replaced, variant.name
            try:
                text = expected.data.decode("utf-8")
            except UnicodeDecodeError as error:
                assert expected.text is None
                assert error.start == expected.first_error
            else:
                assert text == expected.text, (vector.id, variant.name)


def test_a_straddling_variant_puts_the_block_boundary_inside_the_vector() -> None:
    for vector in decoding():
        if len(vector.data) < 2:
            continue
        for variant in decode_variants(vector):
            if variant.name.startswith("straddle-"):
                block = int(variant.name.removeprefix("straddle-"))
                start, end = variant.expected.span
                assert start < block < end, (vector.id, variant.name)
                assert variant.cuts == (block,)
    assert BLOCKS == (64, 4096, 65536)


def test_shifts_cover_every_alignment_of_a_16_byte_register() -> None:
    vector = next(vector for vector in decoding() if vector.data)
    starts = {v.expected.span[0] % 16 for v in decode_variants(vector) if v.name != "mid-stream"}
    assert starts == set(range(16))


def test_a_truncated_tail_followed_by_ascii_is_cut_short_by_it() -> None:
    # Unicode §3.9: E2 82 at the end of input is truncated; followed by "a" the same two
    # bytes are one maximal subpart cut short by a byte that is not a UTF8-tail.
    origin = Origin("test.yaml", 1)
    truncated = DecodeVector(
        "t-1",
        "E2 82 at the end",
        "RFC 3629 §4",
        (),
        origin,
        b"\xe2\x82",
        False,
        None,
        (ExpectedError(0, 2, ErrorKind.TRUNCATED, True),),
        "\ufffd",
    )
    variants = {variant.name: variant.expected for variant in decode_variants(truncated)}
    assert variants["as-is"].errors[0].kind is ErrorKind.TRUNCATED
    (error,) = variants["mid-stream"].errors
    assert (error.offset, error.length, error.kind) == (5, 2, ErrorKind.MISSING_CONTINUATION)
    assert variants["shift-3"].errors[0].kind is ErrorKind.TRUNCATED  # still at the end
    assert variants["mid-stream"].replaced == "aaaaa\ufffdaaaaa"


def test_embedding_as_is_returns_the_expectation_unchanged() -> None:
    expected = Expected(b"\xc3\xa9", "é", (), "é")
    assert embed(expected, layouts(2)[0]) is expected


def test_encode_variants_pad_the_code_points_and_the_bytes_alike() -> None:
    for vector in vectors():
        if not isinstance(vector, EncodeVector):
            continue
        for name, expected in encode_variants(vector):
            start, end = expected.span
            assert expected.scalars[start:end] == vector.scalars
            if expected.encoded is None:
                assert expected.error_index is not None and vector.error is not None
                assert expected.error_index == vector.error.index + start
            elif all(value <= 0x10FFFF for value in expected.scalars):
                text = "".join(map(chr, expected.scalars))
                assert text.encode("utf-8") == expected.encoded, (vector.id, name)
