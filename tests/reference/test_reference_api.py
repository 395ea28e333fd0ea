"""The reference's interface: error objects and kinds, encoding errors, BOM, legacy profile.

Expected values come from the RFC texts (RFC 3629 §4, §6, §7, §10; RFC 2044/2279 examples), the
vocabulary of issue 2 and CPython's exception classes, never from the reference itself.
"""

from __future__ import annotations

import itertools
import pickle
import re

import pytest

from utf8cert.reference import (
    SIGNATURE,
    DecodeError,
    EncodeError,
    ErrorKind,
    StrEncodeError,
    decode,
    decode_legacy,
    decode_replace,
    encode,
    encode_legacy,
    errors,
    strip_signature,
    validate,
)

K = ErrorKind

# fmt: off
# Where issue 2 says each kind arises: (input, offset, length of the maximal subpart, kind).
KIND_EXAMPLES = [
    (b"\x80", 0, 1, K.UNEXPECTED_CONTINUATION), (b"a\xbf", 1, 1, K.UNEXPECTED_CONTINUATION),
    (b"\xc0\x80", 0, 1, K.OVERLONG), (b"\xc1\xbf", 0, 1, K.OVERLONG),            # RFC 3629 §10
    (b"\x2f\xc0\xae\x2e\x2f", 1, 1, K.OVERLONG),                                 # RFC 3629 §10
    (b"\xe0\x80\x80", 0, 1, K.OVERLONG), (b"\xe0\x9f\xbf", 0, 1, K.OVERLONG),
    (b"\xf0\x80\x80\x80", 0, 1, K.OVERLONG), (b"\xf0\x8f\xbf\xbf", 0, 1, K.OVERLONG),
    (b"\xed\xa0\x80", 0, 1, K.SURROGATE), (b"\xed\xbf\xbf", 0, 1, K.SURROGATE),
    (b"\xf4\x90\x80\x80", 0, 1, K.OUT_OF_RANGE), (b"\xf4\xbf\xbf\xbf", 0, 1, K.OUT_OF_RANGE),
    (b"\xf5\x80\x80\x80", 0, 1, K.OUT_OF_RANGE), (b"\xf7\xbf\xbf\xbf", 0, 1, K.OUT_OF_RANGE),
    (b"\xf8\x88\x80\x80\x80", 0, 1, K.LEGACY_FORM), (b"\xfb", 0, 1, K.LEGACY_FORM),
    (b"\xfc\x84\x80\x80\x80\x80", 0, 1, K.LEGACY_FORM), (b"\xfd", 0, 1, K.LEGACY_FORM),
    (b"\xfe", 0, 1, K.INVALID_BYTE), (b"ok\xff", 2, 1, K.INVALID_BYTE),
    (b"\xc3A", 0, 1, K.MISSING_CONTINUATION), (b"\xe2\x82A", 0, 2, K.MISSING_CONTINUATION),
    (b"\xf0\x9f\x98A", 0, 3, K.MISSING_CONTINUATION),
    (b"\xe2\xc3\xa9", 0, 1, K.MISSING_CONTINUATION),
    (b"\xc3", 0, 1, K.TRUNCATED), (b"\xe2\x82", 0, 2, K.TRUNCATED),
    (b"a\xf0\x9f\x98", 1, 3, K.TRUNCATED), (b"\xf4\x8f\xbf", 0, 3, K.TRUNCATED),
]
# fmt: on


@pytest.mark.parametrize(("data", "offset", "length", "kind"), KIND_EXAMPLES)
def test_decode_error_names_offset_subpart_length_and_kind(
    data: bytes, offset: int, length: int, kind: ErrorKind
) -> None:
    with pytest.raises(DecodeError) as raised:
        decode(data)
    error = raised.value
    assert (error.offset, error.length, error.kind) == (offset, length, kind)
    assert isinstance(error, UnicodeDecodeError)
    assert (error.start, error.end, error.object, error.encoding) == (
        offset,
        offset + length,
        data,
        "utf-8",
    )
    assert error.incomplete is (kind is ErrorKind.TRUNCATED)
    assert str(kind) in str(error) and data[offset : offset + length].hex(" ").upper() in str(error)
    assert errors(data)[0].offset == offset


