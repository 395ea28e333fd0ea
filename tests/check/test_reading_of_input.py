"""The reference's one reading of an input (reading.py), against the reference's own walks.

What a Reading derives instead of walking again (the reading of a slice, of the input between
ASCII padding) is compared with the reference walking that slice or padded input itself, on
every slice of inputs built from the pieces of the RFC 3629 §4 table.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from utf8cert.harness.check.decided import Walked
from utf8cert.harness.check.reading import Reading
from utf8cert.reference import ErrorKind
from utf8cert.reference.decoder import pieces

# A byte of each class of the table's rows and of the bytes that start none, and whole
# sequences: characters of each length, encoded surrogates, values above U+10FFFF, RFC 2279
# five- and six-byte forms, and a signature.
ATOMS = [bytes([byte]) for byte in b"\x00\x41\x7f\x80\x8f\x90\x9f\xa0\xbf\xc0\xc1\xc2\xdf"]
ATOMS += [bytes([byte]) for byte in b"\xe0\xe1\xec\xed\xee\xef\xf0\xf1\xf3\xf4\xf5\xf8\xfc\xfe\xff"]
ATOMS += [
    "é".encode(),
    "€".encode(),
    "𝄞".encode(),
    "\ufffd".encode(),
    b"\xed\x9f\xbf",
    b"\xed\xa0\x80",
    b"\xed\xb0\x80",
    b"\xf4\x8f\xbf\xbf",
    b"\xf4\x90\x80\x80",
    b"\xf0\x8f\xbf\xbf",
    b"\xf8\x88\x80\x80\x80",
    b"\xfc\x84\x80\x80\x80\x80",
    b"\xef\xbb\xbf",
    b"abc",
]

inputs = st.lists(st.sampled_from(ATOMS), max_size=10).map(b"".join)


def slice_walk(data: bytes, start: int, end: int) -> list[Walked]:
    """Return the reference's walk of data[start:end] alone, offsets in `data`, a sequence cut
    short at `end` < len(data) missing-continuation: what a dialect profile read before
    reading.py (profile.py's `_reference_pieces` as it was)."""
    walked: list[Walked] = []
    for piece in pieces(data[start:end]):
        if isinstance(piece, str):
            walked.append(piece)
            continue
        offset, length, kind = piece
        if kind is ErrorKind.TRUNCATED and end < len(data):
            kind = ErrorKind.MISSING_CONTINUATION
        walked.append((offset + start, length, kind))
    return walked


@settings(max_examples=400)
@given(inputs)
def test_a_reading_is_the_reference_walk_of_its_input(data: bytes) -> None:
    assert list(Reading(data).pieces) == list(pieces(data))


@pytest.mark.slow
@settings(max_examples=400)
@given(inputs)
def test_every_slice_read_off_the_whole_walk_is_the_reference_walk_of_that_slice(
    data: bytes,
) -> None:
    reading = Reading(data)
    for start in range(len(data) + 1):
        for end in range(start, len(data) + 1):
            assert reading.between(start, end) == slice_walk(data, start, end), (start, end)


def test_slices_that_start_inside_a_character_or_end_inside_one_are_read_as_alone() -> None:
    # A 4-byte character cut after its lead (a dialect that refuses F0..F4: CESU-8), an encoded
    # surrogate's lead before a tail (its kind read off the byte after it), a run of text cut
    # inside a character.
    data = b"a\xf0\x9f\x98\x80b\xed\xa0\x80\xe2\x82\xacc"
    reading = Reading(data)
    assert reading.between(2, 6) == [
        (2, 1, ErrorKind.UNEXPECTED_CONTINUATION),
        (3, 1, ErrorKind.UNEXPECTED_CONTINUATION),
        (4, 1, ErrorKind.UNEXPECTED_CONTINUATION),
        "b",
    ]
    assert reading.between(0, 7)[-1] == (6, 1, ErrorKind.MISSING_CONTINUATION)
    assert reading.between(6, 8)[0] == (6, 1, ErrorKind.SURROGATE)
    assert reading.between(9, 11) == [(9, 2, ErrorKind.MISSING_CONTINUATION)]
    assert reading.between(9, len(data)) == ["€c"]


@settings(max_examples=400)
@given(inputs, st.integers(0, 70), st.integers(0, 70))
def test_a_padded_reading_is_the_reference_walk_of_the_padded_input(
    data: bytes, before: int, after: int
) -> None:
    padded = b"a" * before + data + b"a" * after
    assert list(Reading(data).padded(padded, before, after).pieces) == list(pieces(padded))


def test_a_padded_reading_walks_nothing_of_its_own() -> None:
    inner = Reading(b"\xe2\x82")
    moved = inner.padded(b"aa\xe2\x82a", 2, 1)
    assert moved.pieces == ("aa", (2, 2, ErrorKind.MISSING_CONTINUATION), "a")
    assert inner.pieces == ((0, 2, ErrorKind.TRUNCATED),)  # walked once, for both
