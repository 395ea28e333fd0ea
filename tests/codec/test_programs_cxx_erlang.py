"""The C++ and Erlang programs (programs/more_languages.py) against the real runtimes: what each
API does with ill-formed input is found by utf8cert, and a conformant one passes.

The evidence is independent of utf8cert: CPython's own UTF-8 codec (which refuses surrogates,
overlong forms, values above U+10FFFF and truncated sequences, as RFC 3629 says), and what each
library documents or its source shows. libstdc++'s wstring_convert::from_bytes throws
range_error only when the facet says `error`; a sequence cut short at the end is `partial`,
which it returns as success with converted() short of the input (bits/locale_conv.h), and its
codecvt_utf8 takes surrogates (UCS-4, not Unicode scalar values). glibc's mbrtoc32 and c32rtomb
in C.UTF-8 take the 31-bit forms of RFC 2279 but refuse surrogates. Erlang's unicode module
documents {error, Good, Rest} and {incomplete, Good, Rest}, and its bit syntax's utf8 segment
takes only Unicode scalar values. A program whose runtime is missing is skipped with the reason,
which names the Debian package to install.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from support.started_programs import Started, check, check_encode, started

from utf8cert.harness.codec.interface import Refused, Returned
from utf8cert.harness.world.programs import PROGRAMS
from utf8cert.harness.world.programs.more_languages import CXX, ERLANG, MORE_LANGUAGES
from utf8cert.harness.world.programs.scripting import Installable

SURROGATE = b"\xed\xa0\x80"  # U+D800 in the form RFC 3629 §3 forbids
BEYOND = b"\xf4\x90\x80\x80"  # U+110000 in the form RFC 2279 allowed
TRUNCATED = b"\xe2\x82"  # the first two bytes of U+20AC
OVERLONG_SLASH = b"\x2f\xc0\xaf"  # RFC 3629 §10: "/" then an overlong "/"
GRINNING = b"\xf0\x9f\x98\x80"  # U+1F600, a surrogate pair in UTF-16
ACCEPTED = ("decode", "must", "accepted ill-formed input")
INCREMENTAL_ACCEPTED = ("incremental", "must", "decoded ill-formed bytes as characters")


def cpython_refuses(data: bytes) -> bool:
    """Return whether CPython's UTF-8 decoder refuses the bytes: the independent evidence."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


@pytest.fixture(scope="module")
def program() -> Iterator[Started]:
    yield from started()


def test_every_program_offers_the_capabilities_of_its_api(program: Started) -> None:
    offered = {
        "cxx-wstring-convert": ({"decode", "encode"}, "code points"),
        "cxx-codecvt-utf8-utf16": ({"decode", "encode"}, "utf-16"),
        "cxx-mbrtoc32": ({"decode", "encode", "incremental"}, "code points"),
        "erlang-unicode": ({"decode", "validate", "encode", "incremental"}, "code points"),
        "erlang-bitsyntax": ({"decode", "encode"}, "code points"),
    }
    assert [entry.name for entry in MORE_LANGUAGES] == list(offered)
    for name, (capabilities, strings) in offered.items():
        assert PROGRAMS[name] in MORE_LANGUAGES
        assert PROGRAMS[name].strings == strings, name
        # The description names the slot each capability fills.
        assert all(slot in PROGRAMS[name].description for slot in capabilities), name
        if PROGRAMS[name].unavailable() is None:
            assert program(name).capabilities == capabilities, name
            assert PROGRAMS[name].version() != "unknown", name


@pytest.mark.parametrize(("runtime", "package"), [(CXX, "g++"), (ERLANG, "erlang-nox")])
def test_a_missing_runtime_names_its_debian_package(runtime: Installable, package: str) -> None:
    missing = replace(runtime, tools=("utf8cert-no-such-tool",))
    assert missing.unavailable() == (
        f"utf8cert-no-such-tool not found on PATH (apt-get install {package})"
    )


# --- C++ ---------------------------------------------------------------------------------------


