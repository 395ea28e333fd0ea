"""The configurations issue 43 added to the world, each against its real library: one cheap
check per configuration of what the library's documentation or source says it does (or, for a
defect, what its direct reproducer in bench/reproduce_world.py shows), seen through the adapter.
A library missing here is skipped with the reason (`Started` and `available` ask the entry's
`unavailable()`, which only looks). The whole matrix of each is the slow tier's
(tests/reports/test_matrix.py); every must difference of it is re-run by bench/reproduce_world.py.

The evidence, library by library: RFC 3629 §3 and §4 (what is ill-formed); jansson's manual
("invalid UTF-8 ... is an error"); json-c's json_tokener.h (JSON_TOKENER_VALIDATE_UTF8 opt-in)
and json_tokener_validate_utf8, which checks only the lead and continuation bits; yajl_lex.c's
yajl_lex_utf8_char, likewise; cJSON's parse_string, which copies bytes unchecked; FriBidi's
fribidi-char-sets-utf8.c (each lead taken for its length, no check of what follows); HarfBuzz's
hb_buffer_add_utf8 (invalid input becomes the replacement code point, U+FFFD by default);
cmark.h (CMARK_OPT_VALIDATE_UTF8 replaces "illegal sequences" with U+FFFD, else none is
checked) and utf8proc_valid in utf8.c (a lead announcing more bytes than the line has eats the
rest of it); libbson's bson_utf8_validate (C0 80 allowed with allow_null, as its source says:
"Two-byte representation for NULL"); the msgpack, BSON and protobuf specifications (strings are
UTF-8); jsoup's CharacterReader (EOF is (char) -1, U+FFFF); Go's encoding/xml and unicode/utf8
documentation; Rust's Utf8Chunk and io::Read::read_to_string documentation.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.started_programs import SURROGATE, Started, check, check_encode, refused_at, started

from utf8cert.harness import Refused, load_codec
from utf8cert.harness.codec.interface import Codec, Failed, Returned
from utf8cert.harness.world.catalog import PYTHON_ADAPTERS, registry
from utf8cert.harness.world.programs.libraries import npm_prefix

OVERLONG_SLASH = b"\xc0\xaf"  # RFC 3629 §10: "/" in two bytes
ACCEPTED = ("decode", "must", "accepted ill-formed input")


@pytest.fixture(scope="module")
def program() -> Iterator[Started]:
    yield from started()


def available(name: str) -> Codec:
    reason = PYTHON_ADAPTERS[name].unavailable()
    if reason is not None:
        pytest.skip(f"adapter:{name} is unavailable here: {reason}")
    return load_codec(f"adapter:{name}")


def wrote_ill_formed(outcome: object) -> bool:
    """Return whether the library gave back the ill-formed bytes it was given."""
    return isinstance(outcome, Failed) and outcome.kind == "wrong-type"


# --- PyPI --------------------------------------------------------------------------------------


def test_protobuf_refuses_a_proto3_string_that_is_not_utf8() -> None:
    codec = available("protobuf")
    message = pytest.importorskip("google.protobuf.message")
    struct_pb2 = pytest.importorskip("google.protobuf.struct_pb2")
    with pytest.raises(message.DecodeError):
        struct_pb2.Value.FromString(b"\x1a\x02" + OVERLONG_SLASH)
    assert isinstance(codec.decode(OVERLONG_SLASH), Refused)
    assert codec.decode("a\u20ac".encode()) == Returned("a\u20ac")
    assert check(codec, "decode", b"a" + SURROGATE) == set()


def test_pydantic_core_refuses_ill_formed_json_strings() -> None:
    codec = available("pydantic-core-json")
    pydantic_core = pytest.importorskip("pydantic_core")
    with pytest.raises(ValueError, match="invalid unicode code point"):
        pydantic_core.from_json(b'"' + SURROGATE + b'"')
    assert isinstance(codec.decode(SURROGATE), Refused)
    assert check(codec, "decode", b"a\xf4\x90\x80\x80") == set()


def test_ormsgpack_refuses_ill_formed_str_and_a_lone_surrogate() -> None:
    codec = available("ormsgpack")
    ormsgpack = pytest.importorskip("ormsgpack")
    with pytest.raises(ormsgpack.MsgpackDecodeError):
        ormsgpack.unpackb(b"\xa2" + OVERLONG_SLASH)
    assert isinstance(codec.decode(OVERLONG_SLASH), Refused)
    assert isinstance(codec.encode([0xD800]), Refused)
    assert check_encode(codec, 0x1F600) == set()


def test_duckdb_decode_refuses_a_blob_that_is_not_utf8() -> None:
    codec = available("duckdb-decode")
    duckdb = pytest.importorskip("duckdb")
    with pytest.raises(duckdb.ConversionException):
        duckdb.connect(":memory:").execute("SELECT decode(?::BLOB)", [SURROGATE]).fetchone()
    assert isinstance(codec.decode(SURROGATE), Refused)
    assert codec.decode(b"a\xe2\x82\xac") == Returned("a\u20ac")


def test_selectolax_replaces_by_maximal_subparts() -> None:
    codec = available("selectolax-lexbor")
    lexbor = pytest.importorskip("selectolax.lexbor")
    document = b'<meta charset="utf-8"><p>x\xe2\x82y</p>'
    paragraph = lexbor.LexborHTMLParser(document).css_first("p")
    assert paragraph is not None and paragraph.text() == "x\ufffdy"
    assert codec.decode_replace(b"x\xe2\x82y") == Returned("x\ufffdy")
    assert check(codec, "replace", b"a\xf4\x90\x80\x80") == set()


# --- C libraries (Debian) ----------------------------------------------------------------------


def test_jansson_refuses_ill_formed_utf8(program: Started) -> None:
    codec = program("jansson")
    assert isinstance(codec.decode(b"a" + OVERLONG_SLASH), Refused)
    assert check(codec, "decode", b"a" + SURROGATE) == set()


def test_json_c_checks_nothing_by_default_and_only_the_bit_layout_when_asked(
    program: Started,
) -> None:
    assert wrote_ill_formed(program("json-c").decode(OVERLONG_SLASH))
    validating = program("json-c-validate-utf8")
    assert isinstance(validating.decode(b"a\xff"), Refused)  # no lead byte at all
    assert validating.decode(SURROGATE) == Returned("\ud800")  # the bits fit: let through
    assert ACCEPTED in check(validating, "decode", SURROGATE)


def test_yajl_checks_only_the_bit_layout(program: Started) -> None:
    codec = program("yajl")
    assert isinstance(codec.decode(b"a\xff"), Refused)
    assert ACCEPTED in check(codec, "decode", b"\xf4\x90\x80\x80")


def test_cjson_copies_ill_formed_bytes(program: Started) -> None:
    assert wrote_ill_formed(program("cjson").decode(b"a\xff"))


def test_fribidi_takes_each_lead_for_its_length(program: Started) -> None:
    decoder = program("fribidi-charset-to-unicode")
    # E0 then "AB": one value of the three bytes' low bits, (0 << 12) + (1 << 6) + 2 = U+0042;
    # the A is lost and a B appears that is no B of the input's.
    assert decoder.decode_replace(b"\xe0AB") == Returned("B")
    assert ("replace", "must", "lost well-formed characters") in check(
        decoder, "replace", b"\xe0AB"
    )
    encoder = program("fribidi-unicode-to-charset")
    assert encoder.encode([0x41, 0xD800]) == Returned(b"A" + SURROGATE)


def test_harfbuzz_replaces_with_u_fffd(program: Started) -> None:
    codec = program("harfbuzz-buffer-add-utf8")
    assert codec.decode_replace(b"a" + OVERLONG_SLASH + b"b") == Returned("a\ufffd\ufffdb")
    assert check(codec, "replace", b"a\xf4\x90\x80\x80b") <= {
        ("replace", "should", "wrong U+FFFD count")
    }


@pytest.mark.parametrize("library", ["cmark", "cmark-gfm"])
def test_cmark_passes_bytes_through_unless_told_to_validate(program: Started, library: str) -> None:
    assert wrote_ill_formed(program(library).decode_replace(OVERLONG_SLASH))
    validating = program(f"{library}-validate-utf8")
    assert validating.decode_replace(b"a" + OVERLONG_SLASH) == Returned("a\ufffd")
    # A lead announcing more bytes than the line has left eats the rest of the line.
    assert validating.decode_replace(b"\xe0 ") == Returned("\ufffd")
    assert ("replace", "must", "lost well-formed characters") in check(
        validating, "replace", b"\xe0 "
    )


def test_libbson_allows_c0_80_and_its_escaper_lets_an_overlong_form_through(
    program: Started,
) -> None:
    validator = program("bson-utf8-validate")
    assert validator.validate(b"\xc0\x80") == Returned(True)  # its NUL, allow_null
    assert validator.validate(SURROGATE) == Returned(False)
    assert program("bson-utf8-escape-for-json").decode(OVERLONG_SLASH) == Returned("/")


def test_libcbor_refuses_a_text_string_that_is_not_utf8(program: Started) -> None:
    codec = program("libcbor")
    assert isinstance(codec.decode(b"a" + SURROGATE), Refused)
    assert check(codec, "decode", b"a" + OVERLONG_SLASH) == set()


# --- npm ---------------------------------------------------------------------------------------


def test_msgpackr_and_notepack_write_what_no_utf8_encoder_may(program: Started) -> None:
    assert program("npm-msgpackr").encode([0xD800]) == Returned(SURROGATE)
    # notepack.io joins a lone high surrogate with whatever follows it: U+6C00 is lost.
    assert program("npm-notepack").encode([0xD800, 0x6C00]) == Returned(b"\xf0\x90\x80\x80")


def test_bson_ws_and_utf8_validate_refuse_ill_formed_input(program: Started) -> None:
    assert isinstance(program("npm-bson").decode(SURROGATE), Refused)
    for name in ("npm-ws", "npm-utf-8-validate"):
        assert program(name).validate(b"\xc0\x80") == Returned(False), name
        assert program(name).validate("a\u20ac".encode()) == Returned(True), name


# --- JVM (Debian's jars) -----------------------------------------------------------------------


def test_jackson_reads_an_overlong_slash_as_a_slash(program: Started) -> None:
    codec = program("jvm-jackson-core")
    assert codec.decode(OVERLONG_SLASH) == Returned("/")
    assert isinstance(codec.decode(b"a\xff"), Refused)


def test_jsoup_reads_a_u_ffff_that_starts_a_text_as_the_end_of_its_input(
    program: Started,
) -> None:
    codec = program("jvm-jsoup")
    # Its tokeniser's EOF is (char) -1: met where a text begins, it ends the text, and the
    # paragraph's characters after it are lost; after a first character it is kept.
    assert codec.decode_replace("\uffffb".encode()) == Returned("")
    assert codec.decode_replace("a\uffffb".encode()) == Returned("a\uffffb")
    assert codec.decode_replace(b"x\xe2\x82y") == Returned("x\ufffdy")


def test_msgpack_java_replaces_and_guava_validates(program: Started) -> None:
    assert program("jvm-msgpack-java").decode_replace(b"x" + SURROGATE) != Returned("x\ud800")
    assert program("jvm-guava-utf8").validate(SURROGATE) == Returned(False)
    assert program("jvm-guava-utf8").validate("\U0001f600".encode()) == Returned(True)


# --- Go's and Rust's standard libraries --------------------------------------------------------


def test_go_decode_last_rune_and_encoding_xml(program: Started) -> None:
    backwards = program("go-decode-last-rune")
    assert refused_at(backwards.decode(b"ab" + OVERLONG_SLASH + b"c"), 2)
    assert backwards.decode_replace(b"a\xe2\x82") == Returned("a\ufffd\ufffd")
    assert isinstance(program("go-xml-unmarshal").decode(b"a" + SURROGATE), Refused)
    assert program("go-xml-escape-text").decode_replace(b"a\xff") == Returned("a\ufffd")


@pytest.mark.slow
def test_rust_utf8_chunks_and_read_to_string(program: Started) -> None:
    chunks = program("rust-utf8-chunks")
    assert chunks.decode_replace(b"x\xe2\x82y") == Returned("x\ufffdy")
    assert chunks.validate(SURROGATE) == Returned(False)
    reader = program("rust-read-to-string")
    assert reader.decode_chunks([b"a\xe2", b"\x82\xac"], False) == Returned("a\u20ac")
    assert isinstance(reader.decode_chunks([b"a\xe2", b"\x82"], False), Refused)


@pytest.mark.slow  # a configuration's whole check, then each must difference re-run
def test_each_must_difference_is_shown_by_the_library_called_directly() -> None:
    # One configuration of each kind of direct reproducer (C, npm, JVM), each a few seconds;
    # `python bench/reproduce_world.py` runs them all (a quarter of an hour).
    script = Path(__file__).resolve().parents[2] / "bench" / "reproduce_world.py"
    names = ["cmark-validate-utf8", "npm-notepack", "jvm-jsoup"]
    done = subprocess.run(
        [sys.executable, str(script), *names],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


def test_the_npm_reproducer_tells_an_answer_made_of_memory_never_written() -> None:
    # Finding 44: notepack.io announces 37 bytes for this string and writes 36, so the last is
    # whatever Buffer.allocUnsafe's memory held; a well-formed string's answer holds none. The
    # direct reproducer fills new buffers with 00, then ff: only the first answer changes.
    if (why := registry()["npm-notepack"].unavailable()) is not None:
        pytest.skip(f"npm-notepack is unavailable here: {why}")
    script = Path(__file__).resolve().parents[2] / "bench" / "reproduce_world.js"
    lone = "".join(f"{p:08x}" for p in [0x78] * 29 + [0xD800, 0x1F600])
    paired = "".join(f"{p:08x}" for p in [0x78] * 29 + [0x1F600, 0x1F600])
    answers = {
        fill: subprocess.run(
            ["node", str(script), "notepack-encode", str(npm_prefix())],
            input=f"{lone}\n{paired}\n",
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "REPRO_FILL": fill},
            check=True,
        ).stdout.splitlines()
        for fill in ("00", "ff")
    }
    assert answers["00"][0] == "ok " + "78" * 29 + "efbfbd" + "f09f9880" + "00"
    assert answers["ff"][0] == "ok " + "78" * 29 + "efbfbd" + "f09f9880" + "ff"
    assert answers["00"][1] == answers["ff"][1] == "ok " + ("78" * 29 + "f09f9880" * 2)


@pytest.mark.slow  # a configuration's whole check, then each should difference re-run
def test_each_should_difference_is_shown_by_the_library_called_directly() -> None:
    # The U+FFFD counts and substitutions: one configuration of each direct reproducer made for
    # them (C, Go, JVM); `python bench/reproduce_world.py --should` runs them all.
    script = Path(__file__).resolve().parents[2] / "bench" / "reproduce_world.py"
    names = ["harfbuzz-buffer-add-utf8", "go-xml-escape-text", "jvm-msgpack-java"]
    missing = {n: why for n in names if (why := registry()[n].unavailable()) is not None}
    if missing:
        pytest.skip(f"unavailable here: {missing}")
    done = subprocess.run(
        [sys.executable, str(script), "--should", *names],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert done.stdout.count(" should differences shown directly") == len(names), done.stdout
