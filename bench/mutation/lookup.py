"""A lookup-table UTF-8 codec, the fourth parent of bench/mutants.py: a design nobody here wrote.

    utf8cert check bench.mutation.lookup:Subject --fail-on may      (from the repository root)

Its validator is the one simdjson and simdutf use, written from Keiser and Lemire, "Validating
UTF-8 in less than one instruction per byte" (Software: Practice and Experience, 2021), §4 and
its Table 4: each byte is looked up, with the byte before it, in three 16-entry tables indexed by
the previous byte's high nibble, its low nibble and the current byte's high nibble; the three
entries are ANDed, and a bit left set names an error. The byte two and three before decide
whether a continuation byte is due (the paper's `must_be_2_3_continuation`). The input is read in
16-byte blocks, the byte before a block taken from the block before it; an all-ASCII block only
checks that the block before it ended no sequence too soon (the paper's incomplete-tail test);
the input's end is such a test too. Python integers stand for the SIMD registers, one byte a
lane, so that a table cell is one literal here, and a mutant of it one wrong cell.

The decoder reads a lead's leading ones for the sequence length and checks its second byte
against a per-lead range table (RFC 3629 §4's narrowed ranges); the encoder picks the length by
the scalar value's bit length. Independent of utf8cert's reference (never imported) and of the
other parents, with every capability, conformant at every level.
"""

from __future__ import annotations

from typing import Final

REPLACEMENT: Final = "\ufffd"
BLOCK: Final = 16

# The error bits of Keiser and Lemire's Table 4, written as literals in the tables below (so that
# a mutant of a cell is one wrong cell): bit, name, and the pattern of byte 1 and byte 2.
#   0x01 TOO_SHORT       11______ 0_______ or 11______ 11______: a lead not followed by a tail
#   0x02 TOO_LONG        0_______ 10______: a tail after ASCII
#   0x04 OVERLONG_3      11100000 100_____
#   0x08 TOO_LARGE       11110100 1001____, 11110100 101_____, 11110101..11111111 1001..1011____
#   0x10 SURROGATE       11101101 101_____
#   0x20 OVERLONG_2      1100000_ 10______
#   0x40 TOO_LARGE_1000  11110101..11111111 1000____; also OVERLONG_4, 11110000 1000____
#   0x80 TWO_CONTS       10______ 10______: a tail after a tail (an error unless one is due)
TWO_CONTS: Final = 0x80

# Indexed by the previous byte's high nibble.
BYTE_1_HIGH: Final = (
    0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02,  # 0_______: TOO_LONG
    0x80, 0x80, 0x80, 0x80,  # 10______: TWO_CONTS
    0x21,  # 1100____: TOO_SHORT | OVERLONG_2
    0x01,  # 1101____: TOO_SHORT
    0x15,  # 1110____: TOO_SHORT | OVERLONG_3 | SURROGATE
    0x49,  # 1111____: TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4
)  # fmt: skip
# Indexed by the previous byte's low nibble; 0x83 is TOO_SHORT | TOO_LONG | TWO_CONTS (the
# paper's CARRY: those errors do not depend on the low nibble).
BYTE_1_LOW: Final = (
    0xE7,  # ____0000: CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4
    0xA3,  # ____0001: CARRY | OVERLONG_2
    0x83, 0x83,  # ____001_: CARRY
    0x8B,  # ____0100: CARRY | TOO_LARGE
    0xCB, 0xCB, 0xCB,  # ____0101, ____011_: CARRY | TOO_LARGE | TOO_LARGE_1000
    0xCB, 0xCB, 0xCB, 0xCB, 0xCB,  # ____1000.. ____1100: the same
    0xDB,  # ____1101: CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE
    0xCB, 0xCB,  # ____111_: CARRY | TOO_LARGE | TOO_LARGE_1000
)  # fmt: skip
# Indexed by the current byte's high nibble.
BYTE_2_HIGH: Final = (
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,  # 0_______: TOO_SHORT
    0xE6,  # 1000____: TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4
    0xAE,  # 1001____: TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE
    0xBA, 0xBA,  # 101_____: TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE
    0x01, 0x01, 0x01, 0x01,  # 11______: TOO_SHORT
)  # fmt: skip
INCOMPLETE: Final = (0xC0, 0xE0, 0xF0)
"""A block's last, second-to-last and third-to-last byte at or above these begins a sequence
longer than the block has room for (the paper's `is_incomplete`, its max_array)."""


def block_errors(block: bytes, before: bytes) -> int:
    """Return the error bits of one block (0: none), `before` the three bytes preceding it
    (zeros at the start of the input)."""
    window = before + block
    errors = 0
    for index in range(3, len(window)):
        previous, current = window[index - 1], window[index]
        special = BYTE_1_HIGH[previous >> 4] & BYTE_1_LOW[previous & 0x0F]
        special &= BYTE_2_HIGH[current >> 4]
        due = window[index - 2] >= 0xE0 or window[index - 3] >= 0xF0
        errors |= special ^ (TWO_CONTS if due else 0)
    return errors