def test_wstring_convert_takes_surrogates_and_drops_a_truncated_end(program: Started) -> None:
    codec = program("cxx-wstring-convert")
    assert cpython_refuses(SURROGATE) and cpython_refuses(b"A" + TRUNCATED)
    assert codec.decode(b"A" + SURROGATE) == Returned("A\ud800")
    assert check(codec, "decode", SURROGATE) == {ACCEPTED}
    # `partial` at the end is no error to from_bytes: the text before it comes back.
    assert codec.decode(b"A" + TRUNCATED) == Returned("A")
    assert check(codec, "decode", TRUNCATED) == {ACCEPTED}
    refused = codec.decode(b"AB" + OVERLONG_SLASH)  # an `error` throws, converted() says where
    assert isinstance(refused, Refused) and refused.offset == 3
    assert "range_error" in refused.message
    assert check(codec, "decode", BEYOND) == set()  # above its Maxcode, 0x10FFFF
    assert codec.encode([0xD800]) == Returned(SURROGATE)
    assert check_encode(codec, 0xD800) == {("encode", "must", "encoded a surrogate")}
    assert check_encode(codec, 0x110000) == set()
    assert check_encode(codec, 0x41, 0x20AC, 0x1F600) == set()


def test_codecvt_utf8_utf16_decodes_into_pairs_and_drops_a_final_lone_surrogate(
    program: Started,
) -> None:
    codec = program("cxx-codecvt-utf8-utf16")
    assert codec.decode(b"A" + GRINNING) == Returned("A\U0001f600")
    assert check(codec, "decode", SURROGATE) == {ACCEPTED}
    assert check(codec, "decode", TRUNCATED) == {ACCEPTED}
    assert codec.encode([0x41, 0xD800]) == Returned(b"A")  # to_bytes: `partial`, no exception
    assert check_encode(codec, 0xD800) == {("encode", "must", "dropped an unencodable value")}
    refused = codec.encode([0xD800, 0x41])  # not at the end: an `error`, which throws
    assert isinstance(refused, Refused) and refused.offset == 0
    assert check_encode(codec, 0x41, 0x20AC, 0x1F600) == set()


def test_mbrtoc32_takes_rfc_2279_forms_but_refuses_surrogates(program: Started) -> None:
    codec = program("cxx-mbrtoc32")
    assert cpython_refuses(BEYOND)
    assert codec.decode(b"A" + BEYOND) == Returned((0x41, 0x110000))  # no str holds it
    assert codec.decode(b"\xfd\xbf\xbf\xbf\xbf\xbf") == Returned((0x7FFFFFFF,))  # six bytes
    assert check(codec, "decode", BEYOND) == {ACCEPTED}
    assert check(codec, "incremental", BEYOND) == {INCREMENTAL_ACCEPTED}
    refused = codec.decode(b"A" + SURROGATE)
    assert isinstance(refused, Refused) and refused.offset == 1 and "EILSEQ" in refused.message
    assert check(codec, "decode", SURROGATE + OVERLONG_SLASH) == set()
    assert codec.decode_chunks([b"A\xe2", b"\x82", b"\xac"], False) == Returned("A\u20ac")
    assert check(codec, "incremental", b"A" + TRUNCATED) == set()
    assert codec.encode([0x110000]) == Returned(BEYOND)
    assert check_encode(codec, 0x110000) == {("encode", "must", "encoded a value above U+10FFFF")}
    assert check_encode(codec, 0xD800) == set()


# --- Erlang ------------------------------------------------------------------------------------


def test_erlang_unicode_refuses_where_its_rest_begins(program: Started) -> None:
    codec = program("erlang-unicode")
    for data in (SURROGATE, BEYOND, OVERLONG_SLASH, TRUNCATED):
        assert cpython_refuses(data)
        assert check(codec, "decode", b"A" + data) == set(), data
        assert codec.validate(data) == Returned(False)
    refused = codec.decode(b"AB" + TRUNCATED)
    assert isinstance(refused, Refused) and refused.offset == 2 and "incomplete" in refused.message
    assert codec.decode_chunks([b"A\xe2", b"\x82", b"\xac"], False) == Returned("A\u20ac")
    assert check(codec, "incremental", GRINNING + SURROGATE) == set()
    refused = codec.encode([0x41, 0xDFFF])  # characters_to_binary: {error, <<"A">>, [16#DFFF]}
    assert isinstance(refused, Refused) and refused.offset == 1
    assert check_encode(codec, 0x110000) == set()
    assert check_encode(codec, 0x41, 0x20AC, 0x1F600) == set()


def test_erlang_bit_syntax_takes_only_scalar_values(program: Started) -> None:
    codec = program("erlang-bitsyntax")
    assert codec.decode(b"A" + GRINNING) == Returned("A\U0001f600")
    refused = codec.decode(b"A" + SURROGATE)
    assert isinstance(refused, Refused) and refused.offset == 1
    assert check(codec, "decode", BEYOND + OVERLONG_SLASH) == set()
    refused = codec.encode([0x41, 0xD800])
    assert isinstance(refused, Refused) and refused.offset == 1 and "badarg" in refused.message
    assert check_encode(codec, 0x110000) == set()
