"""A plain UTF-8 codec written to be mutated: the test subject of bench/mutants.py.

    utf8cert check bench.mutation.subject:Subject --fail-on may      (from the repository root)

It is independent of utf8cert's reference (never imported; the judge is not its own test
subject) and written the way a careful person writes a decoder by hand: an index walks the input
and `scan` reads one sequence starting there, a byte at a time, checking each byte against
RFC 3629 §4's ranges. No table, no fast path, no state machine: each line is a rule of the
standard, so that a single-point change to any line is a defect a conformance suite ought to
see. It offers every capability (decode, decode_replace, validate, encode, incremental_decoder)
and is conformant at every level.
"""

from __future__ import annotations

from typing import Final

REPLACEMENT: Final = "\ufffd"

TRUNCATED: Final = -2
"""`scan`'s value for a sequence cut short by the end of the input."""
ILL_FORMED: Final = -1
"""`scan`'s value for a maximal subpart ended by a byte that cannot continue it."""


def expected_length(lead: int) -> int:
    """Return the length of the sequence `lead` starts (1 to 4); 0 if it cannot start one."""
    if lead < 0x80:
        return 1
    if lead < 0xC2:  # a tail byte, or C0/C1 (only ever overlong)
        return 0
    if lead < 0xE0:
        return 2
    if lead < 0xF0:
        return 3
    if lead < 0xF5:  # F5..FF would lead beyond U+10FFFF
        return 4
    return 0


def second_byte_range(lead: int) -> tuple[int, int]:
    """Return the lowest and highest byte that may follow `lead` (RFC 3629 §4)."""
    if lead == 0xE0:  # below A0: overlong
        return 0xA0, 0xBF
    if lead == 0xED:  # above 9F: a surrogate
        return 0x80, 0x9F
    if lead == 0xF0:  # below 90: overlong
        return 0x90, 0xBF
    if lead == 0xF4:  # above 8F: beyond U+10FFFF
        return 0x80, 0x8F
    return 0x80, 0xBF


def scan(data: bytes, start: int) -> tuple[int, int]:
    """Return (end, code point) of the sequence at `start`; for an ill-formed maximal subpart,
    (its end, ILL_FORMED), or (len(data), TRUNCATED) if the input ends inside a valid prefix."""
    lead = data[start]
    length = expected_length(lead)
    if length == 0:
        return start + 1, ILL_FORMED
    if length == 1:
        return start + 1, lead
    value = lead & (0xFF >> (length + 1))
    low, high = second_byte_range(lead)
    index = start + 1
    while index < start + length:
        if index >= len(data):
            return index, TRUNCATED
        byte = data[index]
        if byte < low or byte > high:
            return index, ILL_FORMED  # the byte is not part of the subpart: read it again
        value = (value << 6) | (byte & 0x3F)
        low, high = 0x80, 0xBF
        index += 1
    return index, value


def decode_error(data: bytes, start: int, end: int, value: int) -> UnicodeDecodeError:
    """Return the strict decoder's error for the subpart data[start:end]."""
    reason = "unexpected end of data" if value == TRUNCATED else "invalid start or continuation"
    return UnicodeDecodeError("utf-8", data, start, end, reason)


class Subject:
    """A conformant UTF-8 codec with every capability, read one byte at a time."""

    def decode(self, data: bytes) -> str:
        """Return the text of well-formed input; UnicodeDecodeError at the first ill-formed
        subpart, its start and end the subpart's."""
        text = []
        index = 0
        while index < len(data):
            end, value = scan(data, index)
            if value < 0:
                raise decode_error(data, index, end, value)
            text.append(chr(value))
            index = end
        return "".join(text)

    def decode_replace(self, data: bytes) -> str:
        """Return the text with one U+FFFD for each ill-formed maximal subpart."""
        text = []
        index = 0
        while index < len(data):
            end, value = scan(data, index)
            text.append(REPLACEMENT if value < 0 else chr(value))
            index = end
        return "".join(text)

    def validate(self, data: bytes) -> bool:
        """Return True for well-formed input (True for b"")."""
        index = 0
        while index < len(data):
            end, value = scan(data, index)
            if value < 0:
                return False
            index = end
        return True

    def encode(self, text: str) -> bytes:
        """Return the UTF-8 of `text`; UnicodeEncodeError for a surrogate (RFC 3629 §3), its
        start the first surrogate of the run and its end the run's end (as CPython's)."""
        out = bytearray()
        for index, character in enumerate(text):
            value = ord(character)
            if value < 0x80:
                out.append(value)
            elif value < 0x800:
                out.append(0xC0 | (value >> 6))
                out.append(0x80 | (value & 0x3F))
            elif 0xD800 <= value <= 0xDFFF:
                end = index + 1
                while end < len(text) and 0xD800 <= ord(text[end]) <= 0xDFFF:
                    end += 1
                raise UnicodeEncodeError("utf-8", text, index, end, "surrogates not allowed")
            elif value < 0x10000:
                out.append(0xE0 | (value >> 12))
                out.append(0x80 | ((value >> 6) & 0x3F))
                out.append(0x80 | (value & 0x3F))
            else:
                out.append(0xF0 | (value >> 18))
                out.append(0x80 | ((value >> 12) & 0x3F))
                out.append(0x80 | ((value >> 6) & 0x3F))
                out.append(0x80 | (value & 0x3F))
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
        index = 0
        while index < len(data):
            end, value = scan(data, index)
            if value == TRUNCATED and not final:
                self.pending = data[index:]
                break
            if value < 0:
                raise decode_error(data, index, end, value)
            text.append(chr(value))
            index = end
        return "".join(text)

    def getstate(self) -> tuple[bytes, int]:
        """Return (the bytes held back, 0), as `codecs.IncrementalDecoder.getstate` does."""
        return self.pending, 0
