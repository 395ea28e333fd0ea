"""Hypothesis properties: the promises of RFC 3629 §1, checked on the reference's codec.

RFC 3629 §1 lists what makes UTF-8 useful: US-ASCII bytes never stand for anything else, the
first byte gives the length, C0/C1/F5..FF never appear, a boundary is found from anywhere within
a few bytes, and byte-wise order of encodings is the order of the scalar values. The encoder and
the decoder of the reference must keep every one of them; decoding must undo encoding; and the
full diagnosis (`errors()`) must be consistent with `decode`, `decode_replace` and `validate`.
Deterministic by default (the 'ci' profile in conftest.py derandomizes).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from support.independent import is_proper_prefix

from utf8cert.reference import (
    REPLACEMENT_CHARACTER,
    DecodeError,
    ErrorKind,
    decode,
    decode_replace,
    encode,
    errors,
    sequence_at,
    validate,
)

CONTINUATION = range(0x80, 0xC0)
NEVER_IN_UTF8 = {0xC0, 0xC1, *range(0xF5, 0x100)}

scalars = st.one_of(
    st.integers(0x0000, 0x007F),
    st.integers(0x0080, 0x07FF),
    st.integers(0x0800, 0xD7FF),
    st.integers(0xE000, 0xFFFF),
    st.integers(0x10000, 0x10FFFF),
)
texts = st.one_of(st.text(), st.lists(scalars).map(lambda values: "".join(map(chr, values))))

# Byte strings that are mostly UTF-8 but broken in every way: whole characters, their proper
# prefixes and single bytes from each class of RFC 3629 §4.
pieces = st.one_of(
    scalars.map(lambda v: chr(v).encode("utf-8")),
    st.tuples(scalars.filter(lambda v: v > 0x7F), st.integers(1, 3)).map(
        lambda pair: chr(pair[0]).encode("utf-8")[: pair[1]]
    ),
    st.integers(0, 255).map(lambda b: bytes([b])),
)
broken_utf8 = st.one_of(st.binary(), st.lists(pieces).map(b"".join))


def announced_length(lead: int) -> int:
    """Return the length that the high bits of a lead byte announce (RFC 3629 §3)."""
    ones = 0
    while lead & (0x80 >> ones):
        ones += 1
    return 1 if ones == 0 else ones


@given(scalars, scalars)
def test_byte_order_of_two_encodings_is_the_order_of_their_scalars(a: int, b: int) -> None:
    assert (encode([a]) < encode([b])) is (a < b)


@given(texts, texts)
def test_byte_order_of_encoded_strings_is_the_order_of_the_strings(a: str, b: str) -> None:
    # Python orders str by code points, which is what RFC 3629 §1 promises for the bytes.
    assert (encode(a) < encode(b)) is (a < b)


@given(texts)
def test_ascii_bytes_appear_only_as_the_ascii_characters_themselves(text: str) -> None:
    ascii_bytes = [byte for byte in encode(text) if byte < 0x80]
    assert ascii_bytes == [ord(c) for c in text if ord(c) < 0x80]
    for character in text:
        if ord(character) >= 0x80:
            assert all(byte >= 0x80 for byte in encode(character))


@given(scalars)
def test_the_first_byte_gives_the_length_of_the_sequence(value: int) -> None:
    encoded = encode([value])
    assert len(encoded) == announced_length(encoded[0])
    assert all(byte in CONTINUATION for byte in encoded[1:])
    assert encoded[0] not in CONTINUATION
    assert sequence_at(encoded + b"\x80", 0) == (len(encoded), None)  # the decoder reads as much


@given(texts)
def test_the_bytes_c0_c1_and_f5_to_ff_never_occur(text: str) -> None:
    assert NEVER_IN_UTF8.isdisjoint(encode(text))


@given(texts, st.data())
def test_from_any_offset_the_next_boundary_is_at_most_three_bytes_on(
    text: str, data: st.DataObject
) -> None:
    encoded = encode(text)
    offset = data.draw(st.integers(0, len(encoded)))
    boundary = offset
    while boundary < len(encoded) and encoded[boundary] in CONTINUATION:
        boundary += 1
    assert boundary - offset <= 3
    # It is a real boundary: both sides decode on their own and add up to the text.
    assert decode(encoded[:boundary]) + decode(encoded[boundary:]) == text


@given(texts)
def test_decoding_undoes_encoding(text: str) -> None:
    assert decode(encode(text)) == text
    assert decode_replace(encode(text)) == text
    assert validate(encode(text))


@given(st.lists(scalars))
def test_decoding_undoes_encoding_of_int_sequences(values: list[int]) -> None:
    assert [ord(c) for c in decode(encode(values))] == values


@given(broken_utf8)
def test_errors_lists_disjoint_maximal_subparts_in_order(data: bytes) -> None:
    found = errors(data)
    position = 0
    for error in found:
        assert position <= error.offset
        assert 1 <= error.length <= 3
        assert error.offset + error.length <= len(data)
        assert (error.start, error.end) == (error.offset, error.offset + error.length)
        # Between two subparts lies well-formed UTF-8.
        assert validate(data[position : error.offset])
        position = error.offset + error.length
    assert validate(data[position:])
    assert validate(data) is (found == [])


@given(broken_utf8)
def test_decode_replace_puts_one_replacement_where_each_subpart_was(data: bytes) -> None:
    expected, position = [], 0
    for error in errors(data):
        expected += [decode(data[position : error.offset]), REPLACEMENT_CHARACTER]
        position = error.offset + error.length
    expected.append(decode(data[position:]))
    assert decode_replace(data) == "".join(expected)


@given(broken_utf8)
def test_decode_raises_the_first_of_the_errors(data: bytes) -> None:
    found = errors(data)
    if not found:
        assert decode(data) == decode_replace(data)
        return
    try:
        decode(data)
    except DecodeError as raised:
        first = found[0]
        assert (raised.offset, raised.length, raised.kind) == (
            first.offset,
            first.length,
            first.kind,
        )
        # The offset is the number of leading bytes that are well-formed.
        assert validate(data[: raised.offset])
        assert not validate(data[: raised.offset + raised.length])
    else:
        raise AssertionError("decode accepted ill-formed input")


@given(broken_utf8)
def test_only_a_cut_short_last_sequence_is_incomplete(data: bytes) -> None:
    for error in errors(data):
        subpart = data[error.offset : error.offset + error.length]
        at_end = error.offset + error.length == len(data)
        assert error.incomplete is (error.kind is ErrorKind.TRUNCATED)
        assert error.incomplete is (at_end and is_proper_prefix(subpart))


@given(broken_utf8)
def test_the_reference_agrees_with_cpython_on_broken_utf8(data: bytes) -> None:
    assert decode_replace(data) == data.decode("utf-8", "replace")
    try:
        expected: str | tuple[int, int] = data.decode("utf-8")
    except UnicodeDecodeError as error:
        expected = (error.start, error.end)
    try:
        got: str | tuple[int, int] = decode(data)
    except DecodeError as error:
        got = (error.start, error.end)
    assert got == expected
