"""Every hand-written vector agrees with the reference, with CPython's codec, and with the
second formulation in tests/support/independent.py: three independent readings of RFC 3629 check the
hand-written expectations, and the expectations check them. Each test checks every vector as
one item (each_case.py), naming each vector that fails."""

from __future__ import annotations

import codecs

import pytest
from support import independent
from support.each_case import each
from support.shipped_vectors import shipped_vectors

from utf8cert.harness.vectors.model import DecodeExpectation, DecodeVector, EncodeVector
from utf8cert.reference import (
    DecodeError,
    EncodeError,
    IncrementalDecoder,
    decode,
    decode_legacy,
    decode_replace,
    encode,
    encode_legacy,
    errors,
    validate,
)

VECTORS = shipped_vectors()
DECODE = [v for v in VECTORS if isinstance(v, DecodeVector)]
ENCODE = [v for v in VECTORS if isinstance(v, EncodeVector)]
PYTHON_STR_LIMIT = 0x10FFFF  # chr() takes nothing above; larger values are tested as ints only


def by_id(vector: DecodeVector | EncodeVector) -> str:
    """Return the vector's id, which names it in a failure."""
    return vector.id


@each(DECODE, by_id)
def test_the_reference_decodes_as_the_vector_says(vector: DecodeVector) -> None:
    assert validate(vector.data) is vector.valid
    assert decode_replace(vector.data) == vector.replaced
    found = [(e.offset, e.length, e.kind, e.incomplete) for e in errors(vector.data)]
    assert found == [(e.offset, e.length, e.kind, e.incomplete) for e in vector.errors]
    if vector.valid:
        assert decode(vector.data) == vector.text
    else:
        with pytest.raises(DecodeError) as raised:
            decode(vector.data)
        first = vector.errors[0]
        assert (raised.value.offset, raised.value.length, raised.value.kind) == (
            first.offset,
            first.length,
            first.kind,
        )


@each(DECODE, by_id)
def test_the_references_incremental_decoder_fed_byte_by_byte_agrees(vector: DecodeVector) -> None:
    decoder = IncrementalDecoder("replace")
    pieces = [decoder.decode(vector.data[i : i + 1]) for i in range(len(vector.data))]
    assert "".join(pieces) + decoder.decode(b"", final=True) == vector.replaced


@each(DECODE, by_id)
def test_the_legacy_reading_is_rfc_2279s(vector: DecodeVector) -> None:
    """`legacy` is given exactly where RFC 2279 reads what RFC 3629 rejects."""
    if vector.valid:
        assert decode_legacy(vector.data) == list(vector.scalars or ())
    elif vector.legacy is not None:
        assert decode_legacy(vector.data) == list(vector.legacy)
    else:
        with pytest.raises(DecodeError):
            decode_legacy(vector.data)


@each(DECODE, by_id)
def test_cpython_decodes_as_the_vector_says(vector: DecodeVector) -> None:
    """CPython's codec follows Unicode §3.9 maximal subparts: offsets, lengths and U+FFFDs."""
    assert vector.data.decode("utf-8", "replace") == vector.replaced
    if vector.valid:
        assert vector.data.decode("utf-8") == vector.text
        return
    with pytest.raises(UnicodeDecodeError) as raised:
        vector.data.decode("utf-8")
    first = vector.errors[0]
    assert (raised.value.start, raised.value.end) == (first.offset, first.offset + first.length)


@each(DECODE, by_id)
def test_the_independent_formulation_decodes_as_the_vector_says(vector: DecodeVector) -> None:
    reading = independent.read(vector.data)
    assert reading.valid is vector.valid
    assert reading.replaced == vector.replaced
    assert reading.subparts == tuple((e.offset, e.length) for e in vector.errors)


def differences_under_utf_8_sig(vector: DecodeVector) -> dict[DecodeExpectation, bool]:
    """Return, per expectation, whether CPython's utf-8-sig codec departs from the vector."""
    replaced = vector.data.decode("utf-8-sig", "replace")
    try:
        text, offset = vector.data.decode("utf-8-sig"), None
    except UnicodeDecodeError as error:
        text, offset = None, error.start
    return {
        "valid": (text is not None) != vector.valid,
        "scalars": vector.valid and text != vector.text,
        "errors": not vector.valid and offset != vector.errors[0].offset,
        "replaced": replaced != vector.replaced,
    }


@each(DECODE, by_id)
def test_a_signature_stripping_codec_differs_only_where_the_level_is_may(
    vector: DecodeVector,
) -> None:
    """RFC 3629 §6 leaves stripping a leading U+FEFF open: utf-8-sig may differ only at `may`."""
    differences = differences_under_utf_8_sig(vector)
    levels = {name: vector.level(name) for name, differs in differences.items() if differs}
    assert all(level == "may" for level in levels.values()), levels


@each(DECODE, by_id)
def test_may_is_used_only_for_a_leading_signature(vector: DecodeVector) -> None:
    """The one thing RFC 3629 leaves open for decoding is a leading EF BB BF (§6)."""
    graded_may = {name for name, level in vector.levels.items() if level == "may"}
    if vector.data.startswith(codecs.BOM_UTF8):
        assert graded_may == ({"scalars", "replaced"} if vector.valid else {"errors", "replaced"})
        assert vector.has_flag("signature")
    else:
        assert not graded_may
        assert not vector.has_flag("signature")


@each(ENCODE, by_id)
def test_the_reference_encodes_as_the_vector_says(vector: EncodeVector) -> None:
    if vector.error is None:
        assert encode(vector.scalars) == vector.expected
    else:
        with pytest.raises(EncodeError) as raised:
            encode(vector.scalars)
        assert (raised.value.index, raised.value.kind) == (vector.error.index, vector.error.kind)


@each(ENCODE, by_id)
def test_the_legacy_encoding_is_rfc_2279s(vector: EncodeVector) -> None:
    """`legacy` is given exactly where RFC 2279 writes what RFC 3629 refuses."""
    if vector.error is None:
        assert encode_legacy(vector.scalars) == vector.expected
    elif vector.legacy is not None:
        assert encode_legacy(vector.scalars) == vector.legacy
    else:
        with pytest.raises(EncodeError):
            encode_legacy(vector.scalars)


@each(ENCODE, by_id)
def test_cpython_encodes_as_the_vector_says(vector: EncodeVector) -> None:
    if any(value > PYTHON_STR_LIMIT for value in vector.scalars):
        assert vector.error is not None  # no str holds it: only the ints encoder can be asked
        return
    text = "".join(map(chr, vector.scalars))
    if vector.error is None:
        assert text.encode("utf-8") == vector.expected
        return
    with pytest.raises(UnicodeEncodeError) as raised:
        text.encode("utf-8")
    assert raised.value.start == vector.error.index


@each(ENCODE, by_id)
def test_the_independent_formulation_encodes_as_the_vector_says(vector: EncodeVector) -> None:
    pieces = [independent.encode_scalar(value) for value in vector.scalars]
    refused = [index for index, piece in enumerate(pieces) if piece is None]
    if vector.error is None:
        assert not refused
        assert b"".join(piece or b"" for piece in pieces) == vector.expected
    else:
        assert refused and refused[0] == vector.error.index
