"""C libraries' UTF-8 encoders: glibc's wide-character conversion (wcsrtombs, wcrtomb's loop),
SQLite's UTF-16 to UTF-8 translation, and ICU's converter through PyICU.

Codec objects as in json_text.py. Each offers `encode` of a str; glibc's and SQLite's take code
units the library holds (UCS-4 wchar_t, UTF-16), so a lone surrogate reaches them as it is.
"""

from __future__ import annotations

import ctypes
from typing import Any

from utf8cert.harness.codec.raised import Refusal
from utf8cert.harness.world.adapters.native import (
    SIZE_T_ERROR,
    SQLITE_ROW,
    SQLITE_TRANSIENT,
    c_utf8_locale,
    glibc,
    load,
)


class GlibcWcrtomb:
    """glibc's wcsrtombs in the C.UTF-8 locale: wcrtomb applied to each wide character, in one
    call. It stops at a NUL wide character, so text is converted between U+0000s (each one 00
    byte); EILSEQ is a refusal at the code point where it stopped."""

    def __init__(self) -> None:
        libc = glibc()
        self.locale, self.uselocale = c_utf8_locale(libc)
        self.convert = libc.wcsrtombs
        self.convert.restype = ctypes.c_size_t
        self.convert.argtypes = [
            ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.c_size_t,
            ctypes.c_void_p,
        ]

    def encode(self, text: str) -> bytes:
        """Return the bytes glibc writes for `text`; raise Refusal where it stops."""
        written: list[bytes] = []
        at = 0
        previous = self.uselocale(self.locale)
        try:
            for index, segment in enumerate(text.split("\0")):
                if index:
                    written.append(b"\0")
                written.append(self.segment(segment, at))
                at += len(segment) + 1
        finally:
            self.uselocale(previous)
        return b"".join(written)

    def segment(self, segment: str, at: int) -> bytes:
        """Return the bytes of a NUL-free segment that starts at code point `at`."""
        source = (ctypes.c_uint32 * (len(segment) + 1))(*map(ord, segment), 0)
        target = ctypes.create_string_buffer(4 * len(segment) + 1)
        pointer = ctypes.c_void_p(ctypes.addressof(source))
        state = ctypes.create_string_buffer(32)  # mbstate_t, zeroed: the initial state
        count = self.convert(target, ctypes.byref(pointer), len(target), state)
        if count == SIZE_T_ERROR:
            stopped = (pointer.value or ctypes.addressof(source)) - ctypes.addressof(source)
            raise Refusal("wcsrtombs: EILSEQ", at + stopped // 4)
        return target.raw[:count]


class SqliteEncoder:
    """SQLite's UTF-16 to UTF-8 translation: text bound as UTF-16 (bind_text16) and read back as
    UTF-8 (column_text). Its strings are UTF-16, so a lone surrogate is bound as it is. SQLite
    takes a leading U+FEFF of UTF-16 text set through its API for a byte-order mark and drops it
    (vdbemem.c, sqlite3VdbeMemHandleBom): the path a program's text takes, so it is seen here."""

    strings = "utf-16"

    def __init__(self) -> None:
        lib: Any = load("sqlite3")
        handle, statement = ctypes.c_void_p(), ctypes.c_void_p()
        if lib.sqlite3_open(b":memory:", ctypes.byref(handle)) != 0:
            raise OSError("sqlite3_open cannot open an in-memory database")
        lib.sqlite3_prepare_v2.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.c_void_p,
        ]
        if lib.sqlite3_prepare_v2(handle, b"SELECT ?", -1, ctypes.byref(statement), None):
            raise OSError("sqlite3_prepare_v2 cannot prepare SELECT ?")
        lib.sqlite3_bind_text16.argtypes = [
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.c_void_p,
        ]
        lib.sqlite3_column_text.restype = ctypes.c_void_p
        for name in ("sqlite3_column_text", "sqlite3_column_bytes"):
            getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.sqlite3_step.argtypes = lib.sqlite3_reset.argtypes = [ctypes.c_void_p]
        self.lib, self.statement = lib, statement

    def encode(self, text: str) -> bytes:
        """Return the UTF-8 SQLite makes of `text`'s UTF-16."""
        utf16 = text.encode("utf-16-le", "surrogatepass")
        lib, statement = self.lib, self.statement
        lib.sqlite3_reset(statement)
        lib.sqlite3_bind_text16(statement, 1, utf16, len(utf16), SQLITE_TRANSIENT)
        if lib.sqlite3_step(statement) != SQLITE_ROW:
            raise RuntimeError("SELECT ? returned no row")
        pointer = lib.sqlite3_column_text(statement, 0)
        size = lib.sqlite3_column_bytes(statement, 0)
        return ctypes.string_at(pointer, size) if size else b""


class PyicuEncoder:
    """ICU's UTF-8 converter through PyICU: UnicodeString(text).encode('utf-8'). A UnicodeString
    is UTF-16; ICU's converter substitutes for what it cannot encode (its default callback)."""

    strings = "utf-16"

    def __init__(self) -> None:
        import icu

        self.icu = icu

    def encode(self, text: str) -> bytes:
        """Return the bytes ICU's converter writes for `text`."""
        return bytes(self.icu.UnicodeString(text).encode("utf-8"))
