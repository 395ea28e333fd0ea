"""C libraries' UTF-8 decoders reached through ctypes: glibc's iconv and multibyte conversion,
SQLite's UTF-8 to UTF-16 translation; and PyICU.

Codec objects as in json_text.py: made with no arguments, they load the library (OSError or
ImportError when it is missing) and offer what it can be asked.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import re
import sys
from array import array
from typing import Any, Final

from utf8cert.harness.codec.raised import Refusal

SIZE_T_ERROR = ctypes.c_size_t(-1).value
"""(size_t) -1: what iconv and mbsnrtowcs return on an error."""

LC_CTYPE_MASK = 1 << 0
"""glibc's <locale.h>: LC_CTYPE is category 0."""


def load(name: str) -> ctypes.CDLL:
    """Return the shared library `name` (c, sqlite3); OSError when it is not found."""
    path = ctypes.util.find_library(name)
    if path is None:
        raise OSError(f"no shared library lib{name} found")
    return ctypes.CDLL(path, use_errno=True)


def glibc() -> ctypes.CDLL:
    """Return glibc; OSError when the C library is another one (musl, macOS)."""
    libc = load("c")
    if not hasattr(libc, "gnu_get_libc_version"):
        raise OSError("the C library is not glibc")
    return libc


def c_utf8_locale(libc: ctypes.CDLL) -> tuple[int, Any]:
    """Return glibc's C.UTF-8 locale object and its `uselocale` function (which makes it the
    calling thread's locale and returns the one it replaces); OSError when it is not installed."""
    libc.newlocale.restype = ctypes.c_void_p
    libc.newlocale.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p]
    locale = libc.newlocale(LC_CTYPE_MASK, b"C.UTF-8", None)
    if not locale:
        raise OSError("the C.UTF-8 locale is not installed")
    uselocale = libc.uselocale
    uselocale.restype = ctypes.c_void_p
    uselocale.argtypes = [ctypes.c_void_p]
    return locale, uselocale


def glibc_version() -> str:
    """Return glibc's version ('2.36')."""
    function = glibc().gnu_get_libc_version
    function.restype = ctypes.c_char_p
    return str(function().decode("ascii"))


UTF32 = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"
"""The layout of an array('I') of code points, read in bulk by CPython's UTF-32 codec."""


def text_of(values: array[int]) -> object:
    """Return the code points as a str, or, when one cannot be in a str (above U+10FFFF), as a
    tuple of ints (how a Python decoder says it read such values)."""
    if values and max(values) > 0x10FFFF:
        return tuple(values)
    return values.tobytes().decode(UTF32, "surrogatepass")  # lone surrogates kept as they are


class GlibcIconv:
    """glibc's iconv from UTF-8 to WCHAR_T (UCS-4), the conversion C programs use to read text.

    EILSEQ and EINVAL (input ending inside a character) are refusals at the byte where iconv
    stopped; the output is read as UCS-4 code points.
    """

    def __init__(self) -> None:
        libc = glibc()
        self.iconv = libc.iconv
        self.iconv.restype = ctypes.c_size_t
        pointer = ctypes.POINTER(ctypes.c_char_p)
        size = ctypes.POINTER(ctypes.c_size_t)
        self.iconv.argtypes = [ctypes.c_void_p, pointer, size, pointer, size]
        libc.iconv_open.restype = ctypes.c_void_p
        libc.iconv_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        self.descriptor = libc.iconv_open(b"WCHAR_T", b"UTF-8")
        if self.descriptor in (None, SIZE_T_ERROR):
            raise OSError("iconv_open cannot convert UTF-8 to WCHAR_T")

    def decode(self, data: bytes) -> object:
        """Return the text iconv gives; raise Refusal where it stops."""
        source = ctypes.create_string_buffer(data, len(data))
        target = ctypes.create_string_buffer(4 * len(data) + 4)
        in_at, in_left = ctypes.c_char_p(ctypes.addressof(source)), ctypes.c_size_t(len(data))
        out_at, out_left = ctypes.c_char_p(ctypes.addressof(target)), ctypes.c_size_t(len(target))
        self.iconv(self.descriptor, None, None, None, None)  # back to the initial state
        result = self.iconv(
            self.descriptor,
            ctypes.byref(in_at),
            ctypes.byref(in_left),
            ctypes.byref(out_at),
            ctypes.byref(out_left),
        )
        if result == SIZE_T_ERROR:
            code = ctypes.get_errno()
            name = errno.errorcode.get(code, str(code))
            raise Refusal(f"iconv: {name}", len(data) - in_left.value)
        values = array("I", target.raw[: len(target) - out_left.value])
        return text_of(values)


