"""A second formulation of UTF-8, for the tests only: RFC 3629 §3 bit arithmetic and value ranges.

The reference (utf8cert.reference) is driven by the §4 ABNF transcribed as a table of byte
ranges. This module never looks at byte ranges: it reads the length from the lead byte's high
bits and decides everything else on the scalar value, with the three rules of §3:

- a character takes the shortest form its value fits (the value ranges of the §3 table);
- U+D800..U+DFFF are never encoded;
- nothing above U+10FFFF is encoded.

A prefix of a sequence is a maximal subpart (Unicode §3.9 D93b) candidate while *some* value
that it could still become obeys those rules: the bits read so far, followed by all 0s or all 1s,
bound the values reachable from it. It must not import utf8cert.reference.

`ABNF` is a third formulation: the §4 grammar typed by hand as a regular expression.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

REPLACEMENT_CHARACTER: Final = "\ufffd"

# RFC 3629 §3 table: the value range of each sequence length (the shortest-form rule).
FIRST_VALUE: Final = {1: 0x0000, 2: 0x0080, 3: 0x0800, 4: 0x10000}
LAST_VALUE: Final = {1: 0x007F, 2: 0x07FF, 3: 0xFFFF, 4: 0x10FFFF}
# RFC 3629 §3: "prohibits encoding character numbers between U+D800 and U+DFFF".
SURROGATE_FIRST: Final = 0xD800
SURROGATE_LAST: Final = 0xDFFF

# RFC 3629 §4, typed from the ABNF (not generated from anything):
#   UTF8-1 = %x00-7F        UTF8-2 = %xC2-DF UTF8-tail
#   UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
#            %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
#   UTF8-4 = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
#            %xF4 %x80-8F 2( UTF8-tail )
#   UTF8-tail = %x80-BF
ABNF: Final = re.compile(
    rb"(?:[\x00-\x7F]"
    rb"|[\xC2-\xDF][\x80-\xBF]"
    rb"|\xE0[\xA0-\xBF][\x80-\xBF]|[\xE1-\xEC][\x80-\xBF]{2}"
    rb"|\xED[\x80-\x9F][\x80-\xBF]|[\xEE-\xEF][\x80-\xBF]{2}"
    rb"|\xF0[\x90-\xBF][\x80-\xBF]{2}|[\xF1-\xF3][\x80-\xBF]{3}"
    rb"|\xF4[\x80-\x8F][\x80-\xBF]{2}"
    rb")*+"
)


def length_from_lead(lead: int) -> int:
    """Return the sequence length the lead byte's high bits announce (RFC 3629 §3), 0 for none.

    0xxxxxxx: 1, 110xxxxx: 2, 1110xxxx: 3, 11110xxx: 4. 10xxxxxx continues a sequence and
    11111xxx begins nothing in RFC 3629: both give 0.
    """
    if lead >> 7 == 0b0:
        return 1
    if lead >> 5 == 0b110:
        return 2
    if lead >> 4 == 0b1110:
        return 3
    if lead >> 3 == 0b11110:
        return 4
    return 0


# The same, looked up by byte value (sequence_at runs millions of times in the tests).
LENGTH_FROM_LEAD: Final = tuple(map(length_from_lead, range(256)))


def can_complete(bits: int, missing: int, length: int) -> bool:
    """Return True if the value bits read so far, with `missing` bits to come, can still give a
    value that a `length`-byte sequence may encode (shortest form, no surrogate, <= U+10FFFF)."""
    lowest, highest = bits << missing, bits << missing | ((1 << missing) - 1)
    if highest < FIRST_VALUE[length] or lowest > LAST_VALUE[length]:
        return False  # shorter than the shortest form, or past U+10FFFF, whatever follows
    inside_surrogates = lowest >= SURROGATE_FIRST and highest <= SURROGATE_LAST
    return not inside_surrogates


def sequence_at(data: bytes, start: int) -> tuple[int, int | None]:
    """Return (length, scalar value) of the character at `start`, or (maximal subpart, None)."""
    lead = data[start]
    length = LENGTH_FROM_LEAD[lead]
    if length == 0:
        return 1, None
    if length == 1:
        return 1, lead
    bits = lead & (0xFF >> (length + 1))  # RFC 3629 §3: the lead keeps 7 - length value bits
    missing = 6 * (length - 1)
    if not can_complete(bits, missing, length):
        return 1, None
    for seen in range(1, length):
        if start + seen == len(data):
            return seen, None  # cut short by the end of input
        byte = data[start + seen]
        if byte >> 6 != 0b10:
            return seen, None  # not a 10xxxxxx continuation byte
        missing -= 6
        if not can_complete(bits << 6 | byte & 0x3F, missing, length):
            return seen, None
        bits = bits << 6 | byte & 0x3F
    return length, bits


def is_proper_prefix(data: bytes) -> bool:
    """Return True if more bytes could make `data` one well-formed character (False for b'')."""
    if not data or not len(data) < (length := length_from_lead(data[0])):
        return False
    if any(byte >> 6 != 0b10 for byte in data[1:]):
        return False
    bits = data[0] & (0xFF >> (length + 1))
    for byte in data[1:]:
        bits = bits << 6 | byte & 0x3F
    return can_complete(bits, 6 * (length - len(data)), length)


class Reading(NamedTuple):
    """What RFC 3629 makes of a byte string: its text (U+FFFD for each maximal subpart)."""

    replaced: str
    """The text with one U+FFFD per ill-formed maximal subpart."""
    subparts: tuple[tuple[int, int], ...]
    """(offset, length) of every ill-formed maximal subpart, in order; () when well-formed."""
    truncated: bool
    """True when the input ends in a proper prefix of a well-formed sequence."""

    @property
    def valid(self) -> bool:
        """Return True when the string is well-formed UTF-8."""
        return not self.subparts

    @property
    def text(self) -> str | None:
        """Return the decoded text of a well-formed string, None for an ill-formed one."""
        return self.replaced if not self.subparts else None

    @property
    def first_error(self) -> tuple[int, int, bool] | None:
        """Return (offset, length, incomplete) of the first ill-formed subpart, None if none.

        `incomplete` is True when that subpart is a proper prefix cut short by the end of input.
        """
        if not self.subparts:
            return None
        offset, length = self.subparts[0]
        return offset, length, self.truncated and len(self.subparts) == 1


def read(data: bytes) -> Reading:
    """Return the `Reading` of `data` (empty text, no subparts for b'')."""
    replaced, subparts = [], []
    position = 0
    while position < len(data):
        length, value = sequence_at(data, position)
        if value is None:
            replaced.append(REPLACEMENT_CHARACTER)
            subparts.append((position, length))
        else:
            replaced.append(chr(value))
        position += length
    truncated = bool(subparts) and sum(subparts[-1]) == len(data)
    truncated = truncated and is_proper_prefix(data[subparts[-1][0] :])
    return Reading("".join(replaced), tuple(subparts), truncated)


def encode_scalar(value: int) -> bytes | None:
    """Return the UTF-8 of one scalar value by RFC 3629 §3, None for a surrogate or > U+10FFFF."""
    if SURROGATE_FIRST <= value <= SURROGATE_LAST or not 0 <= value <= LAST_VALUE[4]:
        return None
    length = next(n for n in (1, 2, 3, 4) if value <= LAST_VALUE[n])
    if length == 1:
        return bytes([value])
    tails = []
    for _ in range(length - 1):
        value, low_six = divmod(value, 64)
        tails.append(0x80 + low_six)  # 10xxxxxx
    lead_marker = (0xFF << (8 - length)) & 0xFF  # 110..., 1110..., 11110...
    return bytes([lead_marker + value, *reversed(tails)])
