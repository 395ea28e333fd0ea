"""A word-at-a-time UTF-8 codec, the third parent of bench/mutants.py: bit twiddling, no tables.

    utf8cert check bench.mutation.swar:Subject --fail-on may      (from the repository root)

Written the way SWAR ("SIMD within a register") decoders are: ASCII is skipped eight bytes at a
time by masking the high bits of a 64-bit word read with `int.from_bytes`; a sequence is read as
one 32-bit big-endian word, its length taken from the lead's leading ones, its continuation bytes
tested by mask, its value gathered by shifts and masks, and the narrowed second-byte ranges of
RFC 3629 §4 decided on the value's high bits (overlong, surrogate, past U+10FFFF: §3) rather
than on byte ranges. The encoder builds each sequence as one integer. Independent of utf8cert's
reference (never imported), with every capability, conformant at every level.
"""

from __future__ import annotations

from typing import Final

REPLACEMENT: Final = "\ufffd"
HIGH_BITS: Final = 0x8080808080808080
"""The high bit of each byte of a 64-bit word: zero for eight ASCII bytes."""
TRUNCATED: Final = -2
ILL_FORMED: Final = -1


def leading_ones(byte: int) -> int:
    """Return how many 1 bits the byte begins with (0 for ASCII, 1 for a continuation byte)."""
    return 8 - (~byte & 0xFF).bit_length()


def is_tail(word: int, place: int) -> bool:
    """Return whether byte `place` (0 to 3, from the high end) of a 32-bit word is 10xxxxxx."""
    return (word >> (24 - 8 * place)) & 0xC0 == 0x80


def value_of(word: int, length: int) -> int:
    """Return the scalar value the first `length` bytes of a 32-bit word hold (RFC 3629 §3)."""
    if length == 2:
        return ((word >> 18) & 0x7C0) | ((word >> 16) & 0x3F)
    if length == 3:
        return ((word >> 12) & 0xF000) | ((word >> 10) & 0xFC0) | ((word >> 8) & 0x3F)
    return (
        ((word >> 6) & 0x1C0000) | ((word >> 4) & 0x3F000) | ((word >> 2) & 0xFC0) | (word & 0x3F)
    )


def second_allowed(word: int, length: int) -> bool:
    """Return whether a lead and its second byte can begin a scalar value: the high bits of the
    value they hold put it past the shortest form, outside the surrogates and below U+110000."""
    if length == 3:
        high = ((word >> 18) & 0x3C0) | ((word >> 16) & 0x3F)  # the value's bits 6 and up
        return high >= 0x20 and not 0x360 <= high <= 0x37F
    high = ((word >> 18) & 0x1C0) | ((word >> 16) & 0x3F)  # the value's bits 12 and up
    return 0x10 <= high <= 0x10F


def scan(data: bytes, start: int) -> tuple[int, int]:
    """Return (end, code point) of the sequence at `start`; for an ill-formed maximal subpart,
    (its end, ILL_FORMED), or (len(data), TRUNCATED) if the input ends inside a valid prefix."""
    lead = data[start]
    length = leading_ones(lead)
    if length == 0:
        return start + 1, lead
    # 10xxxxxx, 11111xxx, C0 and C1 (overlong whatever follows), F5..F7 (past U+10FFFF)
    if length == 1 or length > 4 or (length == 2 and lead & 0x1E == 0) or lead > 0xF4:
        return start + 1, ILL_FORMED
    have = min(4, len(data) - start)
    word = int.from_bytes(data[start : start + have], "big") << (8 * (4 - have))
    for place in range(1, length):
        if place >= have:
            return len(data), TRUNCATED
        if not is_tail(word, place) or (
            place == 1 and length > 2 and not second_allowed(word, length)
        ):
            return start + place, ILL_FORMED
    return start + length, value_of(word, length)


def ascii_run(data: bytes, start: int) -> int:
    """Return where the run of ASCII at `start` ends, reading eight bytes at a time."""
    index = start
    while (
        index + 8 <= len(data)
        and int.from_bytes(data[index : index + 8], "little") & HIGH_BITS == 0
    ):
        index += 8
    while index < len(data) and data[index] < 0x80:
        index += 1
    return index