class GlibcMbrtowc:
    """glibc's multibyte conversion in the C.UTF-8 locale. Decoding a whole string uses
    mbsnrtowcs, which runs the same conversion step as mbrtowc in one call; so does the
    incremental decoder, its mbstate_t carried across chunks as mbrtowc's would be (mbrtowc
    itself, one ctypes call a character, takes minutes for a check).

    mbsnrtowcs stops at a NUL, so a string is converted between NUL bytes (each an U+0000).
    EILSEQ is a refusal where the conversion stopped; input ending inside a character (the
    state is not initial afterwards) is a refusal without an offset, as glibc does not say it.
    """

    def __init__(self) -> None:
        libc = glibc()
        self.locale, self.uselocale = c_utf8_locale(libc)
        self.convert = libc.mbsnrtowcs
        self.convert.restype = ctypes.c_size_t
        self.convert.argtypes = [
            ctypes.c_void_p,
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_size_t,
            ctypes.c_size_t,
            ctypes.c_void_p,
        ]
        self.initial = libc.mbsinit
        self.initial.argtypes = [ctypes.c_void_p]

    def incremental_decoder(self) -> MbrtowcDecoder:
        """Return a fresh decoder over mbrtowc, in the initial conversion state."""
        return MbrtowcDecoder(self)

    def decode(self, data: bytes) -> object:
        """Return the text glibc gives; raise Refusal where it stops."""
        values = array("I")
        at = 0
        previous = self.uselocale(self.locale)
        try:
            for segment in data.split(b"\0"):
                if at:
                    values.append(0)
                self.convert_segment(segment, at, values)
                at += len(segment) + 1
        finally:
            self.uselocale(previous)
        return text_of(values)

    def convert_segment(
        self, segment: bytes, at: int, values: array[int], state: Any = None
    ) -> None:
        """Append the code points of a NUL-free segment starting at `at`; raise Refusal on
        EILSEQ. With no `state`, a fresh one that must end initial (else a Refusal); a given
        one is left holding a character the segment ends inside."""
        source = ctypes.create_string_buffer(segment, len(segment) + 1)
        target = (ctypes.c_uint32 * (len(segment) + 1))()
        pointer = ctypes.c_char_p(ctypes.addressof(source))
        fresh = state is None
        if fresh:
            state = ctypes.create_string_buffer(32)  # mbstate_t is 8 bytes on glibc; zeroed
        count = self.convert(target, ctypes.byref(pointer), len(segment), len(target), state)
        if count == SIZE_T_ERROR:
            stopped = ctypes.cast(pointer, ctypes.c_void_p).value or ctypes.addressof(source)
            raise Refusal("mbsnrtowcs: EILSEQ", at + stopped - ctypes.addressof(source))
        values.extend(target[:count])
        if fresh and not self.initial(state):
            raise Refusal("mbsnrtowcs: the input ends inside a character", None)


class MbrtowcDecoder:
    """glibc's restartable conversion fed chunk by chunk: one mbstate_t for the whole stream,
    so a character cut between chunks is held by glibc itself, not by this adapter."""

    def __init__(self, glibc: GlibcMbrtowc) -> None:
        self.glibc = glibc
        self.state = ctypes.create_string_buffer(32)  # mbstate_t, zeroed: the initial state
        self.fed = 0

    def decode(self, chunk: bytes, final: bool = False) -> object:
        """Return the text of the characters completed in this chunk; raise Refusal on EILSEQ
        (where glibc stopped; None when it stopped on a character begun in an earlier chunk)
        or, when final, for input ending inside a character (no offset: glibc does not say)."""
        glibc, values = self.glibc, array("I")
        previous = glibc.uselocale(glibc.locale)
        try:
            at = 0
            if final:
                fed, self.fed = self.fed, 0  # a refusal ends the stream too: the next starts at 0
            else:
                fed = self.fed
            for index, segment in enumerate(chunk.split(b"\0")):
                if index:
                    values.append(0)
                held = not glibc.initial(self.state)
                try:
                    glibc.convert_segment(segment, fed + at, values, self.state)
                except Refusal as refusal:
                    stopped_at_start = refusal.start == fed + at
                    raise Refusal(
                        str(refusal), None if held and stopped_at_start else refusal.start
                    ) from None
                at += len(segment) + 1
        finally:
            glibc.uselocale(previous)
        self.fed = 0 if final else fed + len(chunk)  # offsets count from a stream's start
        if final and not glibc.initial(self.state):
            raise Refusal("mbsnrtowcs: the input ends inside a character", None)
        return text_of(values)

    def reset(self) -> None:
        """Return the decoder to the initial conversion state (a zeroed mbstate_t, as C's
        mbsinit documents), at the start of a stream."""
        ctypes.memset(self.state, 0, len(self.state))
        self.fed = 0


