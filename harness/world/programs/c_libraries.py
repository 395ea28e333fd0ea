"""The UTF-8 functions of the C libraries people link, as shipped programs, one C file each.

    from utf8cert.harness.world.programs import PROGRAMS
    PROGRAMS["glib-utf8-make-valid"].spec()  # "cmd:~/.cache/utf8cert/c_glib-KEY/program ..."

Each library has a program (c_glib.c, c_unistring.c, c_utf8proc.c, c_icu.c, c_pcre2.c,
c_expat.c, c_libxml2.c) that includes c_protocol.h, what they share, and is linked with what
pkg-config names. Each library is a runtime of its own: missing when its development files are
(the reason names the Debian package to install), its version the library's. The build is keyed
by the program with the header written into it, and by that version.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from utf8cert.harness.codec.cache import cache_root
from utf8cert.harness.codec.strings import DEFAULT, StringModel
from utf8cert.harness.world.programs.runtimes import (
    Build,
    ProgramError,
    Runtime,
    tool_version,
)

HEADER: Final = "c_protocol.h"
INCLUDE: Final = f'#include "{HEADER}"'
COMPILE: Final = 'gcc -O2 -o "$1/program" "$0" {flags}'
"""The build, run by sh: $0 is the source, $1 the build directory."""
UNISTRING_VERSION: Final = (
    "v=$(echo '#include <unistring/version.h>' | gcc -E -dM - 2>/dev/null"
    " | sed -n 's/^#define _LIBUNISTRING_VERSION //p'); [ -n \"$v\" ]"
    " && echo $((v >> 16)).$((v >> 8 & 255)).$((v & 255))"
)
"""libunistring ships no pkg-config file: its version is its header's _LIBUNISTRING_VERSION."""
UTF8PROC_VERSION: Final = (
    "printf '#include <utf8proc.h>\\nUTF8PROC_VERSION_MAJOR UTF8PROC_VERSION_MINOR"
    " UTF8PROC_VERSION_PATCH\\n' | gcc -E -P $(pkg-config --cflags libutf8proc 2>/dev/null) -"
    " 2>/dev/null"
    " | tail -n 1 | grep -E '^[0-9]+ [0-9]+ [0-9]+$' | tr ' ' ."
)
"""utf8proc's pkg-config file lags behind its releases (Debian's 2.8.0 says 2.6.0): its
version is its header's UTF8PROC_VERSION_* macros. pkg-config's complaint when it has no file
is kept out of the output: printed with the pipeline's status 0, it was taken for a version, and
utf8proc for present without its header."""


@dataclass(frozen=True)
class CLibrary(Runtime):
    """A C library checked through its program (`source`)."""

    debian: str = ""
    """The Debian package holding its development files."""

    def unavailable(self) -> str | None:
        """Return None when gcc, pkg-config and the library's development files are here, else
        what is missing and the Debian package to install (one line)."""
        missing = super().unavailable()
        if missing is not None:
            return f"{missing} (apt-get install gcc pkg-config {self.debian})"
        if tool_version(self.version_command) == "unknown":
            return f"{self.name}'s development files are missing (apt-get install {self.debian})"
        return None

    def version(self) -> str:
        """Return the library's name and version ('GLib 2.74.6'), or 'unknown'."""
        line = tool_version(self.version_command)
        return "unknown" if line == "unknown" else f"{self.name} {line}"

    def built(self, source: Path, build: Build) -> Path:
        """Return the build directory of `source`, built from the one file of it with the header
        written in (Runtime.built keys a build by the file it is given: so the header does too)."""
        return super().built(self.whole(source), build)

    def whole(self, source: Path) -> Path:
        """Return the file of `source` with c_protocol.h in place of its #include, kept in the
        cache under the hash of its text (written once, renamed into place when complete)."""
        text = source.read_text(encoding="utf-8")
        text = text.replace(INCLUDE, (source.parent / HEADER).read_text(encoding="utf-8"), 1)
        key = hashlib.sha256(text.encode()).hexdigest()[:16]
        root = cache_root() / "sources"
        path = root / f"{source.stem}-{key}.c"
        if path.is_file():
            return path
        try:
            root.mkdir(parents=True, exist_ok=True)
            handle, scratch = tempfile.mkstemp(prefix=f".{source.stem}-", suffix=".c", dir=root)
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(scratch, path)
        except OSError as error:
            raise ProgramError(f"{self.name}: cannot use the cache {root}: {error}") from None
        return path


