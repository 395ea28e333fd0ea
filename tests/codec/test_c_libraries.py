"""The C libraries' programs (harness/world/programs/c_*.c) against the real libraries: for
each adapter, what its library's documentation (or, where it is silent, its source) says it does
is seen through the adapter, and well-formed text with every character a wrapper escapes passes.
A library whose development files are missing is skipped with the reason. GLib and libunistring
are here, with what every adapter shares; utf8proc, ICU4C, PCRE2, expat and libxml2 are in
test_c_icu_and_parsers.py.

The evidence, library by library: GLib's reference (g_utf8_validate "returns FALSE if max_len is
positive and any of the max_len bytes are nul"; g_utf8_get_char_validated returns (gunichar)-2
for a nul; g_utf8_make_valid replaces "invalid bytes" with U+FFFD; g_convert's and
g_utf8_to_ucs4's bytes/items_read are the offset of an error and stop short of a trailing partial
character; g_utf8_to_ucs4 reads characters with g_utf8_get_char_extended, which checks no range,
and stops at a nul, gutf8.c); libunistring's manual (u8_check returns the first invalid unit;
u8_mbtoucr -1 and -2; u8_uctomb -1 for a non-character); utf8proc.h (utf8proc_encode_char "does
not check whether codepoint is valid Unicode"); ICU's ustring.h (U_INVALID_CHAR_FOUND, and
u_strFromUTF8WithSub substitutes per maximal subpart like the converter); pcre2unicode(3) (the
invalid character's offset from pcre2_get_startchar, its error texts); expat's and libxml2's
error messages.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.started_programs import (
    BEYOND,
    SURROGATE,
    Started,
    check,
    check_encode,
    refused_at,
    started,
)

from utf8cert.harness.check.run import check_input
from utf8cert.harness.codec.interface import Inapplicable, Returned
from utf8cert.harness.codec.reading import C_STRING_LIMIT
from utf8cert.harness.codec.strings import string_model
from utf8cert.harness.world import programs
from utf8cert.harness.world.programs import PROGRAMS, ProgramError
from utf8cert.harness.world.programs.c_libraries import C_PROGRAMS, GLIB, HEADER, INCLUDE, library

NAMES = [name for _, name, _ in C_PROGRAMS]
WELL_FORMED = 'A"<&>\\\r\n\t\x7f\u0085\u2028\u20ac\U0001f600'.encode()
REJECTED_NUL = ("validate", "must", "rejected well-formed input")
NOT_GIVEN = Inapplicable(C_STRING_LIMIT, unholdable=True)


@pytest.fixture(scope="module")
def program() -> Iterator[Started]:
    yield from started()


OFFERED = {
    "glib-utf8-validate": {"decode", "validate"},
    "glib-utf8-make-valid": {"replace"},
    "glib-get-char-validated": {"decode"},
    "glib-unichar-to-utf8": {"encode"},
    "glib-utf8-to-ucs4": {"decode", "encode"},
    "glib-utf8-to-utf16": {"decode", "encode"},
    "glib-convert": {"decode"},
    "glib-convert-utf32": {"decode"},
    "unistring-u8-check": {"decode", "validate"},
    "unistring-u8-to-u32": {"decode"},
    "unistring-u8-mbtoucr": {"decode"},
    "unistring-u8-mbtouc": {"replace"},
    "unistring-u8-uctomb": {"encode"},
    "utf8proc-iterate": {"decode"},
    "utf8proc-encode-char": {"encode"},
    "utf8proc-map": {"decode"},
    "icu-u8-macros": {"decode", "replace", "encode"},
    "icu-strfromutf8": {"decode"},
    "icu-strfromutf8withsub": {"replace"},
    "icu-strtoutf8": {"encode"},
    "icu-strtoutf8withsub": {"encode"},
    "icu-ucnv-stop": {"decode", "incremental"},
    "icu-ucnv-substitute": {"replace", "incremental"},
    "icu-ucnv-skip": {"replace", "incremental"},
    "pcre2-utf": {"decode", "validate"},
    "expat": {"decode", "incremental"},
    "libxml2-read-memory": {"decode"},
    "libxml2-push": {"decode", "incremental"},
    "libxml2-xmlcheckutf8": {"validate"},
    "libxml2-xmlgetutf8char": {"decode"},
    "libxml2-recover": {"replace"},
    "libxml2-html": {"replace"},
    # issue 43 (tests/codec/test_world_libraries.py checks what each does)
    "jansson": {"decode"},
    "json-c": {"decode"},
    "json-c-validate-utf8": {"decode"},
    "yajl": {"decode"},
    "cjson": {"decode"},
    "fribidi-charset-to-unicode": {"replace"},
    "fribidi-unicode-to-charset": {"encode"},
    "harfbuzz-buffer-add-utf8": {"replace"},
    "cmark": {"replace"},
    "cmark-validate-utf8": {"replace"},
    "cmark-gfm": {"replace"},
    "cmark-gfm-validate-utf8": {"replace"},
    "bson-utf8-validate": {"validate"},
    "bson-utf8-escape-for-json": {"decode"},
    "libcbor": {"decode"},
}


@pytest.mark.parametrize("name", NAMES)
def test_each_adapter_offers_what_its_api_can_do_and_names_the_library(
    program: Started, name: str
) -> None:
    codec = program(name)
    assert codec.capabilities == OFFERED[name]
    # The handshake's strings are the entry's: UTF-16 for ICU's and GLib's UTF-16 functions.
    utf16 = (
        name.startswith("icu-str") or name.startswith("icu-ucnv") or name == "glib-utf8-to-utf16"
    )
    assert string_model(codec) == PROGRAMS[name].strings == ("utf-16" if utf16 else "code points")
    version = PROGRAMS[name].version()
    assert version.split()[0] in PROGRAMS[name].description and version.split()[1][0].isdigit()


@pytest.mark.parametrize("name", NAMES)
def test_well_formed_text_with_every_escaped_character_passes(program: Started, name: str) -> None:
    assert check_input(program(name), WELL_FORMED) == []


# --- GLib -------------------------------------------------------------------------------------


def test_glib_validate_refuses_a_surrogate_and_a_nul(program: Started) -> None:
    codec = program("glib-utf8-validate")
    assert codec.validate(SURROGATE) == Returned(False)
    assert codec.validate(b"\xe2\x82\xac") == Returned(True)
    assert codec.validate(b"a\x00b") == Returned(False)
    assert check(codec, "validate", b"\x00") == {REJECTED_NUL}
    assert refused_at(codec.decode(b"ab" + SURROGATE), 2, "end")  # where validation stopped


def test_glib_make_valid_replaces_each_invalid_byte_and_a_nul(program: Started) -> None:
    codec = program("glib-utf8-make-valid")
    assert codec.decode_replace(b"x\xe2\x82") == Returned("x\ufffd\ufffd")
    assert codec.decode_replace(b"a\x00b") == Returned("a\ufffdb")
    assert ("replace", "should", "wrong U+FFFD count") in check(codec, "replace", b"x\xe2\x82")


def test_glib_get_char_validated_refuses_a_nul_and_a_surrogate(program: Started) -> None:
    codec = program("glib-get-char-validated")
    assert codec.decode(b"a\xe2\x82\xac") == Returned("a\u20ac")
    assert refused_at(codec.decode(b"a\x00"), 1, "(gunichar)-2")
    assert refused_at(codec.decode(b"ab" + SURROGATE), 2, "(gunichar)-1")
    assert check(codec, "decode", b"ab" + SURROGATE) == set()


def test_glib_unichar_to_utf8_encodes_any_value_unchecked(program: Started) -> None:
    codec = program("glib-unichar-to-utf8")
    assert codec.encode([0x41, 0xD800]) == Returned(b"A" + SURROGATE)
    assert codec.encode([0x110000]) == Returned(BEYOND)
    assert ("encode", "must", "encoded a surrogate") in check_encode(codec, 0xD800)


def test_glib_utf8_to_ucs4_lets_a_surrogate_through_and_stops_at_a_nul(program: Started) -> None:
    codec = program("glib-utf8-to-ucs4")
    assert codec.decode(SURROGATE) == Returned("\ud800")
    # It stops at a nul, given the length (tests/codec/test_reading.py asks GLib directly): the
    # adapter declares a C string, so a question holding one is not put to it.
    assert codec.decode(b"a\x00b") == NOT_GIVEN
    assert refused_at(codec.decode(b"a\xc0\xaf"), 1)
    assert refused_at(codec.decode(b"a\xe2\x82"), 1, "partial")
    assert codec.encode([0x41, 0xD800]) == Returned(b"A" + SURROGATE)


def test_glib_utf8_to_utf16_refuses_a_surrogate_and_points_past_a_lone_one(
    program: Started,
) -> None:
    codec = program("glib-utf8-to-utf16")
    assert refused_at(codec.decode(b"a" + SURROGATE), 1, "Invalid sequence")
    assert refused_at(codec.decode(b"a" + BEYOND), 1, "out of range for UTF-16")
    assert codec.decode(b"a\x00b") == NOT_GIVEN  # it stops at a nul, as g_utf8_to_ucs4 does
    # g_utf16_to_utf8 sees the lone high surrogate only at the unit after it: items_read 2.
    assert refused_at(codec.encode([0x41, 0xD800, 0x42]), 2, "Invalid sequence")
    assert refused_at(codec.encode([0x41, 0xD800]), 1, "partial")
    assert codec.encode([0x1F600]) == Returned("\U0001f600".encode())


def test_glib_convert_refuses_at_bytes_read(program: Started) -> None:
    codec = program("glib-convert")
    assert refused_at(codec.decode(b"ab\xc0\xaf"), 2)
    assert refused_at(codec.decode(b"ab" + SURROGATE), 2)
    assert refused_at(codec.decode(b"a\xe2\x82"), 1, "partial")
    assert codec.decode("a\U0001f600".encode()) == Returned("a\U0001f600")  # a UTF-16 pair
    assert check(codec, "decode", b"a\xf0\x9f\x98") == set()


def test_glib_convert_to_utf32_refuses_what_utf_32_cannot_hold(program: Started) -> None:
    codec = program("glib-convert-utf32")
    # glibc's UTF-8 reader takes F4 90 80 80 for 0x110000 (adapter:glibc-iconv); UTF-32 refuses it.
    assert refused_at(codec.decode(b"ab" + BEYOND), 2)
    assert codec.decode(b"a\xf0\x9f\x98\x80") == Returned("a\U0001f600")


# --- libunistring -----------------------------------------------------------------------------


def test_unistring_u8_check_points_at_the_first_invalid_unit(program: Started) -> None:
    codec = program("unistring-u8-check")
    assert refused_at(codec.decode(b"ab" + SURROGATE), 2, "u8_check")
    assert codec.validate(BEYOND) == Returned(False)
    assert check(codec, "decode", b"ab\xe0\x80\xaf") == set()


def test_unistring_u8_to_u32_refuses_without_an_offset(program: Started) -> None:
    codec = program("unistring-u8-to-u32")
    assert refused_at(codec.decode(b"a" + SURROGATE), None, "EILSEQ")
    assert check(codec, "decode", b"a\xe2\x82" + BEYOND) == set()


def test_unistring_u8_mbtoucr_says_incomplete_at_the_end(program: Started) -> None:
    codec = program("unistring-u8-mbtoucr")
    assert refused_at(codec.decode(b"a\xe2\x82"), 1, "-2, incomplete")
    assert refused_at(codec.decode(b"a\xc0\xaf"), 1, "-1, invalid")
    assert check(codec, "decode", BEYOND) == set()


def test_unistring_u8_mbtouc_replaces_a_character_shaped_sequence_as_one(
    program: Started,
) -> None:
    codec = program("unistring-u8-mbtouc")
    # Unicode §3.9: ED A0 80 and F4 90 80 80 are 3 and 4 maximal subparts; u8_mbtouc gives one.
    assert codec.decode_replace(SURROGATE + b"A") == Returned("\ufffdA")
    assert codec.decode_replace(BEYOND) == Returned("\ufffd")
    assert check(codec, "replace", BEYOND) == {("replace", "should", "wrong U+FFFD count")}
    assert check(codec, "replace", b"\xc0\xaf\xe2\x82A") == set()


def test_unistring_u8_uctomb_refuses_a_surrogate(program: Started) -> None:
    codec = program("unistring-u8-uctomb")
    assert refused_at(codec.encode([0x41, 0xD800]), 1)
    assert check_encode(codec, 0x41, 0x110000) == set()


# --- availability and building ----------------------------------------------------------------


def test_a_missing_library_names_the_debian_package(monkeypatch: pytest.MonkeyPatch) -> None:
    absent = library("nolib", "GLIB", "utf8cert-no-such-library", "libnolib-dev")
    if PROGRAMS["glib-convert"].unavailable() is None:  # pkg-config is here to say so
        assert absent.unavailable() == (
            "nolib's development files are missing (apt-get install libnolib-dev)"
        )
    monkeypatch.setenv("PATH", "")
    assert PROGRAMS["glib-convert"].unavailable() == (
        "gcc not found on PATH (apt-get install gcc pkg-config libglib2.0-dev)"
    )
    with pytest.raises(ProgramError, match=r"^GLib: gcc not found on PATH"):
        PROGRAMS["glib-convert"].spec()


def test_each_library_has_a_build_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("unistring-u8-check", "utf8proc-iterate"):
        if PROGRAMS[name].unavailable() is not None:
            pytest.skip(f"{name}: {PROGRAMS[name].unavailable()}")
    monkeypatch.setenv("UTF8CERT_CACHE", str(tmp_path))
    first = PROGRAMS["unistring-u8-check"].spec()
    second = PROGRAMS["utf8proc-iterate"].spec()
    assert first.split()[0] != second.split()[0]
    assert len(os.listdir(tmp_path)) == 3  # the two builds, and their whole sources
    assert PROGRAMS["unistring-u8-mbtoucr"].spec().split()[0] == first.split()[0]  # not rebuilt


def test_the_version_is_the_linked_librarys_not_a_stale_pkg_config_files() -> None:
    if PROGRAMS["utf8proc-iterate"].unavailable() is not None:
        pytest.skip(f"utf8proc: {PROGRAMS['utf8proc-iterate'].unavailable()}")
    path = ctypes.util.find_library("utf8proc")
    if path is None:
        pytest.skip("no shared libutf8proc for ctypes to ask")
    linked = ctypes.CDLL(path).utf8proc_version
    linked.restype = ctypes.c_char_p
    assert PROGRAMS["utf8proc-iterate"].version() == f"utf8proc {linked().decode()}"


def test_a_change_to_the_shared_header_is_a_new_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UTF8CERT_CACHE", str(tmp_path / "cache"))
    shipped = Path(programs.__file__).parent
    for name in ("c_glib.c", HEADER):
        (tmp_path / name).write_text((shipped / name).read_text(encoding="utf-8"))
    first = GLIB.whole(tmp_path / "c_glib.c")
    assert INCLUDE not in first.read_text() and "int main(" in first.read_text()
    assert GLIB.whole(tmp_path / "c_glib.c") == first  # the same text: the same file
    with (tmp_path / HEADER).open("a") as header:
        header.write("/* changed */\n")
    assert GLIB.whole(tmp_path / "c_glib.c") != first
