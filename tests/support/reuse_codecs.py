"""UTF-8 codecs whose answers depend on what they were asked before, and encoders that write a
character for a lone surrogate: the mistakes of issue 40, written for its tests.

Each changes one thing in `HandRolled` (hand_rolled.py, the WHATWG algorithm) the way the
mistake is made in real decoders; the peer suite ExodusOSS/bytes (tests/encoding/mistakes.test.js,
its class STATE) lists the browser engines' ones: a fatal decoder whose BOM state sticks after an
error (Firefox), a BOM split across chunks kept (Bun), the second error of a fatal stream let
through. Each fresh decoder of these is right (but BomOnlyInOneChunk's, by design): only a decoder
used before goes wrong. Loadable as `support.reuse_codecs:NAME` (spec.py instantiates it).
"""

from __future__ import annotations

from typing import Final

from support.hand_rolled import REPLACEMENT, ChunkDecoder, HandRolled, whatwg_steps

BOM: Final = b"\xef\xbb\xbf"


class ErrorsIgnoredAfterFirst(HandRolled):
    """Its incremental decoder raises at the first error it meets; the same object then drops
    every later ill-formed byte without a word (a `failed` flag that neither reset() nor a new
    stream clears)."""

    def incremental_decoder(self) -> ChunkDecoder:
        return OnceStrictChunks(self)


class OnceStrictChunks(ChunkDecoder):
    failed = False

    def decode(self, chunk: bytes, final: bool = False) -> str:
        if not self.failed:
            try:
                return super().decode(chunk, final)
            except UnicodeDecodeError:
                self.failed, self.held = True, b""
                raise
        data = self.held + chunk
        keep = 0 if final else self.unfinished(data)
        self.held = data[len(data) - keep :]
        steps = whatwg_steps(data[: len(data) - keep])
        return "".join(piece for _, _, piece in steps if piece is not None)


class TailKeepingDecoder(HandRolled):
    """Its one-shot `decode` keeps the bytes a call that raised ended inside (a sequence the
    input was too short for) and puts them before the next call's input: E2 82 raises, then
    AC alone decodes to '€'."""

    def __init__(self) -> None:
        self.tail = b""

    def decode(self, data: bytes) -> str:
        data, self.tail = self.tail + data, b""
        try:
            return super().decode(data)
        except UnicodeDecodeError as error:
            if error.end == len(data) and 0xC2 <= data[error.start] <= 0xF4:
                self.tail = data[error.start :]
            raise


class BomStripper(HandRolled):
    """A correct codec under the WHATWG profile: it strips a leading BOM from each stream, as
    the WHATWG decoder does (its incremental decoder, BomChunks, waits for a BOM split across
    chunks, and a stream that ended or a reset() starts the next one afresh), and encodes a lone
    surrogate as U+FFFD."""

    def decode(self, data: bytes) -> str:
        text = super().decode(data)  # its error offsets count the BOM's bytes too
        return text[1:] if data.startswith(BOM) else text

    def decode_replace(self, data: bytes) -> str:
        text = super().decode_replace(data)
        return text[1:] if data.startswith(BOM) else text

    def encode(self, text: str) -> bytes:
        """Return the UTF-8 of `text` as WHATWG's encoder writes it (a USVString): a surrogate
        pair joined, a lone surrogate U+FFFD."""
        scalars = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        return super().encode(scalars)

    def incremental_decoder(self) -> ChunkDecoder:
        return BomChunks(self)


class BomChunks(ChunkDecoder):
    """Strips a leading BOM from each stream: `at_start` until the first three bytes are seen."""

    def __init__(self, codec: HandRolled) -> None:
        super().__init__(HandRolled())  # the BOM is this object's to strip, not the one-shot's
        self.at_start, self.pending = True, b""

    def decode(self, chunk: bytes, final: bool = False) -> str:
        if self.at_start:
            chunk, self.pending = self.pending + chunk, b""
            if len(chunk) < len(BOM) and BOM.startswith(chunk) and not final:
                self.pending = chunk
                return ""
            self.at_start = False
            chunk = chunk.removeprefix(BOM)
        text = ChunkDecoder.decode(self, chunk, final)
        if final:
            self.at_start = True  # the stream ended: the next call starts another
        return text

    def reset(self) -> None:
        super().reset()
        self.at_start, self.pending = True, b""