def compile_with(flags: str) -> Build:
    """Return the build of a program, linked with `flags` (expanded by sh)."""

    def build(source: Path, into: Path) -> list[str]:
        return ["sh", "-c", COMPILE.format(flags=flags), str(source), str(into)]

    return build


def library(
    name: str,
    source: str,
    package: str,
    debian: str,
    strings: StringModel = DEFAULT,
    version: str = "",
    define: str = "",
) -> CLibrary:
    """Return the runtime of one library, its flags and version from pkg-config's `package`
    (libunistring, which has none: -lunistring); `strings`: what the library's strings hold
    (UTF-16 for ICU); `version`: a shell command telling the version, when pkg-config's is not
    the library's; `define`: the macro that picks the library in a source shared by several
    (c_json.c, c_text.c)."""
    flags = f"$(pkg-config --cflags --libs {package})" if package else "-lunistring"
    flags = f"-D{define} {flags}" if define else flags
    version_command: tuple[str, ...] = (
        ("sh", "-c", version) if version else ("pkg-config", "--modversion", package)
    )
    return CLibrary(
        name,
        ("gcc", "pkg-config"),
        version_command,
        source,
        build=compile_with(flags),
        run=("{dir}/program",),
        strings=strings,
        debian=debian,
    )


GLIB: Final = library("GLib", "c_glib.c", "glib-2.0", "libglib2.0-dev")
GLIB_UTF16: Final = library("GLib", "c_glib.c", "glib-2.0", "libglib2.0-dev", "utf-16")
"""GLib for its UTF-16 functions: the same build (the same source and version key it)."""
UNISTRING: Final = library(
    "libunistring", "c_unistring.c", "", "libunistring-dev", version=UNISTRING_VERSION
)
UTF8PROC: Final = library(
    "utf8proc", "c_utf8proc.c", "libutf8proc", "libutf8proc-dev", version=UTF8PROC_VERSION
)
ICU: Final = library("ICU4C", "c_icu.c", "icu-uc", "libicu-dev", "utf-16")
ICU_MACROS: Final = library("ICU4C", "c_icu.c", "icu-uc", "libicu-dev")
"""ICU's utf8.h macros take code points (UChar32), not UTF-16: the same build as ICU's."""
PCRE2: Final = library("PCRE2", "c_pcre2.c", "libpcre2-8", "libpcre2-dev")
EXPAT: Final = library("expat", "c_expat.c", "expat", "libexpat1-dev")
LIBXML2: Final = library("libxml2", "c_libxml2.c", "libxml-2.0", "libxml2-dev")
JANSSON: Final = library(
    "jansson", "c_json.c", "jansson", "libjansson-dev", define="JSON_LIBRARY_JANSSON"
)
JSONC: Final = library("json-c", "c_json.c", "json-c", "libjson-c-dev", define="JSON_LIBRARY_JSONC")
YAJL: Final = library("yajl", "c_json.c", "yajl", "libyajl-dev", define="JSON_LIBRARY_YAJL")
CJSON: Final = library("cJSON", "c_json.c", "libcjson", "libcjson-dev", define="JSON_LIBRARY_CJSON")
FRIBIDI: Final = library(
    "FriBidi", "c_text.c", "fribidi", "libfribidi-dev", define="TEXT_LIBRARY_FRIBIDI"
)
HARFBUZZ: Final = library(
    "HarfBuzz", "c_text.c", "harfbuzz", "libharfbuzz-dev", define="TEXT_LIBRARY_HARFBUZZ"
)
CMARK: Final = library("cmark", "c_text.c", "libcmark", "libcmark-dev", define="TEXT_LIBRARY_CMARK")
CMARK_GFM: Final = library(
    "cmark-gfm",
    "c_text.c",
    "libcmark-gfm",
    "libcmark-gfm-dev libcmark-gfm-extensions-dev",
    define="TEXT_LIBRARY_CMARK_GFM",
)
LIBBSON: Final = library(
    "libbson", "c_text.c", "libbson-1.0", "libbson-dev", define="TEXT_LIBRARY_BSON"
)
LIBCBOR: Final = library(
    "libcbor", "c_text.c", "libcbor", "libcbor-dev", define="TEXT_LIBRARY_CBOR"
)

