"""Codecs as a new user writes them from the README: a hand-written decoder that raises a plain
`ValueError` on ill-formed input, with the bugs such a decoder has, to hold the reports to what
that user needs (issue 42).

- `PlainValueError`: a correct decoder and encoder whose refusals are a plain `ValueError`, placing
  the error nowhere (the README's first form, before it showed the better one);
- `Utf8Buggy`: two bugs. It takes ED A0..BF as the start of a character (surrogates, RFC 3629 §4
  allows ED 80..9F only), and never checks the last continuation byte of a three-byte form. At
  the end of input the second cancels the first (ED A0 alone is cut short, and refused); moved
  mid-stream, ED A0 takes the next byte for its last one and decodes as a surrogate;
- `Utf8BuggyPlaced`: `Utf8Buggy` whose refusals are placed (`UnicodeDecodeError`, start and end);
- `Utf8TailBugPlaced`: `Utf8BuggyPlaced` with the surrogate bug fixed;
- `Utf8Buggier`: `Utf8Buggy` plus C0 and C1 taken as lead bytes (overlong two-byte forms).

Loadable as `support.user_codecs:NAME` (spec.py instantiates a class).
"""

from __future__ import annotations


def _refusal(data: bytes, start: int, end: int, reason: str, placed: bool) -> ValueError:
    """Return the error to raise: placed (UnicodeDecodeError from `start` to `end`), or a plain
    ValueError that says nowhere where."""
    if placed:
        return UnicodeDecodeError("utf-8", data, start, end, reason)
    return ValueError(reason)


def _decode(
    data: bytes,
    *,
    surrogates: bool = False,
    tail: bool = False,
    overlong: bool = False,
    placed: bool = False,
) -> str:
    """Return the text of `data`; at the first ill-formed byte it sees, a plain ValueError, or
    (`placed`) a UnicodeDecodeError placing it."""
    text: list[str] = []
    position, end = 0, len(data)
    while position < end:
        lead = data[position]
        if lead < 0x80:
            text.append(chr(lead))
            position += 1
            continue
        low, high = 0x80, 0xBF
        if (0xC0 if overlong else 0xC2) <= lead <= 0xDF:
            needed, value = 1, lead & 0x1F
        elif 0xE0 <= lead <= 0xEF:
            needed, value = 2, lead & 0x0F
            low = 0xA0 if lead == 0xE0 else low
            high = 0x9F if lead == 0xED and not surrogates else high
        elif 0xF0 <= lead <= 0xF4:
            needed, value = 3, lead & 0x07
            low = 0x90 if lead == 0xF0 else low
            high = 0x8F if lead == 0xF4 else high
        else:
            raise _refusal(data, position, position + 1, "invalid start byte", placed)
        for index in range(1, needed + 1):
            if position + index == end:
                raise _refusal(data, position, end, "unexpected end of data", placed)
            byte = data[position + index]
            unchecked = tail and needed == 2 and index == 2
            if not unchecked and not low <= byte <= high:
                at = position + index
                raise _refusal(data, position, at, "invalid continuation byte", placed)
            value = value << 6 | byte & 0x3F
            low, high = 0x80, 0xBF
        text.append(chr(value))
        position += needed + 1
    return "".join(text)


def _encode(text: str) -> bytes:
    """Return the UTF-8 form of `text`; a plain ValueError for a surrogate."""
    if any(0xD800 <= ord(character) <= 0xDFFF for character in text):
        raise ValueError("surrogates not allowed")
    return text.encode("utf-8")


class PlainValueError:
    """A correct codec whose refusals are a plain ValueError (no offset)."""

    def decode(self, data: bytes) -> str:
        """Return the text of well-formed input; a plain ValueError for ill-formed input."""
        return _decode(data)

    def encode(self, text: str) -> bytes:
        """Return the UTF-8 form of `text`; a plain ValueError for a surrogate."""
        return _encode(text)


class Utf8Buggy(PlainValueError):
    """Surrogates taken (ED A0..BF), the last continuation byte of three unchecked."""

    def decode(self, data: bytes) -> str:
        """Return the text of `data`, surrogates and a bad third byte let through."""
        return _decode(data, surrogates=True, tail=True)


class Utf8BuggyPlaced(PlainValueError):
    """`Utf8Buggy` once its errors are placed (UnicodeDecodeError with start and end)."""

    def decode(self, data: bytes) -> str:
        """Return the text of `data`, surrogates and a bad third byte let through."""
        return _decode(data, surrogates=True, tail=True, placed=True)


class Utf8TailBugPlaced(PlainValueError):
    """`Utf8BuggyPlaced` with its surrogate bug fixed: the last continuation byte unchecked."""

    def decode(self, data: bytes) -> str:
        """Return the text of `data`, a bad third byte let through."""
        return _decode(data, tail=True, placed=True)


class Utf8Buggier(PlainValueError):
    """`Utf8Buggy` with C0 and C1 taken as lead bytes too."""

    def decode(self, data: bytes) -> str:
        """Return the text of `data`, surrogates, a bad third byte and C0/C1 let through."""
        return _decode(data, surrogates=True, tail=True, overlong=True)