def is_incomplete(block: bytes) -> bool:
    """Return whether a 16-byte `block` ends inside a sequence: one of its last three bytes is
    a lead with more bytes due than the block has left."""
    return block[15] >= INCOMPLETE[0] or block[14] >= INCOMPLETE[1] or block[13] >= INCOMPLETE[2]


def well_formed(data: bytes) -> bool:
    """Return True for well-formed input (True for b""), sixteen bytes a step; the last block
    padded with zero bytes, as the paper's last partial block is, so that a sequence the input
    ends inside is cut short by a zero within the block."""
    before = b"\x00\x00\x00"
    pending = False
    for start in range(0, len(data), BLOCK):
        block = data[start : start + BLOCK].ljust(BLOCK, b"\x00")
        if block.isascii():
            if pending:
                return False
        elif block_errors(block, before):
            return False
        pending = is_incomplete(block)
        before = (before + block)[-3:]
    return not pending


SECOND: Final = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}
"""The second bytes each lead allows where RFC 3629 §4 narrows 80..BF."""
TRUNCATED: Final = -2
ILL_FORMED: Final = -1


def leading_ones(byte: int) -> int:
    """Return how many 1 bits the byte begins with (0 for ASCII, 1 for a tail)."""
    count = 0
    while count < 8 and byte & (0x80 >> count):
        count += 1
    return count


def scan(data: bytes, start: int) -> tuple[int, int]:
    """Return (end, code point) of the sequence at `start`; for an ill-formed maximal subpart,
    (its end, ILL_FORMED), or (len(data), TRUNCATED) if the input ends inside a valid prefix."""
    lead = data[start]
    length = leading_ones(lead)
    if length == 0:
        return start + 1, lead
    if length == 1 or length > 4 or lead in (0xC0, 0xC1) or lead > 0xF4:
        return start + 1, ILL_FORMED
    value = lead & (0x7F >> length)
    for place in range(1, length):
        if start + place >= len(data):
            return len(data), TRUNCATED
        byte = data[start + place]
        low, high = SECOND.get(lead, (0x80, 0xBF)) if place == 1 else (0x80, 0xBF)
        if not low <= byte <= high:
            return start + place, ILL_FORMED
        value = value << 6 | byte & 0x3F
    return start + length, value


def pieces(data: bytes) -> list[tuple[int, int, int]]:
    """Return the input as (start, end, value): a character, or an ill-formed subpart."""
    found = []
    index = 0
    while index < len(data):
        end, value = scan(data, index)
        found.append((index, end, value))
        index = end
    return found


def decode_error(data: bytes, start: int, end: int, value: int) -> UnicodeDecodeError:
    """Return the strict decoder's error for the subpart data[start:end]."""
    reason = "unexpected end of data" if value == TRUNCATED else "invalid start or continuation"
    return UnicodeDecodeError("utf-8", data, start, end, reason)


class Subject:
    """A conformant UTF-8 codec with every capability, its validator three lookup tables."""

    def decode(self, data: bytes) -> str:
        """Return the text of well-formed input; UnicodeDecodeError at the first ill-formed
        subpart, its start and end the subpart's."""
        text = []
        for start, end, value in pieces(data):
            if value < 0:
                raise decode_error(data, start, end, value)
            text.append(chr(value))
        return "".join(text)

    def decode_replace(self, data: bytes) -> str:
        """Return the text with one U+FFFD for each ill-formed maximal subpart."""
        return "".join(REPLACEMENT if v < 0 else chr(v) for _, _, v in pieces(data))

    def validate(self, data: bytes) -> bool:
        """Return True for well-formed input (True for b"")."""
        return well_formed(data)

    def encode(self, text: str) -> bytes:
        """Return the UTF-8 of `text`; UnicodeEncodeError for a surrogate (RFC 3629 §3), its
        start the first surrogate of the run and its end the run's end (as CPython's)."""
        out = bytearray()
        for index, character in enumerate(text):
            value = ord(character)
            if 0xD800 <= value <= 0xDFFF:
                end = index + 1
                while end < len(text) and 0xD800 <= ord(text[end]) <= 0xDFFF:
                    end += 1
                raise UnicodeEncodeError("utf-8", text, index, end, "surrogates not allowed")
            bits = value.bit_length()
            if bits <= 7:
                out.append(value)
                continue
            length = 2 if bits <= 11 else 3 if bits <= 16 else 4
            out.append((0xF00 >> length) & 0xFF | value >> (6 * (length - 1)))
            for place in range(length - 2, -1, -1):
                out.append(0x80 | (value >> (6 * place)) & 0x3F)
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
            if value < 0:
                raise decode_error(data, start, end, value)
            text.append(chr(value))
        return "".join(text)

    def getstate(self) -> tuple[bytes, int]:
        """Return (the bytes held back, 0), as `codecs.IncrementalDecoder.getstate` does."""
        return self.pending, 0
