"""UTF-8 codecs with one realistic defect each, and correct ones, to prove utf8cert catches bugs.

The correct ones, `HandRolled` (from the WHATWG Encoding Standard's UTF-8 decoder algorithm,
independent of utf8cert's reference) and `CPythonUtf8`, are in hand_rolled.py and importable
from here too. Each broken codec changes one thing in `HandRolled`, the way such bugs are written
in real decoders: a missing range check, a forgotten carry between chunks, a fast path with a
wrong mask. Each is a class, loadable as `support.broken_codecs:NAME` (spec.py instantiates it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Final

from support.hand_rolled import (
    ASCII_RUN,
    REPLACEMENT,
    ChunkDecoder,
    CPythonUtf8,
    HandRolled,
    Step,
    whatwg_steps,
)

__all__ = [
    "CPythonUtf8",
    "HandRolled",
]  # the correct codecs, loadable as support.broken_codecs:NAME


class NaiveBitDecoder(HandRolled):
    """Reads the length from the lead byte's high bits and checks only that tails are 10xxxxxx:
    accepts overlong forms (C0 AF for '/'), surrogates and F5..F7 leads (RFC 3629 §10)."""

    def steps(self, data: bytes) -> Iterator[Step]:
        return whatwg_steps(data, lax=True)


class TruncatedTailDropper(HandRolled):
    """Stops at the end of input when the last character is unfinished, as a `while i + need
    <= len(data)` loop does: the truncated tail vanishes without an error."""

    def steps(self, data: bytes) -> Iterator[Step]:
        for start, end, piece in whatwg_steps(data):
            if piece is None and end == len(data) and 0xC2 <= data[start] <= 0xF4:
                return
            yield start, end, piece


class OneFffdPerByte(HandRolled):
    """Replaces every byte of an ill-formed sequence with its own U+FFFD (E2 82 41 gives
    U+FFFD U+FFFD 'A' instead of U+FFFD 'A')."""

    def replacement(self, subpart: bytes) -> str:
        return REPLACEMENT * len(subpart)


class OneFffdPerBadRun(HandRolled):
    """Skips to the next good character after an error and writes one U+FFFD for the whole
    bad run (ED A0 80 gives one U+FFFD instead of three)."""

    def decode_replace(self, data: bytes) -> str:
        text: list[str] = []
        after_error = False
        for _, _, piece in self.steps(data):
            if piece is not None:
                text.append(piece)
            elif not after_error:
                text.append(REPLACEMENT)
            after_error = piece is None
        return "".join(text)


class MergesIntoFffd(HandRolled):
    """Writes no U+FFFD for an error right after a U+FFFD, a literal one (EF BF BD) included:
    the error vanishes into the character before it."""

    def decode_replace(self, data: bytes) -> str:
        text: list[str] = []
        for _, _, piece in self.steps(data):
            if piece is not None:
                text.append(piece)
            elif not text or not text[-1].endswith(REPLACEMENT):
                text.append(REPLACEMENT)
        return "".join(text)


class Cesu8Decoder(HandRolled):
    """Reads ED A0..BF xx as a surrogate and joins a surrogate pair into one character, as
    CESU-8 and Java's modified UTF-8 do (RFC 3629 §3 forbids it)."""

    def steps(self, data: bytes) -> Iterator[Step]:
        high: Step | None = None
        for step in whatwg_steps(data, surrogates=True):
            _, end, piece = step
            value = ord(piece) if piece is not None and len(piece) == 1 else None
            if high is not None and value is not None and 0xDC00 <= value <= 0xDFFF:
                pair = 0x10000 + ((ord(high[2] or "?") - 0xD800) << 10) + value - 0xDC00
                yield high[0], end, chr(pair)
                high = None
                continue
            if high is not None:
                yield high
                high = None
            if value is not None and 0xD800 <= value <= 0xDBFF:
                high = step
            else:
                yield step
        if high is not None:
            yield high


