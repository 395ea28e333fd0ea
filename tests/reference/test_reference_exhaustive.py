"""Exhaustive checks of the reference against CPython's codec and the independent formulation.

Every scalar value round trips; every byte string of length 1 and 2, every 3-byte string but those
opening with an ASCII byte other than 00 and 7F, and every 4-byte string over the class-boundary
bytes of issue 2, gets the same verdict, text, first error and U+FFFD output from the reference,
from CPython ('strict' and 'replace') and from tests/support/independent.py (RFC 3629 §3
arithmetic) plus
its hand-typed §4 ABNF expression.

Each test compares whole lists at once (a fast C comparison) and only looks for the first
differing string when they differ, so that a failure names the bytes.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TypeVar

import pytest
from support.each_case import each
from support.independent import ABNF, Reading, encode_scalar, read

from utf8cert.reference import (
    DecodeError,
    EncodeError,
    ErrorKind,
    StrEncodeError,
    decode,
    decode_replace,
    encode,
    errors,
    validate,
)

T = TypeVar("T")

# Issue 2: the bytes at the edges of the RFC 3629 §4 classes.
BOUNDARY_BYTES = bytes.fromhex(
    "00 7F 80 8F 90 9F A0 BF C0 C1 C2 DF E0 E1 EC ED EE EF F0 F1 F3 F4 F5 F7 F8 FB FC FD FE FF"
)
THREE_BYTE_FIRSTS = [first for first in range(256) if first >= 0x80 or first in (0x00, 0x7F)]
"""The first bytes of the 3-byte strings checked, all 65,536 strings each: every byte that is not
ASCII, and ASCII's class edges. An ASCII byte is a character alone, never part of a sequence (RFC
3629 §3): a 3-byte string opening with one is that character and a 2-byte string, and every
2-byte string is checked, after every ASCII byte too. The 126 other ASCII first bytes, the same
check, cost half of the slow suite's reference time (bench/README.md, "CI time")."""
PLANES = range(17)
LAST_SCALAR = 0x10FFFF

# What a strict decode gives: the text, or (start, end, offset, length, incomplete).
StrictResult = str | tuple[int, int, int, int, bool]


def assert_all_equal(
    inputs: Sequence[object], got: Sequence[T], expected: Sequence[T], what: str
) -> None:
    """Pass when the lists are equal; otherwise fail naming the first input where they differ."""
    if list(got) == list(expected):
        return
    index = next(i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b)
    shown = inputs[index]
    name = shown.hex(" ").upper() if isinstance(shown, bytes) else repr(shown)
    pytest.fail(f"{what}: for {name} got {got[index]!r}, expected {expected[index]!r}")


def cpython_strict(data: bytes) -> StrictResult:
    """Return CPython's strict decoding of `data`, or where and why it stops."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        incomplete = error.reason == "unexpected end of data"
        return error.start, error.end, error.start, error.end - error.start, incomplete


def reference_strict(data: bytes) -> StrictResult:
    """Return the reference's strict decoding of `data`, or its DecodeError's fields."""
    try:
        return decode(data)
    except DecodeError as error:
        return error.start, error.end, error.offset, error.length, error.incomplete


def independent_strict(reading: Reading) -> StrictResult:
    """Return the independent formulation's strict decoding, or its first error."""
    if reading.first_error is None:
        return reading.replaced
    offset, length, incomplete = reading.first_error
    return offset, offset + length, offset, length, incomplete


def check_agreement(strings: Sequence[bytes], check_errors: bool = False) -> None:
    """Assert that reference, CPython and the independent formulation agree on every string.

    With `check_errors`, the reference's full diagnosis (`errors()`) is also compared with the
    independent maximal subparts, string by string.
    """
    cpython_replaced = [data.decode("utf-8", "replace") for data in strings]
    readings = list(map(read, strings))
    assert_all_equal(
        strings, [r.replaced for r in readings], cpython_replaced, "independent vs CPython replace"
    )
    assert_all_equal(
        strings, list(map(decode_replace, strings)), cpython_replaced, "decode_replace"
    )

    cpython_decoded = list(map(cpython_strict, strings))
    assert_all_equal(strings, list(map(independent_strict, readings)), cpython_decoded, "indep.")
    assert_all_equal(strings, list(map(reference_strict, strings)), cpython_decoded, "decode")

    verdicts = [isinstance(result, str) for result in cpython_decoded]
    assert_all_equal(strings, list(map(validate, strings)), verdicts, "validate")
    abnf_verdicts = [ABNF.fullmatch(data) is not None for data in strings]
    assert_all_equal(strings, abnf_verdicts, verdicts, "hand-typed ABNF expression")

    if check_errors:
        subparts = [tuple((e.offset, e.length) for e in found) for found in map(errors, strings)]
        assert_all_equal(strings, subparts, [r.subparts for r in readings], "errors()")


def strings_starting_with(first: int, length: int) -> list[bytes]:
    """Return every byte string of `length` bytes whose first byte is `first`, in order."""
    tails = itertools.product(range(256), repeat=length - 1)
    return [bytes((first, *tail)) for tail in tails]


