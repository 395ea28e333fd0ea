"""Correct UTF-8 codecs written by hand, the base that broken_codecs.py breaks one way each.

`HandRolled` follows the WHATWG Encoding Standard's UTF-8 decoder algorithm (its byte ranges are
RFC 3629 §4's), independent of utf8cert's reference; `CPythonUtf8` wraps CPython's own codec.
Loadable as `support.hand_rolled:NAME`, and as `support.broken_codecs:NAME`, which imports them.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import Final

ASCII_RUN: Final = re.compile(b"[\x00-\x7f]+")
REPLACEMENT: Final = "\ufffd"

Step = tuple[int, int, str | None]
"""(start, end, text): a run of characters, or an ill-formed maximal subpart (text None)."""


def whatwg_steps(data: bytes, *, lax: bool = False, surrogates: bool = False) -> Iterator[Step]:
    """Yield the input as runs of characters and ill-formed maximal subparts, in order.

    The WHATWG UTF-8 decoder: a lead byte sets how many continuation bytes follow and narrows
    the range of the first (RFC 3629 §4: after E0 A0..BF, after ED 80..9F, after F0 90..BF,
    after F4 80..8F); a byte out of range ends the subpart and is read again. With `lax`, any
    lead byte by its high bits (C0..F7) and any 80..BF continuation: the naive bit decoder.
    With `surrogates`, ED may be followed by A0..BF too.
    """
    position, end = 0, len(data)
    while position < end:
        run = ASCII_RUN.match(data, position)
        if run is not None:  # an ASCII run at once: real decoders all have this fast path
            yield position, run.end(), run.group().decode("ascii")
            position = run.end()
            continue
        lead, start = data[position], position
        low, high = 0x80, 0xBF
        if (0xC2 if not lax else 0xC0) <= lead <= 0xDF:
            needed, value = 1, lead & 0x1F
        elif 0xE0 <= lead <= 0xEF:
            needed, value = 2, lead & 0x0F
            if not lax:
                low = 0xA0 if lead == 0xE0 else low
                high = 0x9F if lead == 0xED and not surrogates else high
        elif 0xF0 <= lead <= (0xF4 if not lax else 0xF7):
            needed, value = 3, lead & 0x07
            if not lax:
                low = 0x90 if lead == 0xF0 else low
                high = 0x8F if lead == 0xF4 else high
        else:
            yield start, start + 1, None
            position += 1
            continue
        position += 1
        while needed and position < end and low <= data[position] <= high:
            value = value << 6 | data[position] & 0x3F
            low, high, needed, position = 0x80, 0xBF, needed - 1, position + 1
        if needed:
            yield start, position, None
        else:
            yield start, position, chr(value) if value <= 0x10FFFF else None


class HandRolled:
    """A correct codec: every capability, written from the WHATWG algorithm."""

    writes_surrogates = False

    def steps(self, data: bytes) -> Iterator[Step]:
        """Yield the input as runs of characters and ill-formed maximal subparts."""
        return whatwg_steps(data)

    def decode(self, data: bytes) -> str:
        """Return the text of well-formed input; UnicodeDecodeError at the first error."""
        text = []
        for start, end, piece in self.steps(data):
            if piece is None:
                raise UnicodeDecodeError("utf-8", data, start, end, "ill-formed UTF-8")
            text.append(piece)
        return "".join(text)

    def replacement(self, subpart: bytes) -> str:
        """Return what stands for one ill-formed maximal subpart: one U+FFFD."""
        return REPLACEMENT

    def decode_replace(self, data: bytes) -> str:
        """Return the text with each ill-formed maximal subpart replaced."""
        return "".join(
            self.replacement(data[start:end]) if piece is None else piece
            for start, end, piece in self.steps(data)
        )

    def validate(self, data: bytes) -> bool:
        """Return True for well-formed input."""
        return all(piece is not None for _, _, piece in self.steps(data))

    def encode(self, text: str) -> bytes:
        """Return the UTF-8 of `text`; UnicodeEncodeError for a lone surrogate."""
        out = bytearray()
        for index, character in enumerate(text):
            value = ord(character)
            if 0xD800 <= value <= 0xDFFF and not self.writes_surrogates:
                raise UnicodeEncodeError("utf-8", text, index, index + 1, "surrogate")
            if value < 0x80:
                out.append(value)
            elif value < 0x800:
                out += bytes([0xC0 | value >> 6, 0x80 | value & 0x3F])
            elif value < 0x10000:
                out += bytes([0xE0 | value >> 12, 0x80 | value >> 6 & 0x3F, 0x80 | value & 0x3F])
            else:
                out += bytes(
                    [
                        0xF0 | value >> 18,
                        0x80 | value >> 12 & 0x3F,
                        0x80 | value >> 6 & 0x3F,
                        0x80 | value & 0x3F,
                    ]
                )
        return bytes(out)

    def incremental_decoder(self) -> ChunkDecoder:
        """Return a fresh strict decoder fed in chunks."""
        return ChunkDecoder(self)


class ChunkDecoder:
    """A strict incremental decoder that holds back an unfinished last character."""

    def __init__(self, codec: HandRolled) -> None:
        self.codec = codec
        self.held = b""

    def unfinished(self, data: bytes) -> int:
        """Return how many bytes at the end begin a character that more bytes could finish."""
        steps = list(whatwg_steps(data[-3:]))
        start, end, piece = steps[-1] if steps else (0, 0, "")
        truncated = piece is None and end == len(data[-3:]) and 0xC2 <= data[-3:][start] <= 0xF4
        return end - start if truncated else 0

    def decode(self, chunk: bytes, final: bool = False) -> str:
        """Return the text of the characters completed by `chunk`."""
        data = self.held + chunk
        keep = 0 if final else self.unfinished(data)
        self.held = data[len(data) - keep :]
        return self.codec.decode(data[: len(data) - keep])

    def reset(self) -> None:
        """Forget the bytes held: the decoder is as new."""
        self.held = b""


class CPythonUtf8:
    """A correct codec: a thin wrapper on CPython's own UTF-8 codec."""

    def decode(self, data: bytes) -> str:
        """Return the strict decoding."""
        return data.decode("utf-8")

    def decode_replace(self, data: bytes) -> str:
        """Return the decoding with U+FFFD."""
        return data.decode("utf-8", "replace")

    def encode(self, text: str) -> bytes:
        """Return the strict encoding."""
        return text.encode("utf-8")

    def incremental_decoder(self) -> codecs.IncrementalDecoder:
        """Return CPython's incremental decoder."""
        return codecs.getincrementaldecoder("utf-8")()