def pieces(data: bytes) -> list[tuple[int, int, int]]:
    """Return the input as (start, end, value) runs: an ASCII run (value -3), a character, or an
    ill-formed subpart (ILL_FORMED, TRUNCATED)."""
    found = []
    index = 0
    while index < len(data):
        end = ascii_run(data, index)
        if end > index:
            found.append((index, end, -3))
            index = end
            continue
        end, value = scan(data, index)
        found.append((index, end, value))
        index = end
    return found


def decode_error(data: bytes, start: int, end: int, value: int) -> UnicodeDecodeError:
    """Return the strict decoder's error for the subpart data[start:end]."""
    reason = "unexpected end of data" if value == TRUNCATED else "invalid start or continuation"
    return UnicodeDecodeError("utf-8", data, start, end, reason)


def text_of(data: bytes, start: int, end: int, value: int) -> str:
    """Return the text of one run of `pieces` (the bytes themselves for ASCII)."""
    if value == -3:
        return data[start:end].decode("latin-1")  # ASCII bytes are their own code points
    return REPLACEMENT if value < 0 else chr(value)


class Subject:
    """A conformant UTF-8 codec with every capability, a machine word at a time."""

    def decode(self, data: bytes) -> str:
        """Return the text of well-formed input; UnicodeDecodeError at the first ill-formed
        subpart, its start and end the subpart's."""
        text = []
        for start, end, value in pieces(data):
            if value in (ILL_FORMED, TRUNCATED):
                raise decode_error(data, start, end, value)
            text.append(text_of(data, start, end, value))
        return "".join(text)

    def decode_replace(self, data: bytes) -> str:
        """Return the text with one U+FFFD for each ill-formed maximal subpart."""
        return "".join(text_of(data, start, end, value) for start, end, value in pieces(data))

    def validate(self, data: bytes) -> bool:
        """Return True for well-formed input (True for b"")."""
        index = 0
        while index < len(data):
            index = ascii_run(data, index)
            if index == len(data):
                break
            index, value = scan(data, index)
            if value < 0:
                return False
        return True

    def encode(self, text: str) -> bytes:
        """Return the UTF-8 of `text`; UnicodeEncodeError for a surrogate (RFC 3629 §3), its
        start the first surrogate of the run and its end the run's end (as CPython's)."""
        out = bytearray()
        for index, character in enumerate(text):
            value = ord(character)
            if value >> 11 == 0x1B:  # 11011xxxxxxxxxxx: U+D800..U+DFFF
                end = index + 1
                while end < len(text) and ord(text[end]) >> 11 == 0x1B:
                    end += 1
                raise UnicodeEncodeError("utf-8", text, index, end, "surrogates not allowed")
            bits = value.bit_length()
            if bits <= 7:
                out.append(value)
            elif bits <= 11:
                word = 0xC080 | ((value << 2) & 0x1F00) | (value & 0x3F)
                out += word.to_bytes(2, "big")
            elif bits <= 16:
                word = 0xE08080 | ((value << 4) & 0x0F0000) | ((value << 2) & 0x3F00)
                out += (word | (value & 0x3F)).to_bytes(3, "big")
            else:
                word = 0xF0808080 | ((value << 6) & 0x07000000) | ((value << 4) & 0x3F0000)
                out += (word | ((value << 2) & 0x3F00) | (value & 0x3F)).to_bytes(4, "big")
        return bytes(out)

    def incremental_decoder(self) -> Incremental:
        """Return a fresh strict decoder that is fed in chunks."""
        return Incremental()


class Incremental:
    """A strict incremental decoder: holds back a valid prefix cut by the end of a chunk."""

    def __init__(self) -> None:
        self.pending = b""

    def decode(self, chunk: bytes, final: bool = False) -> str:
        """Return the characters `chunk` completes; UnicodeDecodeError at the first error, its
        offsets counted from the first byte held back before `chunk` (as CPython's)."""
        data = self.pending + chunk
        self.pending = b""
        text = []
        for start, end, value in pieces(data):
            if value == TRUNCATED and not final:
                self.pending = data[start:]
                break
            if value in (ILL_FORMED, TRUNCATED):
                raise decode_error(data, start, end, value)
            text.append(text_of(data, start, end, value))
        return "".join(text)

    def getstate(self) -> tuple[bytes, int]:
        """Return (the bytes held back, 0), as `codecs.IncrementalDecoder.getstate` does."""
        return self.pending, 0