def test_every_kind_of_the_vocabulary_is_produced() -> None:
    assert {kind for *_, kind in KIND_EXAMPLES} == set(ErrorKind)
    assert [str(kind) for kind in ErrorKind] == [
        "unexpected-continuation",
        "overlong",
        "surrogate",
        "out-of-range",
        "legacy-form",
        "invalid-byte",
        "missing-continuation",
        "truncated",
    ]


def expected_first_error(data: bytes) -> tuple[int, int, ErrorKind] | None:
    """Return the first error of a string of at most two bytes, by the wording of issue 2."""
    if not data:
        return None
    lead, rest = data[0], data[1:]
    if lead <= 0x7F:
        error = expected_first_error(rest)
        return None if error is None else (error[0] + 1, error[1], error[2])
    single = {range(0x80, 0xC0): K.UNEXPECTED_CONTINUATION, range(0xC0, 0xC2): K.OVERLONG}
    single |= {range(0xF5, 0xF8): K.OUT_OF_RANGE, range(0xF8, 0xFE): K.LEGACY_FORM}
    single |= {range(0xFE, 0x100): K.INVALID_BYTE}
    for byte_range, kind in single.items():
        if lead in byte_range:
            return 0, 1, kind
    if not rest:
        return 0, 1, K.TRUNCATED
    second = rest[0]
    if second not in range(0x80, 0xC0):
        return 0, 1, K.MISSING_CONTINUATION
    narrowed = {  # RFC 3629 §4: the second byte after E0, ED, F0, F4
        0xE0: (range(0xA0, 0xC0), K.OVERLONG),
        0xED: (range(0x80, 0xA0), K.SURROGATE),
        0xF0: (range(0x90, 0xC0), K.OVERLONG),
        0xF4: (range(0x80, 0x90), K.OUT_OF_RANGE),
    }
    if lead in narrowed and second not in narrowed[lead][0]:
        return 0, 1, narrowed[lead][1]
    return None if lead <= 0xDF else (0, 2, K.TRUNCATED)


def test_every_string_of_up_to_two_bytes_gets_the_kind_the_issue_describes() -> None:
    for data in map(
        bytes,
        itertools.chain.from_iterable(itertools.product(range(256), repeat=n) for n in (1, 2)),
    ):
        found = errors(data)
        first = (found[0].offset, found[0].length, found[0].kind) if found else None
        assert first == expected_first_error(data), data.hex(" ")


def test_errors_lists_every_maximal_subpart_in_order() -> None:
    data = b"A\xc0\xafB\xe2\x82C\xed\xa0\x80D\xf4\x90\x80\x80\xff\xf0\x9f\x98"
    assert [(e.offset, e.length, e.kind) for e in errors(data)] == [
        (1, 1, K.OVERLONG), (2, 1, K.UNEXPECTED_CONTINUATION),
        (4, 2, K.MISSING_CONTINUATION),
        (7, 1, K.SURROGATE), (8, 1, K.UNEXPECTED_CONTINUATION), (9, 1, K.UNEXPECTED_CONTINUATION),
        (11, 1, K.OUT_OF_RANGE), (12, 1, K.UNEXPECTED_CONTINUATION),
        (13, 1, K.UNEXPECTED_CONTINUATION), (14, 1, K.UNEXPECTED_CONTINUATION),
        (15, 1, K.INVALID_BYTE), (16, 3, K.TRUNCATED),
    ]  # fmt: skip
    assert [e.incomplete for e in errors(data)] == [False] * 11 + [True]
    assert decode_replace(data) == "A\ufffd\ufffdB\ufffdC\ufffd\ufffd\ufffdD" + "\ufffd" * 6
    assert errors(b"") == [] and errors("Größe 😀".encode()) == []


def test_a_decode_error_survives_pickling() -> None:
    with pytest.raises(DecodeError) as raised:
        decode(b"ab\xe2\x82")
    copy = pickle.loads(pickle.dumps(raised.value))
    assert (copy.offset, copy.length, copy.kind, copy.incomplete, copy.object) == (
        2, 2, K.TRUNCATED, True, b"ab\xe2\x82",
    )  # fmt: skip


def test_an_encode_error_names_index_value_and_kind() -> None:
    with pytest.raises(EncodeError) as raised:
        encode([0x41, 0x263A, 0x110000])
    error = raised.value
    assert (error.index, error.value, error.kind) == (2, 0x110000, K.OUT_OF_RANGE)
    assert isinstance(error, ValueError) and not isinstance(error, UnicodeError)
    assert str(error) == "out-of-range: cannot encode U+110000 at index 2"


