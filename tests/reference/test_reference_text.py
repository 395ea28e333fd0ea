"""The reference's text step (reference/text.py) against base64 and CPython, on every scalar value.

The step rewrites each byte of well-formed UTF-8 as base64 digits and lets base64 decoding pack
each character's bits. What it must hold: the digits of a character's bytes are exactly the
RFC 4648 base64 of its scalar value in three bytes, for every scalar value; and the text of a
run is right wherever a long run is cut into chunks.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Callable

import pytest

from utf8cert.reference import decode_replace
from utf8cert.reference.text import (
    CHUNK,
    bulk_text_of,
    characters_of,
    cut_before_leads,
    digits_of,
    scalar_of,
    text_of,
)

SCALARS = [*range(0xD800), *range(0xE000, 0x110000)]
# One character of each length, and the first and last scalar of each length (RFC 3629 §3).
SAMPLES = "A\x7f\x80é\u07ff\u0800中\ufffd\uffff\U00010000😀\U0010ffff"


@pytest.mark.slow
def test_the_digits_of_every_character_are_the_base64_of_its_scalar_value() -> None:
    for scalar in SCALARS:
        encoded = chr(scalar).encode("utf-8")  # CPython's encoder: evidence from outside
        digits = b"".join(map(digits_of, encoded))
        if digits != base64.b64encode(scalar.to_bytes(3, "big")):
            pytest.fail(f"U+{scalar:04X}: digits {digits!r}")


def test_bytes_that_begin_no_character_have_no_digits() -> None:
    never_a_lead = [0xC0, 0xC1, *range(0xF5, 0x100)]
    assert [digits_of(byte) for byte in never_a_lead] == [b""] * len(never_a_lead)


def test_one_sequence_gives_its_scalar_value() -> None:
    for character in SAMPLES:
        assert scalar_of(character.encode("utf-8")) == ord(character)


@pytest.mark.parametrize("reader", [bulk_text_of, characters_of, text_of])
def test_a_run_of_every_scalar_value_decodes_as_cpython_does(
    reader: Callable[[bytes], str],
) -> None:
    text = "".join(map(chr, SCALARS))
    assert reader(text.encode("utf-8")) == text


@pytest.mark.parametrize("length", [1, 2, 3, 4])
@pytest.mark.parametrize("shift", [0, 1, 2, 3])
def test_a_long_run_is_cut_only_between_characters(length: int, shift: int) -> None:
    # Characters of `length` bytes after `shift` ASCII bytes: the CHUNK-byte cut falls at every
    # place inside a sequence in turn.
    character = next(c for c in SAMPLES[::-1] if len(c.encode("utf-8")) == length)
    text = "a" * shift + character * (2 * CHUNK // length + 1)
    assert text_of(text.encode("utf-8")) == text


@pytest.mark.parametrize("reader", [bulk_text_of, characters_of, text_of])
@pytest.mark.parametrize("text", ["", "ascii only", "é", "aé", "中文", "😀!", SAMPLES])
def test_short_runs_decode_as_cpython_does(reader: Callable[[bytes], str], text: str) -> None:
    assert reader(text.encode("utf-8")) == text


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)) * 700,  # every byte value, cut wherever the size falls
        b"\x80" * (3 * CHUNK),  # nothing but tails: cut after three of them
        ("a€😀" * CHUNK).encode("utf-8"),
        b"",
    ],
    ids=["every-byte", "only-tails", "text", "empty"],
)
def test_a_cut_is_before_a_lead_or_after_three_tails(data: bytes) -> None:
    pieces = list(cut_before_leads(data, 1000))
    assert b"".join(pieces) == data
    at = 0
    for piece in pieces[:-1]:
        at += len(piece)
        assert (
            data[at] < 0x80 or data[at] > 0xBF or all(0x80 <= b <= 0xBF for b in data[at - 3 : at])
        )


def test_long_ill_formed_input_is_replaced_as_cpython_does() -> None:
    # Long enough to be cut into pieces: the maximal subparts must not notice the cuts.
    rng = random.Random(3629)
    data = rng.randbytes(3 * CHUNK) + b"\xf0\x90\x80" * CHUNK + b"\x80" * CHUNK
    assert decode_replace(data) == data.decode("utf-8", "replace")
