"""Codecs wrong in one window the vectors do not hold by value, as the issue 44 measurements
found in a lookup-table codec; each is CPython's codec otherwise. Loadable as
`support.sweep_codecs:NAME`."""

from __future__ import annotations

import codecs
import os


class OneScalarRefuser:
    """A decoder and validator that refuse one well-formed character, U+2F9D2 (F0 AF A7 92, a
    CJK compatibility ideograph no vector holds): a table entry for one value gone wrong."""

    REFUSED = "\U0002f9d2".encode()

    def _first_refused(self, data: bytes) -> int:
        """Return where the refused character begins in well-formed `data` (-1: none)."""
        return data.find(self.REFUSED)

    def decode(self, data: bytes) -> str:
        """Return CPython's text, or raise where the refused cell is read."""
        text = codecs.decode(data, "utf-8")
        at = self._first_refused(data)
        if at >= 0:
            raise UnicodeDecodeError("utf-8", data, at, at + 1, "refused")
        return text

    def validate(self, data: bytes) -> bool:
        """Return CPython's verdict, False where the refused cell is read."""
        try:
            codecs.decode(data, "utf-8")
        except UnicodeDecodeError:
            return False
        return self._first_refused(data) < 0


class TailAfterParenthesis:
    """A validator whose previous-byte table misses a continuation byte after `)` (0x29):
    `29 80` passes, as in a lookup table with one cell of BYTE_1_HIGH wrong."""

    def validate(self, data: bytes) -> bool:
        """Return CPython's verdict on `data` with each continuation byte after `)` dropped."""
        if b")" in data:
            for tail in range(0x80, 0xC0):
                data = data.replace(bytes([0x29, tail]), b")")
        try:
            codecs.decode(data, "utf-8")
        except UnicodeDecodeError:
            return False
        return True


class CrashesOnC0:
    """A validator whose process dies on any input that holds C0 (a crash, not a refusal)."""

    def validate(self, data: bytes) -> bool:
        """Return CPython's verdict; end the process on a C0 byte."""
        if b"\xc0" in data:
            os._exit(3)
        try:
            codecs.decode(data, "utf-8")
        except UnicodeDecodeError:
            return False
        return True