class AlignedFastPath(HandRolled):
    """Copies 8-byte words of ASCII at aligned offsets at once; its mask misses the high bit of
    each word's last byte, so a non-ASCII byte at offset 8k+7 is copied as Latin-1."""

    MASK: Final = 0x0080_8080_8080_8080  # should be 0x8080_8080_8080_8080

    def steps(self, data: bytes) -> Iterator[Step]:
        # The words before the first non-ASCII byte all pass any mask: skip them at once.
        ascii_run = ASCII_RUN.match(data)
        position = 0 if ascii_run is None else ascii_run.end() // 8 * 8
        if position:
            yield 0, position, data[:position].decode("ascii")
        while position + 8 <= len(data):
            if int.from_bytes(data[position : position + 8], "little") & self.MASK:
                break
            yield position, position + 8, data[position : position + 8].decode("latin-1")
            position += 8
        for start, end, piece in whatwg_steps(data[position:]):
            yield start + position, end + position, piece


class ChunkBoundaryDecoder(HandRolled):
    """Its incremental decoder forgets an unfinished character at the end of a chunk instead of
    holding it for the next one; one-shot decoding is right."""

    def incremental_decoder(self) -> ChunkDecoder:
        return ForgetfulChunkDecoder(self)


class ForgetfulChunkDecoder(ChunkDecoder):
    """Drops the held bytes, and skips the continuation bytes that start the next chunk."""

    def decode(self, chunk: bytes, final: bool = False) -> str:
        if self.held:
            self.held = b""
            chunk = chunk.lstrip(bytes(range(0x80, 0xC0)))
        return super().decode(chunk, final)


class SurrogateWritingEncoder(HandRolled):
    """Encodes every code point by the bit layout, lone surrogates included (RFC 3629 §3)."""

    writes_surrogates = True


class LaxRangeValidator:
    """A validator that checks structure, overlongs and surrogates but not the upper limit of
    U+10FFFF: F4 90 80 80 and the F5..F7 leads pass (RFC 3629 §3 ends at U+10FFFF)."""

    SMALLEST: Final = (0x80, 0x800, 0x10000)
    """The smallest value of a 2-, 3- and 4-byte form: anything less is overlong."""

    def validate(self, data: bytes) -> bool:
        """Return True for input it thinks well-formed."""
        position = 0
        while position < len(data):
            run = ASCII_RUN.match(data, position)
            if run is not None:
                position = run.end()
                continue
            lead = data[position]
            if 0xC2 <= lead <= 0xDF:
                tails = 1
            elif 0xE0 <= lead <= 0xEF:
                tails = 2
            elif 0xF0 <= lead <= 0xF7:  # should end at F4, with F4 followed by 80..8F only
                tails = 3
            else:
                return False
            sequence = data[position : position + 1 + tails]
            if len(sequence) <= tails or any(not 0x80 <= byte <= 0xBF for byte in sequence[1:]):
                return False
            value = lead & 0x7F >> tails + 1
            for byte in sequence[1:]:
                value = value << 6 | byte & 0x3F
            if value < self.SMALLEST[tails - 1] or 0xD800 <= value <= 0xDFFF:
                return False
            position += len(sequence)
        return True


class BomStripper(HandRolled):
    """Removes U+FEFF wherever it is ("cleaning" text), not only a leading signature."""

    def decode(self, data: bytes) -> str:
        return super().decode(data).replace("\ufeff", "")


class NormalizingDecoder(HandRolled):
    """Returns NFC text: U+0065 U+0301 comes back as U+00E9 (RFC 3629 §10: the codec must not)."""

    def decode(self, data: bytes) -> str:
        return unicodedata.normalize("NFC", super().decode(data))


class Block64Decoder(HandRolled):
    """Decodes long input in independent 64-byte blocks (a SIMD validator without carry): a
    character across a block boundary is an error, and offsets count from the block."""

    BLOCK = 64

    def decode(self, data: bytes) -> str:
        if len(data) < self.BLOCK:
            return super().decode(data)
        blocks = range(0, len(data), self.BLOCK)
        return "".join(super(Block64Decoder, self).decode(data[i : i + self.BLOCK]) for i in blocks)


