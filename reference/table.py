"""The RFC 3629 §4 grammar as one table: what may follow each lead byte.

RFC 3629 §4 (the ABNF, quoted):

    UTF8-octets = *( UTF8-char )
    UTF8-char   = UTF8-1 / UTF8-2 / UTF8-3 / UTF8-4
    UTF8-1      = %x00-7F
    UTF8-2      = %xC2-DF UTF8-tail
    UTF8-3      = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
                  %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
    UTF8-4      = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
                  %xF4 %x80-8F 2( UTF8-tail )
    UTF8-tail   = %x80-BF

Each alternative of that grammar is one row of `ROWS`. The bytes that begin no alternative are
listed in `NOT_A_LEAD`, each with the reason it can never start a character. Everything the
reference does (decoding, validation, error classification) reads these two tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from .kinds import ErrorKind

# RFC 3629 §4: UTF8-tail = %x80-BF
TAIL: Final = range(0x80, 0xBF + 1)


@dataclass(frozen=True)
class Row:
    """One alternative of the RFC 3629 §4 ABNF: a range of lead bytes and what must follow."""

    rule: str
    """The ABNF alternative, as written in the RFC."""
    lead: range
    """The lead bytes this alternative starts with."""
    second: range
    """The bytes allowed right after the lead (narrower than UTF8-tail for E0, ED, F0, F4)."""
    tails: int
    """How many bytes follow the lead: the second byte and the UTF8-tail bytes after it."""
    narrowed_out: ErrorKind | None
    """What a UTF8-tail byte outside `second` would encode, where `second` is narrowed."""

    @property
    def length(self) -> int:
        """Return the number of bytes of a character that this row encodes."""
        return 1 + self.tails


def _bytes(first: int, last: int) -> range:
    return range(first, last + 1)


# fmt: off
# RFC 3629 §4, row by row.   lead bytes            second byte           tails  outside `second`
ROWS: Final = (
    Row("UTF8-1 = %x00-7F",                   _bytes(0x00, 0x7F), range(0),            0, None),
    Row("UTF8-2 = %xC2-DF UTF8-tail",         _bytes(0xC2, 0xDF), TAIL,                1, None),
    Row("UTF8-3 = %xE0 %xA0-BF UTF8-tail",    _bytes(0xE0, 0xE0), _bytes(0xA0, 0xBF),  2,
        ErrorKind.OVERLONG),      # E0 80..9F would encode U+0000..U+07FF in three bytes
    Row("UTF8-3 = %xE1-EC 2( UTF8-tail )",    _bytes(0xE1, 0xEC), TAIL,                2, None),
    Row("UTF8-3 = %xED %x80-9F UTF8-tail",    _bytes(0xED, 0xED), _bytes(0x80, 0x9F),  2,
        ErrorKind.SURROGATE),     # ED A0..BF would encode U+D800..U+DFFF (RFC 3629 §3)
    Row("UTF8-3 = %xEE-EF 2( UTF8-tail )",    _bytes(0xEE, 0xEF), TAIL,                2, None),
    Row("UTF8-4 = %xF0 %x90-BF 2( UTF8-tail )", _bytes(0xF0, 0xF0), _bytes(0x90, 0xBF), 3,
        ErrorKind.OVERLONG),      # F0 80..8F would encode U+0000..U+FFFF in four bytes
    Row("UTF8-4 = %xF1-F3 3( UTF8-tail )",    _bytes(0xF1, 0xF3), TAIL,                3, None),
    Row("UTF8-4 = %xF4 %x80-8F 2( UTF8-tail )", _bytes(0xF4, 0xF4), _bytes(0x80, 0x8F), 3,
        ErrorKind.OUT_OF_RANGE),  # F4 90..BF would encode U+110000 and above
)

# The bytes that start no alternative above, and why.
NOT_A_LEAD: Final = (
    (_bytes(0x80, 0xBF), ErrorKind.UNEXPECTED_CONTINUATION),  # UTF8-tail, never a lead
    (_bytes(0xC0, 0xC1), ErrorKind.OVERLONG),      # would encode U+0000..U+007F in two bytes
    (_bytes(0xF5, 0xF7), ErrorKind.OUT_OF_RANGE),  # would encode U+140000 and above
    (_bytes(0xF8, 0xFD), ErrorKind.LEGACY_FORM),   # RFC 2279 five- and six-byte leads
    (_bytes(0xFE, 0xFF), ErrorKind.INVALID_BYTE),  # never in UTF-8 of any RFC
)
# fmt: on


def _row_of_each_byte() -> tuple[Row | ErrorKind, ...]:
    """Return each byte value's row, or why it cannot lead; raise on a gap or an overlap."""
    found: dict[int, Row | ErrorKind] = {}
    meanings = [(row.lead, row) for row in ROWS] + list(NOT_A_LEAD)
    for byte_range, meaning in meanings:
        for byte in byte_range:
            if byte in found:
                raise AssertionError(f"RFC 3629 §4 table names byte {byte:02X} twice")
            found[byte] = meaning
    if len(found) != 256:
        raise AssertionError("RFC 3629 §4 table leaves a byte value without a meaning")
    return tuple(found[byte] for byte in range(256))


# Indexed by byte value: the row a lead byte starts, or why the byte can start nothing.
ROW_OF_BYTE: Final = _row_of_each_byte()


def _byte_class(byte_range: range) -> bytes:
    first, last = (re.escape(bytes([byte])) for byte in (byte_range[0], byte_range[-1]))
    return b"[" + first + b"-" + last + b"]"


def _row_pattern(row: Row) -> bytes:
    """Return the regular expression of one row, read straight off its columns."""
    pattern = _byte_class(row.lead)
    if row.tails:
        pattern += _byte_class(row.second) + _byte_class(TAIL) * (row.tails - 1)
    return pattern


# UTF8-char as a regular expression, one alternative per row: lets `re` (in C) walk long runs of
# well-formed text, which the byte-at-a-time walk in decoder.py would take 20x longer to cover.
CHAR_PATTERN: Final = b"|".join(_row_pattern(row) for row in ROWS)

# UTF8-octets, one or more characters: the same alternatives, the UTF8-1 row taking a whole run
# of ASCII in one step (a third faster on mixed text). Possessive (`++`): a well-formed prefix is
# never given back, so `re` keeps no backtracking state and memory stays flat on long inputs.
RUN_PATTERN: Final = (
    b"(?:" + b"|".join(_row_pattern(row) + b"++" * (row.tails == 0) for row in ROWS) + b")++"
)


def _proper_prefix_pattern(row: Row) -> bytes:
    """Return the regular expression of the longest proper prefix of a row's sequences: the
    lead, then as many of the second byte and tails as are there, short of a whole character."""
    optional = b""
    for place in range(row.tails - 1, 0, -1):  # the second byte is place 1, tails after it
        allowed = row.second if place == 1 else TAIL
        optional = b"(?:" + _byte_class(allowed) + optional + b")?"
    return _byte_class(row.lead) + optional


# A maximal subpart (Unicode §3.9 D93b), where no character starts: the longest proper prefix of
# a row's sequences (greedy), else the one byte (a UTF8-tail, or a byte that begins no row).
SUBPART_PATTERN: Final = (
    b"|".join(_proper_prefix_pattern(row) for row in ROWS if row.tails)
    + b"|"
    + _byte_class(range(0x80, 0x100))
)
