"""A correct UTF-8 codec that reads one byte per Python step: the slow codec of bench_depth.py.

    utf8cert check bench.slow_codec:ByteAtATime      (from the repository root)

It has no fast path of any kind (no ASCII run, no C call per character): every byte goes through
`Reader.feed`, a state machine on RFC 3629 §4's table, as a decoder written plainly in Python
would. It is conformant, so a check of it measures utf8cert's work, not a codec's findings.
"""

from __future__ import annotations

from typing import Final

REPLACEMENT: Final = "\ufffd"
LEADS: Final = (0x00, 0xC0, 0xE0, 0xF0)
"""The marker bits of a lead byte followed by 0, 1, 2 or 3 UTF8-tails (RFC 3629 §3)."""

# RFC 3629 §4: the lead byte sets how many UTF8-tail bytes follow and the range of the first.
Piece = tuple[int, int, str | None]
"""(start, end, character) of a character, or (start, end, None) of an ill-formed maximal subpart,
indices into the whole input."""

FIRST_TAIL: Final = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}


class Reader:
    """Reads bytes one at a time into characters and ill-formed maximal subparts."""

    def __init__(self) -> None:
        self.value = 0
        self.needed = 0
        self.low, self.high = 0x80, 0xBF
        self.held = b""
        self.position = 0
        """Index of the next byte in the whole input."""

    def feed(self, byte: int) -> list[Piece]:
        """Return what `byte` completes: (start index, end, character), or (start, end, None)
        for an ill-formed maximal subpart ended by it or by its own invalidity."""
        out: list[Piece] = []
        if self.needed:
            if self.low <= byte <= self.high:
                self.value = self.value << 6 | byte & 0x3F
                self.needed -= 1
                self.held += bytes([byte])
                self.low, self.high = 0x80, 0xBF
                self.position += 1
                if not self.needed:
                    out.append((self.position - len(self.held), self.position, chr(self.value)))
                    self.held = b""
                return out
            # Unicode §3.9 D93b: the subpart ends before this byte, which is read again.
            out.append((self.position - len(self.held), self.position, None))
            self.needed, self.held = 0, b""
        start = self.position
        self.position += 1
        if byte < 0x80:
            out.append((start, start + 1, chr(byte)))
        elif 0xC2 <= byte <= 0xDF:
            self.needed, self.value = 1, byte & 0x1F
        elif 0xE0 <= byte <= 0xEF:
            self.needed, self.value = 2, byte & 0x0F
        elif 0xF0 <= byte <= 0xF4:
            self.needed, self.value = 3, byte & 0x07
        else:
            out.append((start, start + 1, None))
            return out
        if self.needed:
            self.held = bytes([byte])
            self.low, self.high = FIRST_TAIL.get(byte, (0x80, 0xBF))
        return out

    def finish(self) -> list[Piece]:
        """Return the truncated subpart left at the end of input ([] if none)."""
        if not self.needed:
            return []
        start = self.position - len(self.held)
        self.needed, self.held = 0, b""
        return [(start, self.position, None)]


def _pieces(data: bytes) -> list[Piece]:
    reader = Reader()
    pieces = []
    for byte in data:
        pieces += reader.feed(byte)
    return pieces + reader.finish()


def _strict(data: bytes, pieces: list[Piece]) -> str:
    text = []
    for start, end, piece in pieces:
        if piece is None:
            raise UnicodeDecodeError("utf-8", data, start, end, "ill-formed UTF-8")
        text.append(piece)
    return "".join(text)


class ByteAtATime:
    """A conformant codec with every capability, one Python step per byte."""

    def decode(self, data: bytes) -> str:
        """Return the text of well-formed input; UnicodeDecodeError at the first error."""
        return _strict(data, _pieces(data))

    def decode_replace(self, data: bytes) -> str:
        """Return the text with one U+FFFD for each ill-formed maximal subpart."""
        return "".join(REPLACEMENT if piece is None else piece for _, _, piece in _pieces(data))

    def validate(self, data: bytes) -> bool:
        """Return True for well-formed input."""
        return all(piece is not None for _, _, piece in _pieces(data))

    def encode(self, text: str) -> bytes:
        """Return the UTF-8 of `text`, one character at a time; UnicodeEncodeError for a
        surrogate (RFC 3629 §3)."""
        out = bytearray()
        for index, character in enumerate(text):
            value = ord(character)
            if 0xD800 <= value <= 0xDFFF:
                raise UnicodeEncodeError("utf-8", text, index, index + 1, "surrogate")
            # RFC 3629 §3: the lead byte's marker, then six value bits per UTF8-tail.
            tails = 0 if value < 0x80 else 1 if value < 0x800 else 2 if value < 0x10000 else 3
            out.append(LEADS[tails] | value >> 6 * tails)
            for tail in reversed(range(tails)):
                out.append(0x80 | value >> 6 * tail & 0x3F)
        return bytes(out)

    def incremental_decoder(self) -> Streaming:
        """Return a fresh strict decoder that is fed in chunks."""
        return Streaming()


class Streaming:
    """A strict incremental decoder: one Reader across every chunk."""

    def __init__(self) -> None:
        self.reader = Reader()

    def decode(self, chunk: bytes, final: bool = False) -> str:
        """Return the characters `chunk` completes; UnicodeDecodeError at the first error, its
        `start` counted from the first byte held back before `chunk` (as CPython's does)."""
        held = self.reader.held
        base = self.reader.position - len(held)
        pieces = []
        for byte in chunk:
            pieces += self.reader.feed(byte)
        if final:
            pieces += self.reader.finish()
        return _strict(held + chunk, [(start - base, end - base, p) for start, end, p in pieces])

    def getstate(self) -> tuple[bytes, int]:
        """Return (the bytes held back, 0), as `codecs.IncrementalDecoder.getstate` does."""
        return self.reader.held, 0