def test_the_empty_string_is_well_formed_everywhere() -> None:
    check_agreement([b""], check_errors=True)
    assert decode(b"") == decode_replace(b"") == ""


def test_every_string_of_one_and_two_bytes_agrees_with_cpython_and_the_independent_form() -> None:
    strings = [bytes([b]) for b in range(256)] + [
        bytes(p) for p in itertools.product(range(256), repeat=2)
    ]
    check_agreement(strings, check_errors=True)


@pytest.mark.exhaustive
@pytest.mark.parametrize("first", THREE_BYTE_FIRSTS, ids=lambda first: f"{first:02X}")
def test_every_three_byte_string_agrees_with_cpython_and_the_independent_form(
    first: int,
) -> None:
    check_agreement(strings_starting_with(first, 3))


@pytest.mark.exhaustive
@pytest.mark.parametrize("first", BOUNDARY_BYTES, ids=lambda first: f"{first:02X}")
def test_every_four_byte_string_of_boundary_bytes_agrees_everywhere(first: int) -> None:
    strings = [bytes((first, *rest)) for rest in itertools.product(BOUNDARY_BYTES, repeat=3)]
    check_agreement(strings, check_errors=True)


def scalars_of_plane(plane: int) -> list[int]:
    """Return every scalar value (no surrogate) of Unicode plane `plane`, in order."""
    return [v for v in range(plane << 16, (plane + 1) << 16) if not 0xD800 <= v <= 0xDFFF]


def check_round_trips(scalars: Sequence[int]) -> None:
    """Assert each scalar encodes (as str and as int) like CPython and like the §3 arithmetic,
    and decodes back to itself."""
    expected = [chr(v).encode("utf-8") for v in scalars]
    assert_all_equal(scalars, list(map(encode_scalar, scalars)), expected, "independent encode")
    assert_all_equal(scalars, [encode(chr(v)) for v in scalars], expected, "encode(str)")
    assert_all_equal(scalars, [encode([v]) for v in scalars], expected, "encode([int])")
    assert_all_equal(scalars, list(map(decode, expected)), list(map(chr, scalars)), "decode")


@pytest.mark.exhaustive
@pytest.mark.parametrize("plane", PLANES)
def test_every_scalar_value_of_a_plane_round_trips_as_str_and_as_int(plane: int) -> None:
    scalars = scalars_of_plane(plane)
    check_round_trips(scalars)
    whole_plane = "".join(map(chr, scalars))
    assert encode(whole_plane) == whole_plane.encode("utf-8")
    assert decode(encode(whole_plane)) == whole_plane


def test_the_first_and_last_scalar_of_every_plane_round_trips() -> None:
    edges = [v for plane in PLANES for v in (plane << 16, (plane << 16) | 0xFFFF)]
    edges += [0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0x10000, LAST_SCALAR]
    check_round_trips(edges)


@each(range(0xD800, 0xE000), lambda value: f"U+{value:04X}")
def test_every_surrogate_is_refused_as_an_int_and_inside_a_str(surrogate: int) -> None:
    with pytest.raises(EncodeError) as as_int:
        encode([0x41, surrogate, 0x42])
    assert (as_int.value.index, as_int.value.value) == (1, surrogate)
    assert as_int.value.kind is ErrorKind.SURROGATE
    with pytest.raises(StrEncodeError) as as_str:
        encode("a\u00e9" + chr(surrogate) + "b")
    assert isinstance(as_str.value, UnicodeEncodeError)
    assert (as_str.value.index, as_str.value.start, as_str.value.end) == (2, 2, 3)
    assert as_str.value.kind is ErrorKind.SURROGATE


# A sample above U+10FFFF: just past the end, each power of two, the RFC 2279 limits, beyond.
ABOVE_RANGE = sorted(
    {LAST_SCALAR + 1, LAST_SCALAR + 2, 0x11FFFF, 0x1FFFFF, 0x200000, 0x3FFFFFF, 0x4000000}
    | {(1 << bits) + delta for bits in range(21, 40) for delta in (-1, 0, 1)}
    | {0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1 << 64}
)


@pytest.mark.parametrize("value", [v for v in ABOVE_RANGE if v > LAST_SCALAR], ids=hex)
def test_values_above_u10ffff_are_refused_as_out_of_range(value: int) -> None:
    with pytest.raises(EncodeError) as refused:
        encode([0x61, 0x62, value])
    assert (refused.value.index, refused.value.value) == (2, value)
    assert refused.value.kind is ErrorKind.OUT_OF_RANGE
    assert not isinstance(refused.value, UnicodeEncodeError)
    assert encode_scalar(value) is None


@pytest.mark.parametrize("value", [-1, -0x80, -(1 << 31)])
def test_negative_values_are_refused_as_out_of_range(value: int) -> None:
    with pytest.raises(EncodeError) as refused:
        encode([value])
    assert (refused.value.index, refused.value.kind) == (0, ErrorKind.OUT_OF_RANGE)
