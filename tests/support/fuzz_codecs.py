"""Codecs with the bugs the fuzzer exists for, each hidden where a plain vector does not reach.

Each is a realistic optimisation gone wrong, written the way a C or Rust decoder would be (word
loops, fixed buffers, hand-written bit layouts), with CPython's codec as the slow path that is
right. `Conformant` is the control: it must give no finding. Specs: `support.fuzz_codecs:NAME`, with
tests/ on sys.path (pytest puts it there; campaigns get it through PYTHONPATH).
"""

from __future__ import annotations

import codecs
import ctypes
import os
import sys
import time
from collections.abc import Iterator
from typing import Final

from support import broken_codecs
from support.hand_rolled import CPythonUtf8, HandRolled, Step, whatwg_steps

WORD = 8
BLOCK = 4096
VECTOR_THRESHOLD = 64


def _decode_slowly(data: bytes, start: int, end: int) -> str:
    """Return CPython's strict decoding of data[start:end], its error offsets made absolute."""
    try:
        return data[start:end].decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnicodeDecodeError(
            "utf-8", data, start + error.start, start + error.end, error.reason
        ) from None


class AlignedAsciiFastPath:
    """Skips ASCII a machine word at a time, but its mask misses the high bit of the word's last
    byte: a non-ASCII byte at an offset of 7 modulo 8, after seven ASCII bytes, is taken as
    ASCII (copied as Latin-1) — but only when the word loop reaches it aligned."""

    @staticmethod
    def _ascii_end(data: bytes, position: int) -> int:
        while position < len(data) and position % WORD:
            if data[position] >= 0x80:
                return position
            position += 1
        while position + WORD <= len(data):
            word = int.from_bytes(data[position : position + WORD], "little")
            if word & 0x0080_8080_8080_8080:  # BUG: lane 7's bit is 0x80 << 56, left out
                break
            position += WORD
        while position < len(data) and data[position] < 0x80:
            position += 1
        return position

    def decode(self, data: bytes) -> str:
        text, position = [], 0
        while position < len(data):
            ascii_end = self._ascii_end(data, position)
            text.append(data[position:ascii_end].decode("latin-1"))
            position = end = ascii_end
            while end < len(data) and data[end] >= 0x80:
                end += 1  # RFC 3629 §1: no ASCII byte is inside a multi-byte sequence
            text.append(_decode_slowly(data, position, end))
            position = end
        return "".join(text)


class LongInputValidator:
    """From 64 bytes on, a 'vector' path checks only the shape of each sequence (lead bits and
    the number of 10xxxxxx tails) and assembles the value from its bits: the narrowed second
    bytes of RFC 3629 §4 (after E0, ED, F0, F4) and the leads C0, C1 are never checked, so
    overlongs and surrogates pass. Shorter inputs go to the careful scalar path."""

    @staticmethod
    def _length(lead: int) -> int:
        return 1 if lead < 0x80 else 2 if 0xC0 <= lead < 0xE0 else 3 if lead < 0xF0 else 4

    def decode(self, data: bytes) -> str:
        if len(data) < VECTOR_THRESHOLD:
            return data.decode("utf-8")
        text, position = [], 0
        while position < len(data):
            lead = data[position]
            length = self._length(lead)
            sequence = data[position : position + length]
            if (
                0x80 <= lead < 0xC0
                or lead >= 0xF8
                or len(sequence) < length
                or any(byte >> 6 != 0b10 for byte in sequence[1:])
            ):
                return data.decode("utf-8")  # malformed shape: let the scalar path report it
            value = lead & (0x7F >> length) if length > 1 else lead
            for byte in sequence[1:]:
                value = value << 6 | byte & 0x3F
            if value > 0x10FFFF:
                return data.decode("utf-8")
            text.append(chr(value))
            position += length
        return "".join(text)


class BlockBufferedDecoder:
    """Reads its input in 4096-byte blocks, holding back an unfinished character for the next
    block — in a one-byte buffer. A three- or four-byte character with two or more bytes before
    a block boundary loses its head, and well-formed input is refused."""

    def decode(self, data: bytes) -> str:
        text, held = [], b""
        for start in range(0, len(data), BLOCK):
            block = held + data[start : start + BLOCK]
            final = start + BLOCK >= len(data)
            try:
                piece, used = codecs.utf_8_decode(block, "strict", final)
            except UnicodeDecodeError as error:
                at = start - len(held)
                raise UnicodeDecodeError(
                    "utf-8", data, at + error.start, at + error.end, error.reason
                ) from None
            text.append(piece)
            held = block[used : used + 1]  # BUG: room for one held-back byte only
        return "".join(text)


