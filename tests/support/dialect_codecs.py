"""Codecs of the dialects utf8cert's profiles name, written by hand from their published
definitions (never from harness/check/profiles.py), each on top of the hand-rolled WHATWG
decoder loop of hand_rolled.py. Loadable as `support.dialect_codecs:NAME`.

- Surrogatepass: CPython's utf-8 with errors='surrogatepass' (U+FFFD decoding is plain).
- Wtf8: S. Sapin, "The WTF-8 encoding": generalized UTF-8 less surrogate pair byte sequences;
  the encoder joins a lead surrogate followed by a trail surrogate.
- Cesu8: Unicode TR #26: each UTF-16 code unit in its 3-byte form; no 4-byte forms.
- JavaModified: java.io.DataInput "Modified UTF-8": U+0000 as C0 80, UTF-16 code units in
  their 1- to 3-byte forms, no 4-byte forms.
- Rfc2279: RFC 2279 §2 read and written with surrogates as values, 1 to 6 octets up to
  0x7FFFFFFF, shortest forms only (§6); text holding a value above U+10FFFF, which no str
  holds, is returned as a tuple of code points (the encoder, taking a str, is never offered
  such values).
- Whatwg: the WHATWG Encoding Standard's "UTF-8 decode" (a leading BOM skipped) and "UTF-8
  encode" of a USVString (a lone surrogate becomes U+FFFD).

- BeyondUnicode: glibc's reading, RFC 2279's forms of values above U+10FFFF read, surrogates
  refused as RFC 3629 requires: stricter than RFC 2279 in one place, so that profile must not be
  said to fit it.

`*Plus` codecs add one more deviation each: they read the overlong C0 AF as "/" (RFC 3629 §10's
example of an attack), which no profile allows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from support.hand_rolled import REPLACEMENT, HandRolled, Step, whatwg_steps

ASCII_RUN = re.compile("([\x01-\x7f]+)")
HIGH = range(0xD800, 0xDC00)
LOW = range(0xDC00, 0xE000)


def _bytes_alone(start: int, end: int) -> Iterator[Step]:
    """Yield each byte of data[start:end] as an ill-formed subpart of its own."""
    for index in range(start, end):
        yield index, index + 1, None


def _utf16_units(value: int) -> list[int]:
    """Return the UTF-16 code units of a code point (Unicode §3.9, D91)."""
    if value < 0x10000:
        return [value]
    value -= 0x10000
    return [0xD800 + (value >> 10), 0xDC00 + (value & 0x3FF)]


def _pairs_joined(text: str) -> str:
    """Return `text` with each lead surrogate followed by a trail one joined (UTF-16's way)."""
    out: list[str] = []
    for character in text:
        if out and ord(character) in LOW and ord(out[-1]) in HIGH:
            high = ord(out.pop())
            character = chr(0x10000 + ((high - 0xD800) << 10) + ord(character) - 0xDC00)
        out.append(character)
    return "".join(out)


def _index_in(text: str, joined_index: int) -> int:
    """Return the index in `text` of the character at `joined_index` of _pairs_joined(text):
    each pair joined before it took two characters of `text`."""
    original = 0
    for _ in range(joined_index):
        pair = original + 1 < len(text) and ord(text[original]) in HIGH
        pair = pair and ord(text[original + 1]) in LOW
        original += 2 if pair else 1
    return original


def _three_bytes(value: int) -> bytes:
    return bytes([0xE0 | value >> 12, 0x80 | value >> 6 & 0x3F, 0x80 | value & 0x3F])


def _single_surrogate(piece: str | None) -> int | None:
    """Return the surrogate a step decoded to, when it is one lone surrogate."""
    if piece is not None and len(piece) == 1 and 0xD800 <= ord(piece) <= 0xDFFF:
        return ord(piece)
    return None


class BufferingDecoder:
    """An incremental decoder that holds everything back until the final chunk."""

    def __init__(self, codec: HandRolled) -> None:
        self.codec = codec
        self.held = b""

    def decode(self, chunk: bytes, final: bool = False) -> str:
        """Return '' until the final chunk, then the text of everything fed."""
        self.held += chunk
        return self.codec.decode(self.held) if final else ""


class Dialect(HandRolled):
    """A hand-rolled codec of a dialect: an incremental decoder that buffers, and an encoder
    that writes runs of ASCII (but U+0000, which Java writes otherwise) at once."""

    def encode(self, text: str) -> bytes:
        """Return the encoding of `text`, ASCII runs as they are, the rest by `encode_other`;
        UnicodeEncodeError at the index in `text` where `encode_other` refuses."""
        out, offset = bytearray(), 0
        for part in ASCII_RUN.split(text):
            if ASCII_RUN.fullmatch(part):
                out += part.encode("ascii")
            elif part:
                try:
                    out += self.encode_other(part)
                except UnicodeEncodeError as error:
                    start, end = error.start + offset, error.end + offset
                    raise UnicodeEncodeError(
                        error.encoding, text, start, end, error.reason
                    ) from None
            offset += len(part)
        return bytes(out)

    def encode_other(self, text: str) -> bytes:
        """Return the encoding of text that is not a run of ASCII."""
        return HandRolled.encode(self, text)

    def incremental_decoder(self) -> BufferingDecoder:  # type: ignore[override]
        """Return a fresh decoder that decodes at the final chunk."""
        return BufferingDecoder(self)


class Surrogatepass(Dialect):
    """CPython's surrogatepass: each surrogate passes in its 3-byte form, pairs unjoined."""

    writes_surrogates = True

    def steps(self, data: bytes) -> Iterator[Step]:
        """Yield the steps with ED A0..BF read as surrogates."""
        return whatwg_steps(data, surrogates=True)

    def decode_replace(self, data: bytes) -> str:
        """Return plain U+FFFD decoding: errors='replace' passes no surrogate."""
        return "".join(
            REPLACEMENT if piece is None else piece for _, _, piece in whatwg_steps(data)
        )


class Wtf8(Dialect):
    """WTF-8: lone surrogates read and written; a surrogate pair byte sequence is ill-formed."""

    writes_surrogates = True

    def steps(self, data: bytes) -> Iterator[Step]:
        """Yield the steps, a lead surrogate followed by a trail one as six bad bytes."""
        steps = list(whatwg_steps(data, surrogates=True))
        index = 0
        while index < len(steps):
            start, end, piece = steps[index]
            following = steps[index + 1] if index + 1 < len(steps) else None
            paired = following is not None and _single_surrogate(following[2]) in LOW
            if paired and following is not None and _single_surrogate(piece) in HIGH:
                yield from _bytes_alone(start, following[1])
                index += 2
                continue
            yield start, end, piece
            index += 1

    def encode_other(self, text: str) -> bytes:
        """Return generalized UTF-8, a lead surrogate followed by a trail one joined first."""
        return HandRolled.encode(self, _pairs_joined(text))


def utf16_steps(data: bytes, *, lone: bool, null: bool) -> Iterator[Step]:
    """Yield the steps of UTF-16 code units in their 1- to 3-byte forms: a surrogate pair
    joined, a lone surrogate read when `lone` (else its bytes bad), C0 80 read as U+0000 when
    `null`, and no 4-byte form (F0..F4 lead nothing)."""
    steps = list(whatwg_steps(data, surrogates=True))
    index = 0
    while index < len(steps):
        start, end, piece = steps[index]
        following = steps[index + 1] if index + 1 < len(steps) else (end, end, None)
        high, low = _single_surrogate(piece), _single_surrogate(following[2])
        if high is not None and low is not None and high in HIGH and low in LOW:
            yield start, following[1], chr(0x10000 + ((high - 0xD800) << 10) + low - 0xDC00)
            index += 2
        elif null and data[start : start + 2] == b"\xc0\x80" and following[0] == start + 1:
            yield start, start + 2, "\0"
            index += 2
        elif (high is not None and not lone) or 0xF0 <= data[start] <= 0xF4:
            yield from _bytes_alone(start, end)
            index += 1
        else:
            yield start, end, piece
            index += 1


def _code_units(text: str, lone: bool) -> Iterator[int]:
    """Yield the UTF-16 code units of `text`; UnicodeEncodeError at a lone surrogate unless
    `lone`."""
    for index, character in enumerate(text):
        value = ord(character)
        if 0xD800 <= value <= 0xDFFF and not lone:
            raise UnicodeEncodeError("cesu-8", text, index, index + 1, "lone surrogate")
        yield from _utf16_units(value)


class Cesu8(Dialect):
    """CESU-8: supplementary characters as two 3-byte surrogates; no 4-byte forms."""

    lone = False
    """Whether a lone surrogate is read and written (Java) or ill-formed (CESU-8)."""
    null = False
    """Whether U+0000 is C0 80 (Java) or 00."""

    def steps(self, data: bytes) -> Iterator[Step]:
        """Yield the steps: pairs joined; lone surrogates, C0 80 as the class says."""
        return utf16_steps(data, lone=self.lone, null=self.null)

    def encode_other(self, text: str) -> bytes:
        """Return each UTF-16 code unit in its 1- to 3-byte form (U+0000 as C0 80 if `null`);
        UnicodeEncodeError at the index in `text` (not in its pairs joined) of a lone one."""
        joined = _pairs_joined(text)
        try:
            units = list(_code_units(joined, lone=self.lone))
        except UnicodeEncodeError as error:
            at = _index_in(text, error.start)
            raise UnicodeEncodeError(error.encoding, text, at, at + 1, error.reason) from None
        out = bytearray()
        for unit in units:
            if unit == 0 and self.null:
                out += b"\xc0\x80"
            elif unit >= 0x800:
                out += _three_bytes(unit)
            else:
                out += HandRolled.encode(self, chr(unit))
        return bytes(out)


class JavaModified(Cesu8):
    """Java's modified UTF-8: C0 80 for U+0000; UTF-16 code units, lone surrogates too."""

    lone = True
    null = True


# RFC 2279 §2: the lead byte's high bits give the length; the second byte's lowest value is
# the one that keeps the form shortest (§6), as RFC 3629 §4 does for E0 and F0.
LEGACY_LEADS: Final = {
    **{lead: (2, 0x80) for lead in range(0xC2, 0xE0)},
    **{lead: (3, 0xA0 if lead == 0xE0 else 0x80) for lead in range(0xE0, 0xF0)},
    **{lead: (4, 0x90 if lead == 0xF0 else 0x80) for lead in range(0xF0, 0xF8)},
    **{lead: (5, 0x88 if lead == 0xF8 else 0x80) for lead in range(0xF8, 0xFC)},
    **{lead: (6, 0x84 if lead == 0xFC else 0x80) for lead in range(0xFC, 0xFE)},
}
VALUE_BITS: Final = {2: 0x1F, 3: 0x0F, 4: 0x07, 5: 0x03, 6: 0x01}


def legacy_steps(data: bytes) -> Iterator[tuple[int, int, int | None]]:
    """Yield each value of `data` read as RFC 2279 UTF-8, or each ill-formed maximal subpart
    (value None), as (start, end, value)."""
    position = 0
    while position < len(data):
        start, lead = position, data[position]
        position += 1
        if lead < 0x80:
            yield start, position, lead
            continue
        if lead not in LEGACY_LEADS:  # 80..BF, C0, C1, FE, FF
            yield start, position, None
            continue
        length, low = LEGACY_LEADS[lead]
        value = lead & VALUE_BITS[length]
        while position - start < length and position < len(data):
            if not low <= data[position] <= 0xBF:
                break
            value, low, position = value << 6 | data[position] & 0x3F, 0x80, position + 1
        yield start, position, value if position - start == length else None


def _text(values: list[int]) -> str | tuple[int, ...]:
    """Return the values as a str, or as a tuple when one lies above U+10FFFF."""
    if max(values, default=0) > 0x10FFFF:
        return tuple(values)
    return "".join(map(chr, values))


class Rfc2279(Surrogatepass):
    """RFC 2279's reader and writer: 1 to 6 octets, surrogates are values like any other."""

    def decode(self, data: bytes) -> str | tuple[int, ...]:  # type: ignore[override]
        """Return the text; UnicodeDecodeError at the first ill-formed subpart."""
        values = []
        for start, end, value in legacy_steps(data):
            if value is None:
                raise UnicodeDecodeError("utf-8", data, start, end, "ill-formed RFC 2279")
            values.append(value)
        return _text(values)

    def decode_replace(self, data: bytes) -> str | tuple[int, ...]:  # type: ignore[override]
        """Return the text with U+FFFD for each ill-formed subpart."""
        return _text([0xFFFD if value is None else value for _, _, value in legacy_steps(data)])

    def validate(self, data: bytes) -> bool:
        """Return True when every subpart is a value."""
        return all(value is not None for _, _, value in legacy_steps(data))


class BeyondUnicode(Rfc2279):
    """RFC 2279's reader less surrogates, as glibc reads UTF-8: values above U+10FFFF read."""

    def decode(self, data: bytes) -> str | tuple[int, ...]:  # type: ignore[override]
        """Return the text; UnicodeDecodeError at the first ill-formed subpart or surrogate."""
        for start, end, value in legacy_steps(data):
            if value is not None and 0xD800 <= value <= 0xDFFF:
                raise UnicodeDecodeError("utf-8", data, start, end, "a surrogate")
        return super().decode(data)


class Whatwg(Dialect):
    """The WHATWG Encoding Standard's UTF-8: a leading BOM skipped; USVString encoding."""

    def steps(self, data: bytes) -> Iterator[Step]:
        """Yield the steps of `data` with a leading EF BB BF skipped."""
        skip = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        for start, end, piece in whatwg_steps(data[skip:]):
            yield start + skip, end + skip, piece

    def encode_other(self, text: str) -> bytes:
        """Return the UTF-8 of the USVString: pairs joined, lone surrogates as U+FFFD."""
        joined = _pairs_joined(text)
        return HandRolled.encode(
            self, "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in joined)
        )


def _plus(base: type[HandRolled]) -> type[HandRolled]:
    """Return `base` that also reads the overlong C0 AF as '/' when decoding strictly."""

    class Plus(base):  # type: ignore[valid-type, misc]
        def decode(self, data: bytes) -> str | tuple[int, ...]:
            decoded: str | tuple[int, ...] = super().decode(data.replace(b"\xc0\xaf", b"/"))
            return decoded

    Plus.__name__ = f"{base.__name__}Plus"
    return Plus


SurrogatepassPlus = _plus(Surrogatepass)
Wtf8Plus = _plus(Wtf8)
Cesu8Plus = _plus(Cesu8)
JavaModifiedPlus = _plus(JavaModified)
Rfc2279Plus = _plus(Rfc2279)
WhatwgPlus = _plus(Whatwg)