SQLITE_ROW = 100
SQLITE_TRANSIENT = ctypes.c_void_p(-1)
"""Tells sqlite3_bind_text to copy the bytes."""


def sqlite_version() -> str:
    """Return the version of the SQLite library ctypes loads ('3.40.1')."""
    function = load("sqlite3").sqlite3_libversion
    function.restype = ctypes.c_char_p
    return str(function().decode("ascii"))


class Sqlite:
    """SQLite's own UTF-8 handling: text bound as UTF-8 and read back as UTF-16 goes through
    SQLite's translator (sqlite3VdbeMemTranslate), which never refuses: a replacing decoder."""

    def __init__(self) -> None:
        lib = load("sqlite3")
        handle = ctypes.c_void_p()
        if lib.sqlite3_open(b":memory:", ctypes.byref(handle)) != 0:
            raise OSError("sqlite3_open cannot open an in-memory database")
        statement = ctypes.c_void_p()
        lib.sqlite3_prepare_v2.argtypes = [
            ctypes.c_void_p,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.c_void_p,
        ]
        if lib.sqlite3_prepare_v2(handle, b"SELECT ?", -1, ctypes.byref(statement), None):
            raise OSError("sqlite3_prepare_v2 cannot prepare SELECT ?")
        self.statement = statement
        self.lib = lib
        lib.sqlite3_bind_text.argtypes = [
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.c_void_p,
        ]
        lib.sqlite3_column_text16.restype = ctypes.c_void_p
        for name in ("sqlite3_column_text16", "sqlite3_column_bytes16"):
            getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.sqlite3_step.argtypes = lib.sqlite3_reset.argtypes = [ctypes.c_void_p]

    def decode_replace(self, data: bytes) -> object:
        """Return the text SQLite makes of the bytes (its UTF-16, read with lone surrogates)."""
        lib: Any = self.lib
        lib.sqlite3_reset(self.statement)
        lib.sqlite3_bind_text(self.statement, 1, data, len(data), SQLITE_TRANSIENT)
        if lib.sqlite3_step(self.statement) != SQLITE_ROW:
            raise RuntimeError("SELECT ? returned no row")
        pointer = lib.sqlite3_column_text16(self.statement, 0)
        size = lib.sqlite3_column_bytes16(self.statement, 0)
        utf16 = ctypes.string_at(pointer, size) if size else b""
        return utf16.decode("utf-16-le", "surrogatepass")


class Pyicu:
    """ICU's UTF-8 converter through PyICU: UnicodeString(bytes, 'utf-8', mode). In 'strict' mode
    it raises ValueError naming a byte position ("... in position 3: reason code 1"): the first
    place the bad bytes occur in the input, as PyICU searches for them (docs/findings.md); in
    'replace' mode it substitutes U+FFFD."""

    POSITION: Final = re.compile(r"in position (\d+)")

    def __init__(self) -> None:
        import icu

        self.icu = icu

    def decode(self, data: bytes) -> object:
        """Return the text ICU's converter makes of the bytes; Refusal at the position it names."""
        try:
            return str(self.icu.UnicodeString(data, "utf-8", "strict"))
        except ValueError as error:
            position = self.POSITION.search(str(error))
            raise Refusal(str(error), int(position[1]) if position else None) from None

    def decode_replace(self, data: bytes) -> object:
        """Return the text ICU's converter makes of the bytes, U+FFFD for what it cannot read."""
        return str(self.icu.UnicodeString(data, "utf-8", "replace"))