class _ForgetfulDecoder:
    def __init__(self) -> None:
        self.held = b""

    def decode(self, chunk: bytes, final: bool = False) -> str:
        data = self.held + chunk
        text, used = codecs.utf_8_decode(data, "strict", final)
        unfinished = len(data) - used
        # BUG: the unfinished tail is taken from the new chunk alone; when it began in bytes
        # held from an earlier chunk, those bytes are forgotten.
        self.held = chunk[len(chunk) - unfinished :] if unfinished else b""
        return text

    def getstate(self) -> tuple[bytes, int]:
        return (self.held, 0)


class ForgetfulIncremental:
    """Decodes correctly in one go, but its incremental decoder forgets held-back bytes when a
    character arrives in three or more chunks."""

    def decode(self, data: bytes) -> str:
        return data.decode("utf-8")

    def incremental_decoder(self) -> _ForgetfulDecoder:
        return _ForgetfulDecoder()


class SurrogateWritingEncoder:
    """Encodes by the bit layout of RFC 3629 §3 but forgets that U+D800..U+DFFF are excluded:
    a lone surrogate comes out as ED A0..BF xx instead of a refusal."""

    def decode(self, data: bytes) -> str:
        return data.decode("utf-8")

    def encode(self, text: str) -> bytes:
        return broken_codecs.SurrogateWritingEncoder().encode(text)


class SignatureLoop:
    """Strips U+FEFF signatures with a loop that never moves past one found after the start:
    an input with EF BB BF anywhere but at offset 0 hangs it."""

    def decode(self, data: bytes) -> str:
        position = 0
        while (found := data.find(b"\xef\xbb\xbf", position)) != -1:
            if found == 0:
                data = data[3:]
            # BUG: `position = found + 3` is missing
        return data.decode("utf-8")


class NullPointerOnOverlong:
    """A C extension's decoder that reads through a null pointer when its lookup table has no
    entry for the lead byte C0 (emulated with ctypes): the process dies with SIGSEGV."""

    def decode(self, data: bytes) -> str:
        if b"\xc0" in data:
            ctypes.string_at(0)
        return data.decode("utf-8")


class ExitsOnOverlong:
    """Gives up on the lead byte C0 by ending the process at once, as a C library's abort path
    might: `os._exit`, which runs no handler, so libFuzzer never sees it."""

    def decode(self, data: bytes) -> str:
        if b"\xc0" in data:
            os._exit(3)
        return data.decode("utf-8")


class InterruptsOnOverlong:
    """Raises KeyboardInterrupt on the lead byte C0 (a signal handler gone wrong): not the
    user's Ctrl-C, a fault of the codec."""

    def decode(self, data: bytes) -> str:
        if b"\xc0" in data:
            raise KeyboardInterrupt
        return data.decode("utf-8")


class Page1000Decoder(broken_codecs.Page4096Decoder):
    """Page4096Decoder's bug with 1000-byte pages: a size no seed and no fixed boundary reaches
    (the mutator's long runs must, issue 22)."""

    PAGE = 1000


class Page8192Decoder(broken_codecs.Page4096Decoder):
    """Page4096Decoder's bug with 8192-byte pages: the seeds across 4096 stop short of it."""

    PAGE = 8192


class Page30000Decoder(broken_codecs.Page4096Decoder):
    """Page4096Decoder's bug with 30000-byte pages: only an input past 30000 bytes shows it."""

    PAGE = 30000


TWO_BYTE_RUN: Final = 8
"""Two-byte characters in a row after which TwoByteRunDecoder takes its fast path."""


class TwoByteRunDecoder(HandRolled):
    """A fast path for Cyrillic or Greek text: after TWO_BYTE_RUN two-byte characters in a row
    it reads pairs by their bit shape alone (110xxxxx 10xxxxxx), so the overlong leads C0 and
    C1 (RFC 3629 §4: a two-byte lead is C2..DF) pass inside such a run. No vector holds a run
    that long followed by an overlong: only mutation reaches it."""

    def steps(self, data: bytes) -> Iterator[Step]:
        run = 0
        for start, end, piece in whatwg_steps(data):
            shaped = start + 1 < len(data) and data[start + 1] >> 6 == 0b10
            if piece is None and run >= TWO_BYTE_RUN and data[start] in (0xC0, 0xC1) and shaped:
                # BUG: the shape is right, the value (below U+0080) is never checked.
                value = (data[start] & 0x1F) << 6 | data[start + 1] & 0x3F
                yield start, start + 2, chr(value)
                for rest in whatwg_steps(data[start + 2 :]):
                    yield rest[0] + start + 2, rest[1] + start + 2, rest[2]
                return
            two_byte = piece is not None and end - start == 2 and data[start] >= 0xC2
            run = run + 1 if two_byte else 0
            yield start, end, piece


