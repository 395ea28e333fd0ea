"""The shipped programs (harness/world/programs/) against the real runtimes: for each, one
behaviour its runtime is known for is found by utf8cert, and one conformant behaviour passes.

What each runtime is known for comes from its own documentation: the WHATWG Encoding Standard
(TextDecoder drops a leading BOM unless ignoreBOM; TextEncoder and Buffer write U+FFFD for a lone
surrogate, since a USVString cannot hold one), Java's DataInput ("modified UTF-8": NUL as C0 80,
no four-byte forms), String.getBytes (a lone surrogate becomes the replacement byte '?') and
CoderResult.length (the malformed input's length), Rust's Utf8Error::valid_up_to and error_len
(the maximal subpart's length, None for an input that ends inside a sequence). A program whose
runtime is missing is skipped with the reason.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.started_programs import Started, check, check_encode, started

from utf8cert.harness.codec.cache import cache_root
from utf8cert.harness.codec.interface import Refused, Returned
from utf8cert.harness.world.programs import PROGRAMS, Program, ProgramError
from utf8cert.harness.world.programs.c_libraries import C_PROGRAMS
from utf8cert.harness.world.programs.libraries import MORE
from utf8cert.harness.world.programs.more_languages import MORE_LANGUAGES  # C++, Erlang
from utf8cert.harness.world.programs.runtimes import NODE, Runtime
from utf8cert.harness.world.programs.scripting import SCRIPTED

OVERLONG_SLASH = b"\x2f\xc0\xaf"  # RFC 3629 §10: "/" then an overlong "/"
BEYOND = b"\xf4\x90\x80\x80"  # RFC 3629 §4: after F4 only 80..8F; four maximal subparts
SUBSTITUTED = ("encode", "should", "substituted a character for an unencodable value")


@pytest.fixture(scope="module")
def program() -> Iterator[Started]:
    yield from started()


@pytest.mark.slow
def test_every_program_offers_the_capabilities_of_its_codec(program: Started) -> None:
    offered = {
        "node-textdecoder": {"replace"},
        "node-textdecoder-fatal": {"decode", "incremental"},
        "node-textdecoder-ignorebom": {"decode", "replace"},
        "node-textdecoder-stream": {"incremental"},
        "node-buffer": {"replace", "validate", "encode"},
        "node-string-decoder": {"incremental"},
        "node-textencoder": {"encode"},
        "java-new-string": {"replace"},
        "java-charsetdecoder-report": {"decode", "incremental"},
        "java-charsetdecoder-replace": {"replace", "incremental"},
        "java-readutf": {"decode"},
        "java-getbytes": {"encode"},
        "rust-from-utf8": {"decode", "validate"},
        "rust-from-utf8-lossy": {"replace"},
        "rust-utf8-chunks": {"replace", "validate"},
        "rust-read-to-string": {"incremental"},
        "jvm-jackson-core": {"decode"},
        "jvm-jsoup": {"replace"},
        "jvm-msgpack-java": {"replace", "encode"},
        "jvm-guava-utf8": {"validate"},
    }
    scripted = {entry[0] for entry in SCRIPTED}  # test_programs_scripting.py has those
    more = {entry.name for entry in MORE}  # test_more_programs.py has those
    c_libraries = {name for _, name, _ in C_PROGRAMS}  # tests/codec/test_c_libraries.py
    languages = {program.name for program in MORE_LANGUAGES}  # test_programs_cxx_erlang.py
    assert set(PROGRAMS) - scripted - more - c_libraries - languages == set(offered)
    for name, capabilities in offered.items():
        assert PROGRAMS[name].name == name and PROGRAMS[name].description
        if PROGRAMS[name].unavailable() is None:
            assert program(name).capabilities == capabilities, name
            assert PROGRAMS[name].version() != "unknown", name


# --- Node.js -----------------------------------------------------------------------------------


def test_node_textdecoder_drops_a_leading_bom_and_replaces_by_maximal_subparts(
    program: Started,
) -> None:
    codec = program("node-textdecoder")
    assert check(codec, "replace", b"\xef\xbb\xbfA") == {("replace", "may", "signature stripped")}
    assert check(codec, "replace", BEYOND + b"A") == set()


def test_node_textdecoder_fatal_drops_the_bom_and_refuses_an_overlong_in_any_chunking(
    program: Started,
) -> None:
    codec = program("node-textdecoder-fatal")
    assert check(codec, "decode", b"\xef\xbb\xbfA") == {("decode", "may", "signature stripped")}
    assert check(codec, "decode", OVERLONG_SLASH) == set()
    assert isinstance(codec.decode(OVERLONG_SLASH), Refused)
    assert check(codec, "incremental", b"\xe2\x82\xac" + OVERLONG_SLASH) == set()


def test_node_textdecoder_ignorebom_keeps_the_bom_as_u_feff(program: Started) -> None:
    codec = program("node-textdecoder-ignorebom")
    assert codec.decode(b"\xef\xbb\xbfA") == Returned("\ufeffA")
    assert check(codec, "decode", b"\xef\xbb\xbfA") == set()
    assert check(codec, "replace", b"\xe0\x80\xaf") == set()  # three U+FFFD


def test_node_textdecoder_stream_drops_the_bom_and_finishes_a_split_character(
    program: Started,
) -> None:
    codec = program("node-textdecoder-stream")
    stripped = check(codec, "incremental", b"\xef\xbb\xbfA")
    assert stripped == {("incremental", "may", "signature stripped")}
    # Every cut of a four-byte character, then a truncated one at the end (one U+FFFD).
    assert check(codec, "incremental", b"\xf0\x9f\x98\x80\xf0\x9f\x98") == set()


def test_node_buffer_writes_u_fffd_for_a_lone_surrogate_but_keeps_the_bom(
    program: Started,
) -> None:
    codec = program("node-buffer")
    assert check_encode(codec, 0x41, 0xD800) == {SUBSTITUTED}
    assert codec.encode([0xD800]) == Returned(b"\xef\xbf\xbd")
    assert check(codec, "replace", b"\xef\xbb\xbfA") == set()
    assert check(codec, "validate", OVERLONG_SLASH) == set()


def test_node_string_decoder_holds_a_split_character_and_replaces_an_unfinished_one(
    program: Started,
) -> None:
    codec = program("node-string-decoder")
    assert codec.decode_chunks([b"\xe2\x82", b"\xac"], False) == Returned("\u20ac")
    assert codec.decode_chunks([b"A\xe2\x82"], True) == Returned("A\ufffd")
    assert check(codec, "incremental", b"A\xe2\x82") == set()


def test_node_textencoder_writes_u_fffd_for_a_lone_surrogate(program: Started) -> None:
    codec = program("node-textencoder")
    assert check_encode(codec, 0xDFFF) == {SUBSTITUTED}
    assert check_encode(codec, 0x41, 0x20AC, 0x1F600) == set()


# --- Java --------------------------------------------------------------------------------------


def test_java_new_string_is_a_replacing_decoder_judged_as_replace(program: Started) -> None:
    codec = program("java-new-string")
    assert codec.decode_replace(OVERLONG_SLASH) == Returned("/\ufffd\ufffd")
    assert check(codec, "replace", OVERLONG_SLASH) == set()


def test_java_charsetdecoder_report_refuses_at_the_first_error_across_chunks(
    program: Started,
) -> None:
    codec = program("java-charsetdecoder-report")
    assert codec.decode(b"A\xe2\x82(") == Refused("MALFORMED[2]", 1)
    refused = codec.decode_chunks([b"AB\xe2", b"\x82", b"(", b"C"], False)
    assert isinstance(refused, Refused) and refused.offset == 2
    assert check(codec, "incremental", b"\xe2\x82\xac" + OVERLONG_SLASH) == set()


def test_java_charsetdecoder_says_where_each_error_ends_and_what_each_call_returned(
    program: Started,
) -> None:
    codec = program("java-charsetdecoder-report")
    # CoderResult.length(): the malformed input's length, sent as the error's end (`end=`).
    refused = codec.decode(b"A\xe2\x82(")
    assert isinstance(refused, Refused) and (refused.offset, refused.end) == (1, 3)
    # Java takes a surrogate's three bytes as one malformed input (one U+FFFD in replace mode);
    # an end within the run of ill-formed bytes is not judged, the U+FFFD count is.
    surrogate = codec.decode(b"\xed\xa0\x80")
    assert isinstance(surrogate, Refused) and (surrogate.offset, surrogate.end) == (0, 3)
    assert check(codec, "decode", b"\xed\xa0\x80") == set()
    # Each call returns what its bytes complete (`returned=`): A, then the euro sign, then B.
    streamed = codec.decode_chunks([b"A\xe2", b"\x82\xac", b"B"], True)
    assert streamed == Returned("A\u20acB")
    assert streamed.stream is not None and streamed.stream.returned == (1, 2, 3, 3)
    assert check(codec, "incremental", b"A\xe2\x82\xac" + OVERLONG_SLASH) == set()


def test_java_charsetdecoder_replace_writes_one_u_fffd_for_a_whole_surrogate(
    program: Started,
) -> None:
    codec = program("java-charsetdecoder-replace")
    # Unicode §3.9 (Table 3-8): ED A0 80 is three maximal subparts; Java replaces it as one.
    assert check(codec, "replace", b"\xed\xa0\x80") == {("replace", "should", "wrong U+FFFD count")}
    assert check(codec, "incremental", BEYOND + b"A") == set()


def test_java_readutf_reads_modified_utf8(program: Started) -> None:
    codec = program("java-readutf")
    assert codec.decode(b"\xc0\x80") == Returned("\x00")  # NUL as C0 80
    assert check(codec, "decode", b"\xc0\x80") == {("decode", "must", "accepted ill-formed input")}
    emoji = check(codec, "decode", b"\xf0\x9f\x98\x80")  # no four-byte forms
    assert emoji == {("decode", "must", "rejected well-formed input")}
    assert check(codec, "decode", b"A\xe2\x82\xac") == set()


def test_java_getbytes_writes_a_question_mark_for_a_lone_surrogate(program: Started) -> None:
    codec = program("java-getbytes")
    assert codec.encode([0x41, 0xD800]) == Returned(b"A?")
    assert check_encode(codec, 0xD800) == {SUBSTITUTED}
    assert check_encode(codec, 0x41, 0x20AC, 0x1F600) == set()


# --- Rust --------------------------------------------------------------------------------------


def test_rust_from_utf8_refuses_at_valid_up_to_and_validates(program: Started) -> None:
    codec = program("rust-from-utf8")
    refused = codec.decode(b"ab\xe2\x82(")
    assert isinstance(refused, Refused) and refused.offset == 2  # Utf8Error::valid_up_to
    # Utf8Error::error_len: the maximal subpart's length (Unicode Table 3-8: E2 82 is one),
    # None where the input ends inside a sequence: the end of the input.
    assert refused.end == 4
    for data, end in ((b"\xed\xa0\x80", 1), (b"\xf0\x9f\x98", 3), (b"a\xf4\x90", 2)):
        answer = codec.decode(data)
        assert isinstance(answer, Refused) and answer.end == end, data
    assert check(codec, "decode", b"ab\xe2\x82(") == set()
    assert check(codec, "validate", b"\xed\xa0\x80") == set()  # a surrogate: not valid


def test_rust_from_utf8_lossy_replaces_each_maximal_subpart(program: Started) -> None:
    codec = program("rust-from-utf8-lossy")
    assert codec.decode_replace(BEYOND) == Returned("\ufffd" * 4)
    assert check(codec, "replace", b"\xed\xa0\x80" + OVERLONG_SLASH) == set()


# --- building and availability -----------------------------------------------------------------


def test_a_missing_runtime_is_a_reason_not_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    assert PROGRAMS["node-buffer"].unavailable() == "node not found on PATH"
    assert PROGRAMS["java-readutf"].unavailable() == "java not found on PATH"
    assert PROGRAMS["rust-from-utf8"].unavailable() == "rustc not found on PATH"
    with pytest.raises(ProgramError, match=r"^Rust: rustc not found on PATH$"):
        PROGRAMS["rust-from-utf8"].spec()


@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc not found on PATH")
def test_a_build_is_cached_by_source_hash_and_a_bad_source_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UTF8CERT_CACHE", str(tmp_path / "cache"))
    spec = PROGRAMS["rust-from-utf8"].spec()
    [built] = (tmp_path / "cache").iterdir()
    assert built.name.startswith("rust_codecs-") and str(built) in spec
    assert PROGRAMS["rust-from-utf8-lossy"].spec().split()[0] == spec.split()[0]  # not rebuilt
    assert cache_root() == tmp_path / "cache"

    broken = tmp_path / "broken.rs"
    broken.write_text("fn main() { let x: u8 = ; }\n")
    program = PROGRAMS["rust-from-utf8"]
    assert isinstance(program, Program)
    rust = program.runtime
    with pytest.raises(ProgramError, match=r"^Rust: building broken\.rs failed: .+") as error:
        rust.built(broken, rust.build)  # type: ignore[arg-type]
    assert "\n" not in str(error.value)
    assert [path.name for path in (tmp_path / "cache").iterdir()] == [built.name]


@pytest.mark.slow
def test_node_runs_its_source_as_it_is() -> None:
    runtime: Runtime = NODE
    if runtime.unavailable() is not None:
        pytest.skip(runtime.unavailable() or "")
    spec = PROGRAMS["node-textencoder"].spec()
    assert spec.endswith("node_codecs.js textencoder") and spec.startswith("cmd:node ")