def test_a_str_encode_error_is_a_unicode_encode_error() -> None:
    text = "Hi Mom \u263a!\udc80"
    with pytest.raises(StrEncodeError) as raised:
        encode(text)
    error = raised.value
    assert isinstance(error, UnicodeEncodeError) and isinstance(error, EncodeError)
    assert (error.index, error.value, error.kind) == (9, 0xDC80, K.SURROGATE)
    assert (error.start, error.end, error.object, error.encoding) == (9, 10, text, "utf-8")
    assert str(error) == "surrogate: cannot encode U+DC80 at index 9"
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.index, copy.kind, copy.object) == (9, K.SURROGATE, text)


@pytest.mark.parametrize(
    ("scalars", "message"),
    [
        (b"bytes", "encode() takes str or a sequence of ints, not bytes"),
        ([0x41, "B"], "encode() takes ints; item 1 is str"),
        ([True], "encode() takes ints; item 0 is bool"),
        ([1.0], "encode() takes ints; item 0 is float"),
    ],
)
def test_encode_refuses_what_is_not_text_or_ints_with_a_clear_message(
    scalars: object, message: str
) -> None:
    with pytest.raises(TypeError, match=re.escape(message)):
        encode(scalars)  # type: ignore[arg-type]


# RFC 3629 §7 and RFC 2044/2279 §3-4 examples: (text, its UTF-8 as printed in the RFC).
RFC_EXAMPLES = [
    ("A\u2262\u0391.", "41 E2 89 A2 CE 91 2E"),
    ("\ud55c\uad6d\uc5b4", "ED 95 9C EA B5 AD EC 96 B4"),
    ("\u65e5\u672c\u8a9e", "E6 97 A5 E6 9C AC E8 AA 9E"),
    ("\ufeff\U000233b4", "EF BB BF F0 A3 8E B4"),
    ("Hi Mom \u263a!", "48 69 20 4D 6F 6D 20 E2 98 BA 21"),
]


@pytest.mark.parametrize(("text", "hex_bytes"), RFC_EXAMPLES)
def test_the_rfc_examples_encode_and_decode_as_printed(text: str, hex_bytes: str) -> None:
    assert encode(text) == bytes.fromhex(hex_bytes)
    assert decode(bytes.fromhex(hex_bytes)) == text
    assert encode_legacy([ord(c) for c in text]) == bytes.fromhex(hex_bytes)
    assert decode_legacy(bytes.fromhex(hex_bytes)) == [ord(c) for c in text]


def test_a_signature_is_decoded_as_u_feff_wherever_it_stands() -> None:
    # RFC 3629 §6: a plain UTF-8 decoder keeps U+FEFF; only a protocol may treat it as a BOM.
    assert SIGNATURE == b"\xef\xbb\xbf"
    assert decode(b"\xef\xbb\xbf\xf0\xa3\x8e\xb4") == "\ufeff\U000233b4"
    assert decode(b"a\xef\xbb\xbfb") == "a\ufeffb"
    assert decode_replace(b"\xef\xbb\xbf\xef\xbb\xbf") == "\ufeff\ufeff"
    assert encode("\ufeff") == SIGNATURE


@pytest.mark.parametrize(
    ("data", "stripped"),
    [
        (b"\xef\xbb\xbfabc", b"abc"),
        (b"\xef\xbb\xbf\xef\xbb\xbfabc", b"\xef\xbb\xbfabc"),  # only one
        (b"abc\xef\xbb\xbf", b"abc\xef\xbb\xbf"),  # only at the start
        (b"\xef\xbb", b"\xef\xbb"),  # not a whole signature
        (b"\xef\xbb\xbf", b""),
        (b"", b""),
        (b"\xfe\xff", b"\xfe\xff"),  # a UTF-16 BOM is not UTF-8's signature
    ],
)
def test_strip_signature_removes_only_one_leading_ef_bb_bf(data: bytes, stripped: bytes) -> None:
    assert strip_signature(data) == stripped
    assert strip_signature(bytearray(data)) == stripped