class StickyBomAfterError(BomStripper):
    """Its incremental decoder's BOM state sticks after an error (Firefox's mistake): a stream
    that raised never reaches the line that starts the next one afresh, and reset() forgets
    only the bytes held, so the next stream's BOM is kept as text."""

    def incremental_decoder(self) -> ChunkDecoder:
        return StickyBomChunks(self)


class StickyBomChunks(BomChunks):
    def reset(self) -> None:
        self.held = b""


class BomOnlyInOneChunk(BomStripper):
    """Strips a leading BOM only when the first chunk holds all three bytes (Bun's mistake): a
    BOM split across chunks is kept as text."""

    def incremental_decoder(self) -> ChunkDecoder:
        return OneChunkBomChunks(self)


class OneChunkBomChunks(BomChunks):
    def decode(self, chunk: bytes, final: bool = False) -> str:
        if self.at_start:
            self.at_start = False
            chunk = chunk.removeprefix(BOM)
        text = ChunkDecoder.decode(self, chunk, final)
        if final:
            self.at_start = True
        return text


class NoResetAfterFinal(BomStripper):
    """Its incremental decoder strips the BOM of its first stream only: a call with final=True
    does not start the next stream afresh (only reset() does), as CPython's utf-8-sig."""

    def incremental_decoder(self) -> ChunkDecoder:
        return FirstStreamBomChunks(self)


class FirstStreamBomChunks(BomChunks):
    def decode(self, chunk: bytes, final: bool = False) -> str:
        if self.at_start:
            chunk, self.pending = self.pending + chunk, b""
            if len(chunk) < len(BOM) and BOM.startswith(chunk) and not final:
                self.pending = chunk
                return ""
            self.at_start = False
            chunk = chunk.removeprefix(BOM)
        return ChunkDecoder.decode(self, chunk, final)  # at_start is never set again here


class SkipsAfterTruncatedEnd(HandRolled):
    """A replacing incremental decoder that writes U+FFFD for a sequence a stream ended inside
    but keeps counting the continuation bytes it waited for: the next stream's first ones are
    dropped without a U+FFFD (E2 82 at the end of one stream, then AC 42 gives 'B')."""

    incremental_mode = "replace"

    def incremental_decoder(self) -> ChunkDecoder:
        return SkippingChunks(self)


class SkippingChunks(ChunkDecoder):
    skip = 0

    def decode(self, chunk: bytes, final: bool = False) -> str:
        while self.skip and chunk[:1] and 0x80 <= chunk[0] <= 0xBF:
            chunk, self.skip = chunk[1:], self.skip - 1
        data = self.held + chunk
        unfinished = self.unfinished(data)
        keep = 0 if final else unfinished
        self.held = data[len(data) - keep :]
        if final and unfinished:  # the sequence cut short: the bytes it still waited for
            lead = data[-unfinished]
            self.skip = (2 if lead < 0xE0 else 3 if lead < 0xF0 else 4) - unfinished
        return self.codec.decode_replace(data[: len(data) - keep])


def _surrogate(value: int) -> bool:
    return 0xD800 <= value <= 0xDFFF


class WritesLetterForSurrogate(HandRolled):
    """Encodes a lone surrogate as 'A': a character the input never held."""

    def encode(self, text: str) -> bytes:
        return super().encode("".join("A" if _surrogate(ord(c)) else c for c in text))


class ReadsSurrogateAsPair(HandRolled):
    """Reads every surrogate as the first of a pair with the value after it, or 0 at the end
    (an npm MessagePack encoder's way): D800 alone is written U+10000, D800 D7FF one U+103FF."""

    def encode(self, text: str) -> bytes:
        values, out, index = [ord(c) for c in text], [], 0
        while index < len(values):
            value = values[index]
            if _surrogate(value):
                low = values[index + 1] if index + 1 < len(values) else 0
                value = 0x10000 + ((value & 0x3FF) << 10 | low & 0x3FF)
                index += 1
            out.append(chr(value))
            index += 1
        return super().encode("".join(out))


class WritesReplacementForSurrogate(HandRolled):
    """Encodes a lone surrogate as U+FFFD, as the WHATWG TextEncoder does."""

    def encode(self, text: str) -> bytes:
        return super().encode("".join(REPLACEMENT if _surrogate(ord(c)) else c for c in text))


class WritesQuestionMarkForSurrogate(HandRolled):
    """Encodes a lone surrogate as '?', as Java's String.getBytes does."""

    def encode(self, text: str) -> bytes:
        return super().encode("".join("?" if _surrogate(ord(c)) else c for c in text))
