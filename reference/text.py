"""The text of well-formed UTF-8, its value bits read six at a time as RFC 3629 §3 lays them out.

RFC 3629 §3 writes a character's scalar value into its bytes from the right, six bits into each
UTF8-tail (10xxxxxx) and the rest into the lead (0xxxxxxx, 110xxxxx, 1110xxxx, 11110xxx):

    scalar value                 UTF-8 octets
    0000 0000-0000 007F          0xxxxxxx
    0000 0080-0000 07FF          110xxxxx 10xxxxxx
    0000 0800-0000 FFFF          1110xxxx 10xxxxxx 10xxxxxx
    0001 0000-0010 FFFF          11110xxx 10xxxxxx 10xxxxxx 10xxxxxx

Six bits is one base64 digit (RFC 4648 §4). So each byte here is rewritten as the base64 digits
of its value bits: one digit for a UTF8-tail, and for a lead as many as make four digits (24
bits) for its whole character, the scalar value zero-padded on the left. Decoding that base64
leaves each scalar value in three bytes, big-endian; with a zero byte in front of each it is
UTF-32BE (`bulk_text_of`). Every step is a byte-for-byte table or a fixed stride, done in C by
`bytes.translate`, slicing and `binascii`; no step reads CPython's UTF-8 codec. A short run is
read the plain way, `scalar_of` one character at a time (`characters_of`). The tests prove both
on every scalar value, and the whole on every string of up to three bytes.

The input must be a run that the RFC 3629 §4 pattern has matched: this module checks nothing.
"""

from __future__ import annotations

import binascii
import functools
import re
from collections.abc import Iterator
from typing import Final

from .table import CHAR_PATTERN, ROW_OF_BYTE, TAIL, Row

BASE64_DIGITS: Final = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
"""RFC 4648 §4, Table 1: the digit of each six-bit value."""

DIGITS_PER_CHARACTER: Final = 4  # 24 bits: room for U+10FFFF (21 bits)
NO_DIGIT: Final = b"*"  # not a base64 digit: binascii.a2b_base64 discards it (non-strict mode)

CHUNK: Final = 1 << 16
"""Bytes decoded at a time: the working buffers stay small (and in cache) on long input."""
SHORT: Final = 32
"""Runs up to this many bytes are read a character at a time: for so few characters that costs
less than the bulk path's fixed dozen C calls (3 to 4 µs), as between the errors of a fuzz input."""

_CHAR: Final = re.compile(CHAR_PATTERN)  # one UTF8-char, one alternative per row of the table


def digits_of(byte: int) -> bytes:
    """Return the base64 digits that stand for `byte` in a run of well-formed UTF-8.

    A UTF8-tail gives its six value bits as one digit. A lead byte of an n-byte character gives
    its value bits (RFC 3629 §3: 7 for n = 1, else 7 - n) as 4 - (n - 1) digits, the leading
    ones zero, so that its tails complete four. A byte that begins no character gives none.
    """
    if byte in TAIL:
        return BASE64_DIGITS[byte & 0x3F : (byte & 0x3F) + 1]
    row = ROW_OF_BYTE[byte]
    if not isinstance(row, Row):
        return b""
    value = byte if row.length == 1 else byte & (0x7F >> row.length)
    count = DIGITS_PER_CHARACTER - row.tails
    return bytes(BASE64_DIGITS[value >> 6 * (count - 1 - place) & 0x3F] for place in range(count))


def _slot_tables() -> tuple[bytes, ...]:
    """Return four `bytes.translate` tables: the first, second, third and fourth digit of each
    byte's digits, NO_DIGIT where it has fewer."""
    padded = [digits_of(byte).ljust(DIGITS_PER_CHARACTER, NO_DIGIT) for byte in range(256)]
    return tuple(bytes(digits[slot] for digits in padded) for slot in range(DIGITS_PER_CHARACTER))


_SLOTS: Final = _slot_tables()


def scalar_of(sequence: bytes) -> int:
    """Return the scalar value of one well-formed sequence, by the bit layout of RFC 3629 §3."""
    if len(sequence) == 1:
        return sequence[0]
    # The lead keeps 7 - n value bits for an n-byte sequence (110xxxxx, 1110xxxx, 11110xxx).
    value = sequence[0] & (0x7F >> len(sequence))
    for tail in sequence[1:]:
        value = value << 6 | tail & 0x3F  # each UTF8-tail is 10xxxxxx
    return value


@functools.lru_cache(maxsize=1 << 16)  # text repeats its characters; a hit is a C lookup
def _character(sequence: bytes) -> str:
    return chr(scalar_of(sequence))


def characters_of(run: bytes) -> str:
    """Return the text of a run of well-formed UTF-8, one `scalar_of` a character ('' for b'')."""
    return "".join(map(_character, _CHAR.findall(run)))


def bulk_text_of(run: bytes) -> str:
    """Return the text of a run of well-formed UTF-8, all its characters at once ('' for b'').

    The module's docstring says how; a dozen C calls, whatever the length of the run.
    """
    digits = bytearray(DIGITS_PER_CHARACTER * len(run))
    for slot, table in enumerate(_SLOTS):
        digits[slot::DIGITS_PER_CHARACTER] = run.translate(table)
    packed = binascii.a2b_base64(digits)  # three bytes a character: its scalar value
    utf32 = bytearray(len(packed) // 3 * 4)  # four bytes a character, the first one zero
    utf32[1::4], utf32[2::4], utf32[3::4] = packed[0::3], packed[1::3], packed[2::3]
    return utf32.decode("utf-32-be")


def _text_of_chunk(run: bytes) -> str:
    if run.isascii():
        return run.decode("ascii")  # RFC 3629 §3: US-ASCII characters are their own bytes
    if len(run) <= SHORT:
        return characters_of(run)
    return bulk_text_of(run)


def cut_before_leads(data: bytes, size: int = CHUNK) -> Iterator[bytes]:
    """Yield `data` in pieces of about `size` bytes (nothing for b''), each cut before a byte
    that is not a UTF8-tail, or after three UTF8-tails in a row.

    RFC 3629 §1: such a byte starts a character or stands alone, never continues one; and no
    character or maximal subpart holds a byte with three tails before it (a character has at
    most three tails, after its lead). So a cut there changes neither the characters nor the
    maximal subparts.
    """
    start = 0
    while start < len(data):
        end = min(start + size, len(data))
        for _ in range(3):
            if end == len(data) or data[end] not in TAIL:
                break
            end += 1
        yield data[start:end]
        start = end


def text_of(run: bytes) -> str:
    """Return the text of a run of well-formed UTF-8, one character per UTF8-char ('' for b'').

    ASCII is its own text; a short run is read a character at a time, a longer one in bulk,
    CHUNK bytes at a time (so that the working buffers stay small).
    """
    if len(run) <= CHUNK:
        return _text_of_chunk(run)
    return "".join(map(_text_of_chunk, cut_before_leads(run)))
