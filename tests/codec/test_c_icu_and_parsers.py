"""ICU4C, utf8proc, PCRE2, expat and libxml2 through their programs, against the real libraries
(the evidence for each is named in tests/codec/test_c_libraries.py's docstring)."""

from __future__ import annotations

from collections.abc import Iterator

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

from utf8cert.harness.codec.interface import Failed, Inapplicable, Returned
from utf8cert.harness.codec.reading import C_STRING_LIMIT


@pytest.fixture(scope="module")
def program() -> Iterator[Started]:
    yield from started()


# --- utf8proc ---------------------------------------------------------------------------------


def test_utf8proc_iterate_refuses_each_form_rfc_3629_forbids(program: Started) -> None:
    codec = program("utf8proc-iterate")
    assert refused_at(codec.decode(b"a" + SURROGATE), 1, "Invalid UTF-8")
    for data in (SURROGATE, BEYOND, b"\xc0\xaf", b"a\xe2\x82"):
        assert check(codec, "decode", data) == set()


def test_utf8proc_encode_char_writes_a_surrogate(program: Started) -> None:
    codec = program("utf8proc-encode-char")
    assert codec.encode([0xDFFF]) == Returned(b"\xed\xbf\xbf")
    assert refused_at(codec.encode([0x41, 0x110000]), 1)
    assert ("encode", "must", "encoded a surrogate") in check_encode(codec, 0xD800)


def test_utf8proc_map_refuses_without_an_offset(program: Started) -> None:
    codec = program("utf8proc-map")
    assert refused_at(codec.decode(b"a" + SURROGATE), None, "Invalid UTF-8")
    assert codec.decode(b"A\xcc\x8a") == Returned("A\u030a")  # no normalization asked


# --- ICU4C ------------------------------------------------------------------------------------


def test_icu_u8_macros_step_over_each_maximal_subpart(program: Started) -> None:
    codec = program("icu-u8-macros")
    assert refused_at(codec.decode(b"ab" + SURROGATE), 2, "U8_NEXT")
    assert codec.decode_replace(BEYOND + b"A") == Returned("\ufffd" * 4 + "A")
    assert refused_at(codec.encode([0x41, 0xD800]), 1, "U8_APPEND")
    assert check(codec, "replace", SURROGATE + b"\xe0\x80\xaf\xe2\x82") == set()
    assert check_encode(codec, 0x41, 0x110000) == set()


def test_icu_strfromutf8_refuses_with_u_invalid_char_found(program: Started) -> None:
    codec = program("icu-strfromutf8")
    assert refused_at(codec.decode(b"a\xff"), None, "U_INVALID_CHAR_FOUND")
    assert check(codec, "decode", SURROGATE) == set()


def test_icu_strfromutf8withsub_replaces_each_maximal_subpart(program: Started) -> None:
    codec = program("icu-strfromutf8withsub")
    assert codec.decode_replace(BEYOND + b"A") == Returned("\ufffd" * 4 + "A")
    assert check(codec, "replace", SURROGATE + b"\xe0\x80\xaf\xe2\x82") == set()


def test_icu_strtoutf8_refuses_a_lone_surrogate(program: Started) -> None:
    codec = program("icu-strtoutf8")
    assert refused_at(codec.encode([0x41, 0xDC00]), None, "U_INVALID_CHAR_FOUND")
    assert codec.encode([0x1F600]) == Returned("\U0001f600".encode())


def test_icu_strtoutf8withsub_substitutes_u_fffd_for_a_lone_surrogate(program: Started) -> None:
    codec = program("icu-strtoutf8withsub")
    assert codec.encode([0x41, 0xDC00]) == Returned(b"A\xef\xbf\xbd")
    substituted = ("encode", "should", "substituted a character for an unencodable value")
    assert check_encode(codec, 0xD800) == {substituted}


def test_icu_converter_stops_at_the_first_error_across_chunks(program: Started) -> None:
    codec = program("icu-ucnv-stop")
    assert refused_at(codec.decode(b"a\xc0\xaf"), 1, "U_ILLEGAL_CHAR_FOUND")
    assert refused_at(codec.decode_chunks([b"ab\xe2", b"\x82", b"("], False), 2)
    assert refused_at(codec.decode_chunks([b"a\xe2", b"\x82"], True), 1, "TRUNCATED")
    assert check(codec, "incremental", b"\xe2\x82\xac" + SURROGATE) == set()


def test_icu_converter_substitutes_each_maximal_subpart(program: Started) -> None:
    codec = program("icu-ucnv-substitute")
    assert codec.decode_replace(SURROGATE) == Returned("\ufffd" * 3)
    assert codec.decode_chunks([b"a\xf0\x9f", b"\x98\x80\xe2"], False) == Returned(
        "a\U0001f600\ufffd"
    )
    assert check(codec, "incremental", BEYOND + b"A\xe2\x82") == set()


