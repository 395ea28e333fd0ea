"""A dialect profile: RFC 3629 (the reference) plus a small, readable transformation of what a
codec is expected to give, for codecs that differ from RFC 3629 on purpose.

A profile changes the expectation, never the judgement: any caller that judges a codec (the
check engine's compare.py, the fuzzer's probe) applies it to the reference's expectation of an
input and then judges the codec's answer against that, with the same comparison:

    judged = profile.expect(expectation_for(data), capability)  # decoding
    judged = profile.expect_encoding(encoding_for(values))  # encoding

`expect` returns the very same object when the profile reads the input as the reference does,
so a hand-written vector's expectation stays in force wherever the profile has nothing to say,
and a profile cannot hide a difference it does not name: it only rereads the byte sequences its
`accepts` and `refuses` patterns match, and only re-encodes the values its `write` handles.

Decoding: `accepts` matches byte sequences the dialect reads as characters (its `read` says
which: a str, or code points when some lie above U+10FFFF), `keeps` those it leaves as RFC 3629
reads them although `accepts` would match a part,
`truncated` the prefixes of its sequences cut short (one maximal subpart each, Unicode §3.9
D93b applied to the dialect's own table); `refuses` matches lead bytes of sequences RFC 3629
reads that the dialect does not (each is then ill-formed alone, and the bytes after it are stray
continuation bytes); `strips_signature` drops a leading U+FEFF. Everything between matches is
the reference's reading, read off the one the expectation carries (reading.py): a profile never
walks the input again.
Encoding: `write` gives the bytes of one value (None: refuse it); `joins_pairs` first joins a
high surrogate followed by a low one into the supplementary character they stand for in UTF-16.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Final

from utf8cert.harness.check.expected import (
    CodePoints,
    Decoded,
    Expected,
    ExpectedEncoding,
    Piece,
    expected_from_pieces,
)
from utf8cert.harness.check.reading import Reading
from utf8cert.harness.codec.interface import Capability
from utf8cert.reference import SIGNATURE, ErrorKind

HIGH_SURROGATES: Final = range(0xD800, 0xDC00)
LOW_SURROGATES: Final = range(0xDC00, 0xE000)
LARGEST_SCALAR: Final = 0x10FFFF

_LAST: dict[str, tuple[Expected, Expected]] = {}
"""Per profile, the last expectation reread and its rereading."""


def utf8(value: int) -> bytes | None:
    """Return the RFC 3629 UTF-8 of a Unicode scalar value; None for a surrogate or beyond."""
    if value > LARGEST_SCALAR or value in HIGH_SURROGATES or value in LOW_SURROGATES:
        return None
    return chr(value).encode("utf-8")


def joined(high: int, low: int) -> int:
    """Return the supplementary code point a UTF-16 surrogate pair stands for (Unicode §3.8)."""
    return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)


@dataclass(frozen=True)
class Profile:
    """A named dialect: how it reads and writes what RFC 3629 does not, and what it waives."""

    name: str
    title: str
    source: str
    """The published definition it follows."""
    behaviour: str
    """What it allows, in a few words ('encodes supplementary characters as surrogate pairs')."""
    waives: tuple[str, ...] = ()
    """The RFC 3629 requirements it waives, each citing its section."""
    accepts: re.Pattern[bytes] | None = None
    read: Callable[[bytes], Decoded] = lambda sequence: ""
    refuses: re.Pattern[bytes] | None = None
    keeps: re.Pattern[bytes] | None = None
    """Sequences `accepts` would match part of that the dialect reads as RFC 3629 does."""
    truncated: re.Pattern[bytes] | None = None
    """A prefix of an `accepts` sequence cut short: one ill-formed subpart in the dialect."""
    strips_signature: bool = False
    write: Callable[[int], bytes | None] = utf8
    joins_pairs: bool = False
    decoding: frozenset[Capability] = frozenset(("decode", "replace", "validate", "incremental"))
    """The decoding capabilities the dialect's reading applies to (the others read RFC 3629)."""
    special: Callable[[int], bool] = lambda value: False
    """True for a value `write` treats otherwise than RFC 3629: only then is an input re-encoded."""

    @property
    def is_reference(self) -> bool:
        """Return True for RFC 3629 itself (the profile that changes nothing)."""
        return self.name == "rfc3629"

    @cached_property
    def _pattern(self) -> re.Pattern[bytes] | None:
        """Return one pattern with a group per kind of match (None when there is none)."""
        kinds = {
            "keeps": self.keeps,
            "accepts": self.accepts,
            "truncated": self.truncated,
            "refuses": self.refuses,
        }
        parts = [
            b"(?P<" + name.encode() + b">" + pattern.pattern + b")"
            for name, pattern in kinds.items()
            if pattern is not None
        ]
        return re.compile(b"|".join(parts), re.DOTALL) if parts else None

    def expect(self, expected: Expected, capability: Capability = "decode") -> Expected:
        """Return what a codec of this dialect gives for `expected`'s bytes when asked
        `capability`: `expected` itself when the dialect reads them as RFC 3629 does."""
        if capability not in self.decoding:
            return expected
        last = _LAST.get(self.name)
        if last is not None and last[0] is expected:
            return last[1]  # every capability and chunking of one input asks again
        dialect = self._expect(expected)
        _LAST[self.name] = (expected, dialect)
        return dialect

    def _expect(self, expected: Expected) -> Expected:
        data = expected.data
        pattern = self._pattern
        # Outside the window lies ASCII padding, which no pattern matches (variants.py).
        matches = [] if pattern is None else list(pattern.finditer(data, *expected.span))
        stripped = self.strips_signature and data.startswith(SIGNATURE)
        if not matches and not stripped:
            return expected
        reading = expected.reading  # the reference's, walked once for every profile
        walked: list[Piece] = self._walk(reading, matches) if matches else list(reading.pieces)
        if stripped and walked and isinstance(walked[0], str):
            walked[0] = walked[0][1:]  # WHATWG "UTF-8 decode": a leading BOM is skipped
        dialect = expected_from_pieces(data, walked, expected.levels, reading)
        return dataclasses.replace(dialect, window=expected.window)

    def _walk(self, reading: Reading, matches: list[re.Match[bytes]]) -> list[Piece]:
        """Return the dialect's reading of the input: its matches, the reference's elsewhere
        (each stretch between them read as if alone: a sequence cut short by a match is not
        truncated, reading.py's `between`)."""
        data = reading.data
        walked: list[Piece] = []
        position = 0
        for match in matches:
            if position < match.start():  # matches side by side leave nothing between them
                walked += reading.between(position, match.start())
            start, end = match.span()
            if match.lastgroup == "keeps":
                walked += reading.between(start, end)
            elif match.lastgroup == "accepts":
                read = self.read(match.group())
                walked.append(read if isinstance(read, str) else CodePoints(read))
            elif match.lastgroup == "truncated":
                kind = ErrorKind.TRUNCATED if end == len(data) else ErrorKind.MISSING_CONTINUATION
                walked.append((start, end - start, kind))
            else:
                walked.append((start, 1, ErrorKind.INVALID_BYTE))
            position = match.end()
        walked += reading.between(position, len(data))
        return walked

    def expect_encoding(self, expected: ExpectedEncoding) -> ExpectedEncoding:
        """Return what an encoder of this dialect gives for `expected`'s values: `expected`
        itself when none of the values under test is one the dialect writes otherwise."""
        start, end = expected.span
        scalars = expected.scalars
        if self.is_reference or not any(map(self.special, scalars[start:end])):
            return expected
        # Values outside the window are ASCII padding, written alike by every dialect.
        padded = max(scalars[:start] + scalars[end:], default=0) < 0x80
        first, last = (start, end) if padded else (0, len(scalars))
        written, index, error = bytearray(), first, None
        while index < last:
            value, step = scalars[index], 1
            if (
                self.joins_pairs
                and value in HIGH_SURROGATES
                and index + 1 < last
                and scalars[index + 1] in LOW_SURROGATES
            ):
                value, step = joined(value, scalars[index + 1]), 2
            encoded = self.write(value)
            if encoded is None:
                error = index
                break
            written += encoded
            index += step
        if error is not None:
            return dataclasses.replace(expected, encoded=None, error_index=error)
        whole = bytes(scalars[:first]) + bytes(written) + bytes(scalars[last:])
        return dataclasses.replace(expected, encoded=whole, error_index=None)
