"""Codecs whose answers lie about themselves: subclasses of str and bytes whose comparisons,
lengths and hashes say what the judge wants to hear (issue 23). utf8cert must judge the value
the codec really returned."""

from __future__ import annotations

import os
import time
from typing import Any


class AgreeableBytes(bytes):
    """Bytes that compare equal to anything, and claim the length of anything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0

    def __bytes__(self) -> bytes:
        return b""

    def hex(self, *args: Any) -> str:
        return ""


class AgreeableStr(str):
    """Text that compares equal to anything, with a length and hash that lie."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __len__(self) -> int:
        return 1

    def __hash__(self) -> int:
        return 0

    def __str__(self) -> str:
        return "\ufffd"


def _cesu_8(text: str) -> bytes:
    """Return CESU-8: each supplementary character as its UTF-16 surrogate pair, 3 bytes each."""
    pairs = text.encode("utf-16-be", "surrogatepass").decode("utf-16-be", "surrogatepass")
    return "".join(
        chr(0xD800 + ((ord(c) - 0x10000) >> 10)) + chr(0xDC00 + ((ord(c) - 0x10000) & 0x3FF))
        if ord(c) > 0xFFFF
        else c
        for c in pairs
    ).encode("utf-8", "surrogatepass")


class CesuEncoder:
    """A CESU-8 encoder whose bytes claim to be whatever they are compared with."""

    def encode(self, text: str) -> bytes:
        return AgreeableBytes(_cesu_8(text))


class Latin1Decoder:
    """A Latin-1 decoder whose text claims to be whatever it is compared with."""

    def decode(self, data: bytes) -> str:
        return AgreeableStr(data.decode("latin-1"))


_calls = 0


def wears_out(data: bytes) -> str:
    """A strict decoder right for its first $WEAR_OUT_AFTER calls, and Latin-1 after them."""
    global _calls
    _calls += 1
    if _calls > int(os.environ["WEAR_OUT_AFTER"]):
        return data.decode("latin-1")
    return data.decode("utf-8")


_refusals = 0


def numbers_its_refusals(data: bytes) -> str:
    """CPython's strict decoder, each refusal's message numbered: honest, but no two messages
    alike (the answer is where the error is, not what the message says)."""
    global _refusals
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        _refusals += 1
        raise UnicodeDecodeError(
            "utf-8", data, error.start, error.end, f"refusal number {_refusals}"
        ) from None


_calls_before_breaking = 0


def breaks(data: bytes) -> str:
    """CPython's strict decoder for its first $BREAK_AFTER calls; after them every call breaks
    as $BREAK_HOW says: `crash` (a RuntimeError, as a leak of handles ends), `none` (returns
    None), `exit` (the process ends) or `hang`."""
    global _calls_before_breaking
    _calls_before_breaking += 1
    if _calls_before_breaking <= int(os.environ["BREAK_AFTER"]):
        return data.decode("utf-8")
    how = os.environ["BREAK_HOW"]
    if how == "crash":
        raise RuntimeError(f"call {_calls_before_breaking}: no handle left")
    if how == "exit":
        os._exit(9)
    if how == "hang":
        time.sleep(3600)
    return None  # type: ignore[return-value]  # the wrong type, on purpose