class TwoByteOverlongs:
    """Checks every lead byte against RFC 3629's table but the two that can only start an
    overlong (C0, C1): with a tail after it, either is read by the bit layout (C0 80 is U+0000,
    the classic NUL smuggled past a filter). Everything else goes to CPython's codec."""

    @staticmethod
    def _decode(data: bytes, errors: str) -> str:
        def slowly(start: int, end: int) -> str:
            if errors == "strict":
                return _decode_slowly(data, start, end)
            return data[start:end].decode("utf-8", errors)

        text, start = [], 0
        for position in range(len(data) - 1):
            lead, tail = data[position], data[position + 1]
            # BUG: RFC 3629 §4 has no row for C0 and C1: they are never a lead byte.
            if position >= start and lead in (0xC0, 0xC1) and 0x80 <= tail < 0xC0:
                text += [slowly(start, position), chr((lead & 0x1F) << 6 | tail & 0x3F)]
                start = position + 2
        text.append(slowly(start, len(data)))
        return "".join(text)

    def decode(self, data: bytes) -> str:
        return self._decode(data, "strict")

    def decode_replace(self, data: bytes) -> str:
        return self._decode(data, "replace")


class HangsWhenMinimized:
    """Reads C0 80 as U+0000 (the overlong NUL) inside a campaign's fuzzing process; outside it
    (where utf8cert minimizes the finding) it hangs on C0 in Python code, writing its pid to the
    file FUZZ_CODECS_MARK names first: a test then knows the minimization is under way."""

    def decode(self, data: bytes) -> str:
        if b"\xc0" in data:
            if not sys.argv[0].endswith("utf8cert_fuzzer.py"):
                with open(os.environ["FUZZ_CODECS_MARK"], "a", encoding="ascii") as mark:
                    mark.write(f"{os.getpid()}\n")
                while True:
                    time.sleep(60)
            if data == b"\xc0\x80":
                return "\x00"
        return data.decode("utf-8")


class PrintsStatusLines:
    """Decodes right, and prints a libFuzzer status line (999,999,999 executions, a corpus of
    77,777) to stderr on every call, as a chatty or hostile codec might."""

    def decode(self, data: bytes) -> str:
        line = "#999999999\tpulse  cov: 1 ft: 1 corp: 77777/1b lim: 4 exec/s: 123456789 rss: 1Mb"
        print(line, file=sys.stderr, flush=True)
        return data.decode("utf-8")


class Conformant(CPythonUtf8):
    """Every capability, done right by CPython's codec: the fuzzer must find nothing."""

    def validate(self, data: bytes) -> bool:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True


def _two_byte_overlongs(data: bytes, steps: Iterator[Step]) -> Iterator[Step]:
    """Yield `steps` with C0 or C1 and the tail after it read as one character by the bit
    layout (TwoByteOverlongs' bug: RFC 3629 §4 has no row for C0 and C1)."""
    skip = -1
    for start, end, piece in steps:
        if start == skip:
            continue
        tail = data[start + 1] if start + 1 < len(data) else 0
        if piece is None and data[start] in (0xC0, 0xC1) and 0x80 <= tail < 0xC0:
            yield start, start + 2, chr((data[start] & 0x1F) << 6 | tail & 0x3F)
            skip = start + 1  # the tail, a lone continuation byte to the WHATWG steps
            continue
        yield start, end, piece


class MergesIntoFffdAndOverlongs(broken_codecs.MergesIntoFffd):
    """Two bugs, two root causes: MergesIntoFffd's (an error right after a U+FFFD, a literal one
    included, leaves no U+FFFD of its own) and TwoByteOverlongs' (C0 or C1 with a tail is read
    as a character, by every decoding capability)."""

    def steps(self, data: bytes) -> Iterator[Step]:
        return _two_byte_overlongs(data, super().steps(data))
