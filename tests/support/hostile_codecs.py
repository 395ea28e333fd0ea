"""Hostile codecs: correct (CPython's UTF-8 codec) until given byte C0, then each goes wrong in
one way a native codec does. Loadable as `support.hostile_codecs:NAME`; every one offers all five
capabilities (an encoder is never given C0: the built-in vectors give it no such input, so it
stays correct), and the decoding ones misbehave on any input or chunk holding C0.

- HangOnC0: never returns (sleeps, so that a hang costs no CPU on a loaded machine);
- CrashOnC0: raises RuntimeError;
- ExitOnC0: calls os._exit(3), as a C library's exit() does;
- ExitZeroOnC0: calls os._exit(0): a process that asks it in process ends "successfully";
- InterruptOnC0: raises KeyboardInterrupt, which no user sent;
- SegfaultOnC0: reads address 0 (SIGSEGV);
- NoFault: never goes wrong (the others' well-behaved twin).

The built-in vectors holding C0 are listed by `c0_vectors()`, the independent evidence of which
vectors a fault must be reported against. With HOSTILE_MARK set to a file name, each process
appends its pid there as it goes wrong, so that a test knows when the fault is under way.
"""

from __future__ import annotations

import codecs
import ctypes
import os
import time
from functools import cache

TRIGGER = 0xC0
FAULTS = ("HangOnC0", "CrashOnC0", "ExitOnC0", "InterruptOnC0", "SegfaultOnC0")
MARK = "HOSTILE_MARK"


def mark() -> None:
    """Append this process's id to the file HOSTILE_MARK names, if it names one."""
    path = os.environ.get(MARK)
    if path:
        with open(path, "a", encoding="ascii") as file:
            file.write(f"{os.getpid()}\n")


@cache
def c0_vectors() -> frozenset[str]:
    """Return the ids of the built-in decoding vectors whose bytes hold C0."""
    # Imported here: a child process serving a codec of this module should not load them.
    from utf8cert.harness.vectors.load import load_vectors
    from utf8cert.harness.vectors.model import EncodeVector

    return frozenset(
        vector.id
        for vector in load_vectors()
        if not isinstance(vector, EncodeVector) and TRIGGER in vector.data
    )


class Hostile:
    """CPython's UTF-8 codec with every capability, calling `fault` on an input holding C0."""

    def fault(self) -> None:
        """Go wrong (each subclass its own way)."""
        raise NotImplementedError

    def _watch(self, data: bytes) -> None:
        if TRIGGER in data:
            mark()
            self.fault()

    def decode(self, data: bytes) -> str:
        """Return the strict decoding (fault on C0)."""
        self._watch(data)
        return data.decode("utf-8")

    def decode_replace(self, data: bytes) -> str:
        """Return the decoding with U+FFFD (fault on C0)."""
        self._watch(data)
        return data.decode("utf-8", "replace")

    def validate(self, data: bytes) -> bool:
        """Return whether `data` is well-formed (fault on C0)."""
        self._watch(data)
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    def encode(self, text: str) -> bytes:
        """Return the strict encoding."""
        return text.encode("utf-8")

    def incremental_decoder(self) -> Chunks:
        """Return an incremental decoder that faults on a chunk holding C0."""
        return Chunks(self)


class Chunks:
    """CPython's incremental decoder, calling its codec's `fault` on a chunk holding C0."""

    def __init__(self, codec: Hostile) -> None:
        self.codec = codec
        self.decoder = codecs.getincrementaldecoder("utf-8")()

    def decode(self, chunk: bytes, final: bool = False) -> str:
        """Return the text `chunk` completes (fault on C0)."""
        self.codec._watch(chunk)
        text: str = self.decoder.decode(chunk, final)
        return text

    def getstate(self) -> tuple[bytes, int]:
        """Return the bytes held back, as codecs.IncrementalDecoder does."""
        state: tuple[bytes, int] = self.decoder.getstate()
        return state


class NoFault(Hostile):
    """The same codec, never going wrong: what the others would answer but for their fault."""

    def fault(self) -> None:
        return


class HangOnC0(Hostile):
    """Never returns on C0."""

    def fault(self) -> None:
        while True:
            time.sleep(60)


class CrashOnC0(Hostile):
    """Raises RuntimeError on C0."""

    def fault(self) -> None:
        raise RuntimeError("C0 is not handled")


class ExitOnC0(Hostile):
    """Ends the process with status 3 on C0, flushing nothing."""

    def fault(self) -> None:
        os._exit(3)


class ExitZeroOnC0(Hostile):
    """Ends the process with status 0 on C0, as if all had gone well."""

    def fault(self) -> None:
        os._exit(0)


class InterruptOnC0(Hostile):
    """Raises KeyboardInterrupt on C0 (no user pressed Ctrl-C)."""

    def fault(self) -> None:
        raise KeyboardInterrupt


class SegfaultOnC0(Hostile):
    """Reads address 0 on C0: the process dies of SIGSEGV."""

    def fault(self) -> None:
        ctypes.string_at(0)


class HogOnC0(Hostile):
    """Allocates 1 GiB on C0 (and touches it, so that it is really taken)."""

    def fault(self) -> None:
        hog = bytearray(1 << 30)
        hog[:: 1 << 12] = b"\x01" * len(range(0, 1 << 30, 1 << 12))