def test_icu_converter_with_skip_drops_ill_formed_bytes(program: Started) -> None:
    codec = program("icu-ucnv-skip")
    assert codec.decode_replace(b"A" + SURROGATE + b"B") == Returned("AB")
    assert codec.decode_chunks([b"A\xe2", b"\x82B"], False) == Returned("AB")
    dropped = ("replace", "must", "dropped ill-formed input silently")
    assert dropped in check(codec, "replace", b"A\xc0\xafB")


# --- PCRE2, expat, libxml2 --------------------------------------------------------------------


def test_pcre2_checks_utf_and_gives_the_invalid_characters_offset(program: Started) -> None:
    codec = program("pcre2-utf")
    assert refused_at(codec.decode(b"ab" + SURROGATE), 2, "0xd800-0xdfff are not defined")
    assert refused_at(codec.decode(b"ab\xc0\xaf"), 2, "overlong")
    assert codec.validate(BEYOND) == Returned(False)
    assert check(codec, "decode", b"ab\xe2\x82") == set()


def test_expat_refuses_an_invalid_token_at_its_byte(program: Started) -> None:
    codec = program("expat")
    assert refused_at(codec.decode(b"a<\xff"), 2, "invalid token")
    assert refused_at(codec.decode(b"a" + SURROGATE), 1)
    assert check(codec, "decode", b"a&" + BEYOND) == set()
    # The streaming parser fed the document in pieces: a character cut between them is held.
    assert codec.decode_chunks([b"<\xe2", b"\x82", b"\xac"], False) == Returned("<\u20ac")
    assert refused_at(codec.decode_chunks([b"ab\xe2", b"\x82"], True), 2, "invalid token")
    assert check(codec, "incremental", b"a\xf0\x9f\x98\x80" + SURROGATE) == set()


def test_libxml2_refuses_at_its_first_error(program: Started) -> None:
    codec = program("libxml2-read-memory")
    assert refused_at(codec.decode(b"a\xff"), 1, "Input is not proper UTF-8")
    # libxml2 reads ED A0 80 as 0xD800, then refuses it as a Char: its first error.
    assert refused_at(codec.decode(SURROGATE + b"\xed\xb0"), 0, "0xD800 out of allowed range")
    assert check(codec, "decode", b"\xc3\xa9\n<" + SURROGATE) == set()


def test_libxml2_push_parser_holds_a_cut_character_and_refuses_at_the_first_error(
    program: Started,
) -> None:
    codec = program("libxml2-push")
    assert codec.decode_chunks([b"&\xe2", b"\x82", b"\xac"], False) == Returned("&\u20ac")
    assert refused_at(codec.decode_chunks([b"a\n\xc3", b"\xa9\xff"], False), 4, "not proper UTF-8")
    assert check(codec, "incremental", b"\xc3\xa9" + SURROGATE) == set()


@pytest.mark.parametrize("name", ["libxml2-recover", "libxml2-html"])
def test_libxml2_lenient_parsers_copy_invalid_bytes_into_the_text(
    program: Started, name: str
) -> None:
    codec = program(name)
    outcome = codec.decode_replace(b"A\x80B")
    assert isinstance(outcome, Failed) and outcome.kind == "wrong-type", outcome
    assert "byte 1 of its output is 80" in outcome.message
    assert codec.decode_replace(b"A" + SURROGATE + b"B") == Returned("AB")  # dropped


def test_libxml2_xmlcheckutf8_is_not_super_strict_as_documented(program: Started) -> None:
    # libxml2's documentation: "This function is not super-strict, as it will allow longer UTF-8
    # sequences than necessary ... does not check for 0x10ffff maximum value"; and the string is
    # nul-terminated, so what follows a NUL is not looked at: the adapter declares a C string,
    # and a question holding a NUL is not put to it (tests/codec/test_reading.py).
    codec = program("libxml2-xmlcheckutf8")
    assert codec.validate(b"\xc0\xaf") == Returned(True)
    assert codec.validate(BEYOND) == Returned(True)
    assert codec.validate(b"a\x00\xff") == Inapplicable(C_STRING_LIMIT, unholdable=True)
    assert codec.validate(b"a\xff") == Returned(False)


def test_libxml2_xmlgetutf8char_reads_an_overlong_and_a_surrogate(program: Started) -> None:
    codec = program("libxml2-xmlgetutf8char")
    assert codec.decode(b"\xc0\xaf") == Returned("/")
    assert codec.decode(b"\x80\xbf") == Returned("?")  # a stray 80 taken for a 2-byte lead
    assert codec.decode(SURROGATE) == Returned("\ud800")
    assert refused_at(codec.decode(b"a\xe2\x82"), 1, "xmlGetUTF8Char")