C_PROGRAMS: Final = (
    (
        GLIB,
        "glib-utf8-validate",
        "GLib: g_utf8_validate_len (validate; strict decode refused at its end pointer)",
    ),
    (GLIB, "glib-utf8-make-valid", "GLib: g_utf8_make_valid (replace)"),
    (
        GLIB,
        "glib-get-char-validated",
        "GLib: g_utf8_get_char_validated at each character (strict decode, its offset)",
    ),
    (GLIB, "glib-unichar-to-utf8", "GLib: g_unichar_to_utf8 for each code point (encode)"),
    (
        GLIB,
        "glib-utf8-to-ucs4",
        "GLib: g_utf8_to_ucs4 (strict decode, items_read offset) and g_ucs4_to_utf8 (encode)",
    ),
    (
        GLIB_UTF16,
        "glib-utf8-to-utf16",
        "GLib: g_utf8_to_utf16 (strict decode, items_read offset) and g_utf16_to_utf8 (encode)",
    ),
    (
        GLIB,
        "glib-convert",
        "GLib: g_convert from UTF-8 to UTF-16LE (strict decode, bytes_read offset; iconv)",
    ),
    (
        GLIB,
        "glib-convert-utf32",
        "GLib: g_convert from UTF-8 to UTF-32LE (strict decode, bytes_read offset; iconv)",
    ),
    (
        UNISTRING,
        "unistring-u8-check",
        "libunistring: u8_check (validate; strict decode at its offset, text by u8_to_u32)",
    ),
    (UNISTRING, "unistring-u8-to-u32", "libunistring: u8_to_u32 (strict decode, no offset)"),
    (UNISTRING, "unistring-u8-mbtoucr", "libunistring: u8_mbtoucr at each character (strict)"),
    (UNISTRING, "unistring-u8-mbtouc", "libunistring: u8_mbtouc at each character (replace)"),
    (UNISTRING, "unistring-u8-uctomb", "libunistring: u8_uctomb for each code point (encode)"),
    (UTF8PROC, "utf8proc-iterate", "utf8proc: utf8proc_iterate at each character (strict)"),
    (UTF8PROC, "utf8proc-encode-char", "utf8proc: utf8proc_encode_char (encode)"),
    (
        UTF8PROC,
        "utf8proc-map",
        "utf8proc: utf8proc_map with UTF8PROC_STABLE (strict decode, no offset)",
    ),
    (
        ICU_MACROS,
        "icu-u8-macros",
        "ICU4C: utf8.h's U8_NEXT (strict decode), U8_NEXT_OR_FFFD (replace), U8_APPEND (encode)",
    ),
    (ICU, "icu-strfromutf8", "ICU4C: u_strFromUTF8 (strict decode, no offset)"),
    (ICU, "icu-strfromutf8withsub", "ICU4C: u_strFromUTF8WithSub, U+FFFD (replace)"),
    (ICU, "icu-strtoutf8", "ICU4C: u_strToUTF8 (encode)"),
    (
        ICU,
        "icu-strtoutf8withsub",
        "ICU4C: u_strToUTF8WithSub, U+FFFD for a lone surrogate (encode)",
    ),
    (
        ICU,
        "icu-ucnv-stop",
        "ICU4C: ucnv UTF-8 converter, UCNV_TO_U_CALLBACK_STOP (strict decode and incremental)",
    ),
    (
        ICU,
        "icu-ucnv-substitute",
        "ICU4C: ucnv UTF-8 converter, SUBSTITUTE callback (replace and incremental, replacing)",
    ),
    (
        ICU,
        "icu-ucnv-skip",
        "ICU4C: ucnv UTF-8 converter, UCNV_TO_U_CALLBACK_SKIP: ill-formed bytes dropped (replace"
        " and incremental, replacing)",
    ),
    (
        PCRE2,
        "pcre2-utf",
        "PCRE2: pcre2_match's UTF check with PCRE2_UTF (validate; strict decode at "
        "pcre2_get_startchar, the text read back from the accepted bytes)",
    ),
    (
        EXPAT,
        "expat",
        "expat: XML_Parse, the text of an XML element (strict decode, byte index; incremental:"
        " the document fed in pieces)",
    ),
    (
        LIBXML2,
        "libxml2-read-memory",
        "libxml2: xmlReadMemory, the text of an XML element (strict decode, line and column)",
    ),
    (
        LIBXML2,
        "libxml2-push",
        "libxml2: the push parser (xmlParseChunk), the text of an XML element (strict decode and"
        " incremental)",
    ),
    (
        LIBXML2,
        "libxml2-xmlcheckutf8",
        "libxml2: xmlCheckUTF8 on the bytes as a nul-terminated string, its only form (validate)",
    ),
    (
        LIBXML2,
        "libxml2-xmlgetutf8char",
        "libxml2: xmlGetUTF8Char at each character (strict decode, its offset)",
    ),
    (
        LIBXML2,
        "libxml2-recover",
        "libxml2: xmlReadMemory with XML_PARSE_RECOVER, the text of an XML element (replace)",
    ),
    (
        LIBXML2,
        "libxml2-html",
        "libxml2: htmlReadMemory told UTF-8, the text of a paragraph (replace: it never refuses)",
    ),
    (
        JANSSON,
        "jansson",
        "jansson: json_loadb (JSON_DECODE_ANY, JSON_ALLOW_NUL), a JSON string (strict decode, no"
        " offset)",
    ),
    (JSONC, "json-c", "json-c: json_tokener_parse_ex, default flags, a JSON string (decode)"),
    (
        JSONC,
        "json-c-validate-utf8",
        "json-c: json_tokener_parse_ex with JSON_TOKENER_VALIDATE_UTF8, a JSON string (decode)",
    ),
    (YAJL, "yajl", "yajl: yajl_parse, default options (strings validated), a JSON string (decode)"),
    (CJSON, "cjson", "cJSON: cJSON_ParseWithLength, a JSON string (decode)"),
    (
        FRIBIDI,
        "fribidi-charset-to-unicode",
        "FriBidi: fribidi_charset_to_unicode(FRIBIDI_CHAR_SET_UTF8) (replace: it never refuses)",
    ),
    (
        FRIBIDI,
        "fribidi-unicode-to-charset",
        "FriBidi: fribidi_unicode_to_charset(FRIBIDI_CHAR_SET_UTF8) (encode)",
    ),
    (
        HARFBUZZ,
        "harfbuzz-buffer-add-utf8",
        "HarfBuzz: hb_buffer_add_utf8, the buffer's code points before shaping (replace)",
    ),
    (
        CMARK,
        "cmark",
        "cmark: cmark_parse_document, CMARK_OPT_DEFAULT, a fenced code block's literal (replace)",
    ),
    (
        CMARK,
        "cmark-validate-utf8",
        "cmark: cmark_parse_document, CMARK_OPT_VALIDATE_UTF8, a fenced code block (replace)",
    ),
    (
        CMARK_GFM,
        "cmark-gfm",
        "cmark-gfm: cmark_parse_document, CMARK_OPT_DEFAULT, a fenced code block (replace)",
    ),
    (
        CMARK_GFM,
        "cmark-gfm-validate-utf8",
        "cmark-gfm: cmark_parse_document, CMARK_OPT_VALIDATE_UTF8, a fenced code block (replace)",
    ),
    (
        LIBBSON,
        "bson-utf8-validate",
        "libbson: bson_utf8_validate, allow_null true, as bson_validate checks strings (validate)",
    ),
    (
        LIBBSON,
        "bson-utf8-escape-for-json",
        "libbson: bson_utf8_escape_for_json, as bson_as_json writes strings (strict decode)",
    ),
    (LIBCBOR, "libcbor", "libcbor: cbor_load, a CBOR text string (decode)"),
)
"""Each program: its library, its name (also its mode: the argument its program takes) and what
it checks."""

C_STRING_APIS: Final = frozenset(
    {"glib-utf8-to-ucs4", "glib-utf8-to-utf16", "libxml2-xmlcheckutf8", "cjson"}
)
"""The programs whose API reads a C string, stopping at a NUL (codec/reading.py): xmlCheckUTF8
has no other form; g_utf8_to_ucs4 and g_utf8_to_utf16 stop at a NUL though given a length."""