class Page4096Decoder(HandRolled):
    """Reads 4096-byte pages and resynchronises at each page start: a character across a page
    boundary is dropped without an error."""

    PAGE = 4096

    def steps(self, data: bytes) -> Iterator[Step]:
        for page in range(0, len(data), self.PAGE):
            chunk = data[page : page + self.PAGE]
            skip = len(chunk) - len(chunk.lstrip(bytes(range(0x80, 0xC0)))) if page else 0
            for start, end, piece in whatwg_steps(chunk[skip:]):
                if piece is None and end == len(chunk) - skip and page + self.PAGE < len(data):
                    break  # unfinished at the page end: dropped, the next page resyncs
                yield start + page + skip, end + page + skip, piece


class CrashingDecoder(HandRolled):
    """Builds its UnicodeDecodeError with three arguments instead of five: every ill-formed
    input ends in TypeError."""

    def decode(self, data: bytes) -> str:
        for start, _, piece in self.steps(data):
            if piece is None:
                raise UnicodeDecodeError("utf-8", data, start)  # type: ignore[call-arg]
        return super().decode(data)


class BytesReturningDecoder(HandRolled):
    """Returns ASCII input as it came, bytes, forgetting to decode it on its fast path."""

    def decode(self, data: bytes) -> str:
        if data.isascii():
            return data  # type: ignore[return-value]
        return super().decode(data)


class HangingDecoder(HandRolled):
    """Counts characters first (to size its output) by stepping from lead byte to lead byte; no
    case steps past a continuation byte where a lead is due, so it loops forever on one."""

    def decode(self, data: bytes) -> str:
        position = count = 0
        while position < len(data):
            byte = data[position]
            if byte < 0x80:
                position += 1
            elif byte >= 0xC0:
                position += 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            count += 1
        return super().decode(data)


class OneByteErrors(HandRolled):
    """Says every error it refuses is one byte long, as a decoder that reports only where it
    stopped does: E1 80 41 is refused with `end` 1, though its maximal subpart is E1 80."""

    def decode(self, data: bytes) -> str:
        try:
            return super().decode(data)
        except UnicodeDecodeError as error:
            raise UnicodeDecodeError("utf-8", data, error.start, error.start + 1, "bad") from None


class RestOfTextEncodeError(HandRolled):
    """Refuses a surrogate with an error that runs to the end of the text, as an encoder that
    gives up on the rest does: the text after it is never encoded by an error handler."""

    def encode(self, text: str) -> bytes:
        try:
            return super().encode(text)
        except UnicodeEncodeError as error:
            raise UnicodeEncodeError("utf-8", text, error.start, len(text), "surrogate") from None


class LookaheadDecoder(HandRolled):
    """An incremental decoder that keeps the last character of each chunk back until the next
    call (a one-character lookahead left in from a parser): every chunk's text comes late."""

    def incremental_decoder(self) -> ChunkDecoder:
        return LookaheadChunks(self)


class LookaheadChunks(ChunkDecoder):
    def decode(self, chunk: bytes, final: bool = False) -> str:
        text = self.kept + super().decode(chunk, final)
        self.kept = "" if final else text[-1:]
        return text if final else text[:-1]

    def reset(self) -> None:
        """Forget the bytes and the character held: its one bug is the lookahead, not reuse."""
        super().reset()
        self.kept = ""

    kept = ""


class LateErrorDecoder(HandRolled):
    """An incremental decoder that holds every byte from the first ill-formed one until the
    final call, and only then refuses: the error comes a call late, or never on a stream that
    does not end."""

    def incremental_decoder(self) -> ChunkDecoder:
        return LateErrorChunks(self)


class LateErrorChunks(ChunkDecoder):
    def decode(self, chunk: bytes, final: bool = False) -> str:
        if final:
            return super().decode(chunk, final)
        data = self.held + chunk
        bad = next((start for start, _, piece in whatwg_steps(data) if piece is None), None)
        if bad is None or data[bad:] == data[len(data) - self.unfinished(data) :]:
            return super().decode(chunk, final)
        self.held = b""
        text = super().decode(data[:bad], False)
        self.held += data[bad:]
        return text


class ChrOfAnErrorDecoder(HandRolled):
    """Forgets to raise at an ill-formed subpart and calls `chr` on its error marker, so that
    the ValueError of `chr(-1)` refuses the input for it, saying nowhere where."""

    def decode(self, data: bytes) -> str:
        return "".join(chr(-1) if piece is None else piece for _, _, piece in self.steps(data))
