"""The legacy profile: UTF-8 as RFC 2044 and RFC 2279 defined it, 1 to 6 octets up to U+7FFFFFFF.

RFC 3629 cut UTF-8 down to U+10FFFF and forbade surrogates. Old decoders still read the longer
forms, and the vectors say how (`legacy` readings), so that a report can tell "reads F8 88 80 80
80 as U+200000, the RFC 2279 way" apart from plain garbage. Non-shortest forms stay ill-formed:
RFC 2279 §6 already required decoders to reject them (its C0 80 example).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .decoder import BytesLike, _as_bytes
from .encoder import Form, encode_form
from .kinds import DecodeError, EncodeError, ErrorKind

# fmt: off
# RFC 2279 §2 (RFC 2044 §2 has the same table):
#    UCS-4 range (hex.)           UTF-8 octet sequence (binary)
LEGACY_FORMS: Final = (
    Form(0x0000_0000, 0x0000_007F, 0b0000_0000, 1),  # 0xxxxxxx
    Form(0x0000_0080, 0x0000_07FF, 0b1100_0000, 2),  # 110xxxxx 10xxxxxx
    Form(0x0000_0800, 0x0000_FFFF, 0b1110_0000, 3),  # 1110xxxx 10xxxxxx 10xxxxxx
    Form(0x0001_0000, 0x001F_FFFF, 0b1111_0000, 4),  # 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
    Form(0x0020_0000, 0x03FF_FFFF, 0b1111_1000, 5),  # 111110xx 10xxxxxx ... 10xxxxxx
    Form(0x0400_0000, 0x7FFF_FFFF, 0b1111_1100, 6),  # 1111110x 10xxxxxx ... 10xxxxxx
)
# fmt: on


def _form_of_lead(lead: int) -> Form | None:
    """Return the form whose lead byte this is (by its marker bits), or None for 80..BF, FE, FF."""
    for form in LEGACY_FORMS:
        value_bits = 7 - form.length if form.length > 1 else 7
        if lead >> value_bits == form.marker >> value_bits:
            return form
    return None


def decode_legacy(data: BytesLike) -> list[int]:
    """Return the code points of `data` read as RFC 2279 UTF-8 ([] for b'').

    Surrogates and values up to U+7FFFFFFF are returned as they are. Raises `DecodeError` at the
    first byte that is no lead (80..BF: unexpected-continuation; FE, FF: invalid-byte), at a
    non-shortest form (overlong), and at a sequence cut short (missing-continuation, truncated).
    """
    data = _as_bytes(data, "decode_legacy")
    values, position = [], 0
    while position < len(data):
        lead = data[position]
        form = _form_of_lead(lead)
        if form is None:
            kind = ErrorKind.UNEXPECTED_CONTINUATION if lead < 0xC0 else ErrorKind.INVALID_BYTE
            raise DecodeError(data, position, 1, kind)
        value = lead & (0x7F >> form.length) if form.length > 1 else lead
        for seen in range(1, form.length):
            if position + seen == len(data):
                raise DecodeError(data, position, seen, ErrorKind.TRUNCATED)
            tail = data[position + seen]
            if tail >> 6 != 0b10:
                raise DecodeError(data, position, seen, ErrorKind.MISSING_CONTINUATION)
            value = value << 6 | tail & 0x3F
        if value < form.first:
            raise DecodeError(data, position, form.length, ErrorKind.OVERLONG)
        values.append(value)
        position += form.length
    return values


def encode_legacy(values: Sequence[int]) -> bytes:
    """Return the RFC 2279 UTF-8 of `values` (b'' for none), surrogates included.

    Raises `EncodeError` (out-of-range) naming the index of a value outside 0..U+7FFFFFFF.
    """
    encoded = []
    for index, value in enumerate(values):
        if not 0 <= value <= LEGACY_FORMS[-1].last:
            raise EncodeError(index, value, ErrorKind.OUT_OF_RANGE)
        encoded.append(encode_form(value, LEGACY_FORMS))
    return b"".join(encoded)
