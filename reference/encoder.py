"""Encoding scalar values as UTF-8, by the table of RFC 3629 §3."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .kinds import EncodeError, ErrorKind, StrEncodeError


@dataclass(frozen=True)
class Form:
    """One row of an encoding table: the values it covers and the lead byte's marker bits."""

    first: int
    last: int
    marker: int
    """The lead byte's fixed high bits: 0xxxxxxx, 110xxxxx, 1110xxxx, ..."""
    length: int


# fmt: off
# RFC 3629 §3:
#    Char. number range  |        UTF-8 octet sequence
#       (hexadecimal)    |              (binary)
#    --------------------+---------------------------------------------
FORMS: Final = (
    Form(0x0000_0000, 0x0000_007F, 0b0000_0000, 1),  # 0xxxxxxx
    Form(0x0000_0080, 0x0000_07FF, 0b1100_0000, 2),  # 110xxxxx 10xxxxxx
    Form(0x0000_0800, 0x0000_FFFF, 0b1110_0000, 3),  # 1110xxxx 10xxxxxx 10xxxxxx
    Form(0x0001_0000, 0x0010_FFFF, 0b1111_0000, 4),  # 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
)
# fmt: on

# RFC 3629 §3: "The definition of UTF-8 prohibits encoding character numbers between U+D800 and
# U+DFFF, which are reserved for use with the UTF-16 encoding form (as surrogate pairs)".
SURROGATES: Final = range(0xD800, 0xDFFF + 1)


def encode_form(value: int, forms: Sequence[Form]) -> bytes:
    """Return the shortest sequence of `forms` holding `value`; ValueError if no row covers it."""
    for form in forms:
        if form.first <= value <= form.last:
            # The lead holds the highest bits; each 10xxxxxx tail six more, highest first.
            tails = [0x80 | (value >> 6 * k) & 0x3F for k in reversed(range(form.length - 1))]
            return bytes([form.marker | value >> 6 * (form.length - 1), *tails])
    raise ValueError(f"no form holds {value:#x}")


def refusal(value: int) -> ErrorKind | None:
    """Return why RFC 3629 cannot encode `value` (surrogate, outside 0..U+10FFFF), else None."""
    if value in SURROGATES:
        return ErrorKind.SURROGATE
    if not 0 <= value <= FORMS[-1].last:
        return ErrorKind.OUT_OF_RANGE
    return None


class _EncodingOf(dict[str, bytes]):
    """A memo of the encoding of each character seen; raises KeyError for a surrogate."""

    LIMIT: Final = 1 << 16

    def __missing__(self, character: str) -> bytes:
        if refusal(ord(character)) is not None:
            raise KeyError(character)
        encoded = encode_form(ord(character), FORMS)
        if len(self) < self.LIMIT:
            self[character] = encoded
        return encoded


_encoding_of: Final = _EncodingOf()


def encode(scalars: str | Sequence[int]) -> bytes:
    """Return the UTF-8 of a string or of a sequence of ints (b'' for empty input).

    Raises `EncodeError` naming the index of the first surrogate (U+D800..U+DFFF) or value outside
    0..U+10FFFF; for `str` input that error is also a `UnicodeEncodeError`. Ints are accepted so
    that values above U+10FFFF, which no `str` can hold, can be offered.
    """
    if isinstance(scalars, str):
        if scalars.isascii():
            return scalars.encode("ascii")  # RFC 3629 §3: US-ASCII characters are their own bytes
        try:
            return b"".join(map(_encoding_of.__getitem__, scalars))
        except KeyError:
            index = next(i for i, c in enumerate(scalars) if refusal(ord(c)) is not None)
            raise StrEncodeError(scalars, index, ErrorKind.SURROGATE) from None
    if isinstance(scalars, bytes | bytearray):
        raise TypeError("encode() takes str or a sequence of ints, not bytes")
    encoded = []
    for index, value in enumerate(scalars):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"encode() takes ints; item {index} is {type(value).__name__}")
        kind = refusal(value)
        if kind is not None:
            raise EncodeError(index, value, kind)
        encoded.append(encode_form(value, FORMS))
    return b"".join(encoded)
