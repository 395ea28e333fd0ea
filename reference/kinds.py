"""The fixed vocabulary of what can be wrong with UTF-8, and the exceptions that carry it."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorKind(StrEnum):
    """Why a maximal subpart (Unicode §3.9 D93b) is ill-formed, or why a value cannot be encoded."""

    UNEXPECTED_CONTINUATION = "unexpected-continuation"
    """80..BF where a lead byte is due."""
    OVERLONG = "overlong"
    """C0, C1, E0 80..9F, F0 80..8F: a longer form than the value needs (RFC 3629 §3, §10)."""
    SURROGATE = "surrogate"
    """ED A0..BF, or encoding U+D800..U+DFFF: surrogates are not characters (RFC 3629 §3)."""
    OUT_OF_RANGE = "out-of-range"
    """F4 90..BF, F5..F7, or encoding a value above U+10FFFF (RFC 3629 §3)."""
    LEGACY_FORM = "legacy-form"
    """F8..FD: the five- and six-byte leads of RFC 2279, gone from RFC 3629."""
    INVALID_BYTE = "invalid-byte"
    """FE, FF: never part of UTF-8."""
    MISSING_CONTINUATION = "missing-continuation"
    """A sequence cut short by a byte that is not its next UTF8-tail byte."""
    TRUNCATED = "truncated"
    """A sequence cut short by the end of input (a proper prefix of a well-formed sequence)."""


class DecodeError(UnicodeDecodeError):
    """The first (or one) ill-formed subsequence of a byte string, as a `UnicodeDecodeError`.

    `start`/`end` are `offset`/`offset + length`, so code written for CPython's codec works.
    """

    def __init__(self, data: bytes, offset: int, length: int, kind: ErrorKind) -> None:
        self.offset = offset
        """Index of the first byte of the ill-formed subsequence."""
        self.length = length
        """Length of its maximal subpart (Unicode §3.9 D93b): how many bytes one U+FFFD replaces."""
        self.kind = kind
        self.incomplete = kind is ErrorKind.TRUNCATED
        """True only when the input ends inside a sequence that more bytes could complete."""
        bad = data[offset : offset + length].hex(" ").upper()
        super().__init__("utf-8", data, offset, offset + length, f"{kind}: {bad}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.object, self.offset, self.length, self.kind))

    def __repr__(self) -> str:
        return f"DecodeError(offset={self.offset}, length={self.length}, kind={self.kind.value!r})"


class EncodeError(ValueError):
    """A value that has no UTF-8 form: a surrogate, or a number above U+10FFFF or below zero."""

    def __init__(self, index: int, value: int, kind: ErrorKind) -> None:
        self.index = index
        """Position of the offending value in the input."""
        self.value = value
        self.kind = kind
        ValueError.__init__(self, f"{kind}: cannot encode {_name(value)} at index {index}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.index, self.value, self.kind))


class StrEncodeError(EncodeError, UnicodeEncodeError):
    """An `EncodeError` for `str` input, which is also a `UnicodeEncodeError` (start = index)."""

    def __init__(self, text: str, index: int, kind: ErrorKind) -> None:
        UnicodeEncodeError.__init__(self, "utf-8", text, index, index + 1, str(kind))
        EncodeError.__init__(self, index, ord(text[index]), kind)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.object, self.index, self.kind))

    def __str__(self) -> str:
        return str(self.args[0])


def _name(value: int) -> str:
    return f"U+{value:04X}" if value >= 0 else str(value)