# fmt: off
# RFC 2279 §2: 1 to 6 octets up to U+7FFFFFFF. (bytes, the code points a legacy reader sees)
LEGACY_READINGS = [
    ("F8 88 80 80 80", [0x200000]),           # the first five-octet value
    ("FB BF BF BF BF", [0x3FFFFFF]),          # the last five-octet value
    ("FC 84 80 80 80 80", [0x4000000]),       # the first six-octet value
    ("FD BF BF BF BF BF", [0x7FFFFFFF]),      # the last value of RFC 2279
    ("F4 90 80 80", [0x110000]), ("F7 BF BF BF", [0x1FFFFF]),  # four octets above U+10FFFF
    ("ED A0 80 ED BF BF", [0xD800, 0xDFFF]),  # surrogates were not excluded before RFC 3629
    ("41 F8 88 80 80 80 42", [0x41, 0x200000, 0x42]),
]
# Non-shortest forms stay ill-formed (RFC 2279 §6 and its C0 80 example).
LEGACY_REFUSALS = [
    ("C0 80", 0, 2, K.OVERLONG), ("2F C0 AE 2E 2F", 1, 2, K.OVERLONG),
    ("E0 80 AF", 0, 3, K.OVERLONG), ("F0 80 80 AF", 0, 4, K.OVERLONG),
    ("F8 80 80 80 AF", 0, 5, K.OVERLONG), ("FC 80 80 80 80 AF", 0, 6, K.OVERLONG),
    ("FC 83 BF BF BF BF", 0, 6, K.OVERLONG),
    ("80", 0, 1, K.UNEXPECTED_CONTINUATION), ("FE", 0, 1, K.INVALID_BYTE),
    ("FF", 0, 1, K.INVALID_BYTE), ("F8 88 80", 0, 3, K.TRUNCATED),
    ("FC 84 80 41", 0, 3, K.MISSING_CONTINUATION),
]
# fmt: on


@pytest.mark.parametrize(("hex_bytes", "values"), LEGACY_READINGS)
def test_the_legacy_profile_reads_rfc_2279_forms(hex_bytes: str, values: list[int]) -> None:
    data = bytes.fromhex(hex_bytes)
    assert decode_legacy(data) == values
    assert encode_legacy(values) == data
    assert not validate(data)  # and none of them is RFC 3629 UTF-8


@pytest.mark.parametrize(("hex_bytes", "offset", "length", "kind"), LEGACY_REFUSALS)
def test_the_legacy_profile_refuses_non_shortest_and_broken_forms(
    hex_bytes: str, offset: int, length: int, kind: ErrorKind
) -> None:
    with pytest.raises(DecodeError) as raised:
        decode_legacy(bytes.fromhex(hex_bytes))
    assert (raised.value.offset, raised.value.length, raised.value.kind) == (offset, length, kind)


def test_encode_legacy_covers_0_to_7fffffff_and_refuses_the_rest() -> None:
    # RFC 2279 §2 table: the length changes after 7F, 7FF, FFFF, 1FFFFF, 3FFFFFF.
    for value, length in [(0x7F, 1), (0x80, 2), (0x7FF, 2), (0x800, 3), (0xFFFF, 3),
                          (0x10000, 4), (0x1FFFFF, 4), (0x200000, 5), (0x3FFFFFF, 5),
                          (0x4000000, 6), (0x7FFFFFFF, 6)]:  # fmt: skip
        assert len(encode_legacy([value])) == length
        assert decode_legacy(encode_legacy([value])) == [value]
    for value in (0x80000000, -1):
        with pytest.raises(EncodeError) as raised:
            encode_legacy([0x41, value])
        assert (raised.value.index, raised.value.kind) == (1, K.OUT_OF_RANGE)


@pytest.mark.parametrize(
    "function", [decode, decode_replace, errors, validate, strip_signature, decode_legacy]
)
@pytest.mark.parametrize("given", ["text", None, 42, [0x41]])
def test_non_bytes_input_is_refused_with_a_clear_type_error(
    function: object, given: object
) -> None:
    name = function.__name__  # type: ignore[attr-defined]
    message = f"{name}() takes bytes, not {type(given).__name__}"
    with pytest.raises(TypeError, match=re.escape(message)):
        function(given)  # type: ignore[operator]


def test_bytearray_and_memoryview_are_read_like_bytes() -> None:
    data = "Größe €".encode()
    assert decode(bytearray(data)) == decode(memoryview(data)) == "Größe €"
    assert validate(bytearray(b"\xff")) is False
