"""The programs of programs/libraries.py against the real packages and runtimes: the library
called directly (a Node.js one-liner, or what its documentation says) and the program's answer
agree, and utf8cert finds each known defect at its level, or passes what the library does
right. A program whose runtime or package is missing is skipped with the reason."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator

import pytest
from support.started_programs import Started, check, check_encode, started

from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.codec.interface import Refused, Returned
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.world.programs import PROGRAMS
from utf8cert.harness.world.programs.libraries import MORE, NPM, npm_prefix

SURROGATE = ("encode", "must", "encoded a surrogate")
SUBSTITUTED = ("encode", "should", "substituted a character for an unencodable value")


@pytest.fixture(scope="module")
def program() -> Iterator[Started]:
    yield from started()


def node(script: str) -> object:
    """Return what a Node.js script prints (JSON), the npm prefix's packages in reach: the
    package called directly, without the program."""
    code = f"const r = require('node:module').createRequire({str(npm_prefix())!r} + '/x.js');\n"
    done = subprocess.run(
        ["node", "-e", code + script], capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(done.stdout)


def test_every_program_is_in_programs_with_its_capabilities(program: Started) -> None:
    offered = {
        "npm-utf8": {"decode", "encode"},
        "npm-protobufjs-utf8": {"replace", "encode"},
        "npm-iconv-lite": {"replace", "encode", "incremental"},
        "npm-msgpack": {"replace", "encode"},
        "npm-cbor-x": {"replace", "encode"},
        "npm-text-encoding-utf-8": {"decode", "replace", "encode", "incremental"},
        "npm-text-encoding": {"decode", "replace", "encode", "incremental"},
        "npm-fast-text-encoding": {"replace", "encode"},
        "npm-buffer": {"replace", "encode"},
        "npm-stablelib-utf8": {"decode", "encode"},
        "npm-utf8-encoding": {"decode", "replace", "encode", "incremental"},
        "npm-is-utf8": {"validate"},
        "npm-string-decoder": {"replace", "incremental"},
        "npm-msgpackr": {"replace", "encode"},
        "npm-notepack": {"replace", "encode"},
        "npm-bson": {"decode"},
        "npm-ws": {"validate"},
        "npm-utf-8-validate": {"validate"},
        "java-writeutf": {"encode"},
        "java-charsetencoder-report": {"encode"},
        "java-charsetencoder-replace": {"encode"},
        "rust-into-bytes": {"encode"},
    }
    assert {entry.name for entry in MORE} == set(offered)
    for name, capabilities in offered.items():
        assert PROGRAMS[name] in MORE
        if PROGRAMS[name].unavailable() is None:
            assert program(name).capabilities == capabilities, name
            assert PROGRAMS[name].version() != "unknown", name


def test_a_missing_npm_package_names_the_command_that_installs_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("UTF8CERT_CACHE", str(tmp_path))
    reason = NPM[0].unavailable()
    if reason is not None and "node" in reason and "npm package" not in reason:
        pytest.skip(reason)
    assert reason == (
        f"npm package utf8 is not installed in {tmp_path}/npm (scripts/install-runtimes, or: "
        f"npm install --prefix {tmp_path}/npm --omit=optional utf8@3.0.0)"
    )


# --- npm ---------------------------------------------------------------------------------------


def test_msgpack_reads_short_strings_without_validating_them(program: Started) -> None:
    codec = program("npm-msgpack")
    direct = node(
        "const m = r('@msgpack/msgpack');"
        "console.log(JSON.stringify(['a2c0af', 'a2c080', 'a3eda080']"
        ".map((h) => m.decode(Buffer.from(h, 'hex')))))"
    )
    assert direct == ["/", "\x00", "\ud800"]
    assert codec.decode_replace(b"\xc0\xaf") == Returned("/")
    assert codec.decode_replace(b"\xc0\x80") == Returned("\x00")
    assert codec.decode_replace(b"\xed\xa0\x80") == Returned("\ud800")
    assert check(codec, "replace", b"\xc0\xaf") == {
        ("replace", "must", "decoded ill-formed bytes as characters")
    }


def test_msgpack_and_cbor_x_encode_a_lone_surrogate(program: Started) -> None:
    codecs = {name: program(name) for name in ("npm-msgpack", "npm-cbor-x")}  # or skip: first
    direct = node(
        "console.log(JSON.stringify(["
        "Buffer.from(r('@msgpack/msgpack').encode('\\ud800')).toString('hex'),"
        "Buffer.from(r('cbor-x').encode('\\ud800')).toString('hex')]))"
    )
    assert direct == ["a3eda080", "63eda080"]
    for name, codec in codecs.items():
        assert codec.encode([0xD800]) == Returned(b"\xed\xa0\x80"), name
        assert check_encode(codec, 0x41, 0xD800) == {SURROGATE}, name


def test_protobufjs_writes_a_lone_surrogate_and_reads_a_truncated_character(
    program: Started,
) -> None:
    codec = program("npm-protobufjs-utf8")
    assert codec.encode([0xD800]) == Returned(b"\xed\xa0\x80")
    assert check_encode(codec, 0xD800) == {SURROGATE}
    direct = node(
        "const b = Buffer.from('41e282', 'hex');"
        "console.log(JSON.stringify(r('@protobufjs/utf8').read(b, 0, 3)))"
    )
    assert isinstance(direct, str)
    assert codec.decode_replace(b"A\xe2\x82") == Returned(direct)
    assert direct != "A\ufffd"


def test_utf8js_refuses_what_rfc_3629_forbids(program: Started) -> None:
    codec = program("npm-utf8")
    refused = codec.decode(b"\xc0\xaf")
    assert isinstance(refused, Refused) and "Invalid continuation byte" in refused.message
    assert check(codec, "decode", b"A\xed\xa0\x80") == set()
    assert check_encode(codec, 0x41, 0xD800) == set()


@pytest.mark.parametrize(
    "name", ["npm-text-encoding-utf-8", "npm-text-encoding", "npm-fast-text-encoding"]
)
def test_the_polyfills_replace_by_maximal_subparts_and_substitute_a_lone_surrogate(
    program: Started, name: str
) -> None:
    codec = program(name)
    assert codec.decode_replace(b"A\xc0\xaf\xe2\x82") == Returned("A\ufffd\ufffd\ufffd")
    assert check(codec, "replace", b"\xf4\x90\x80\x80A") == set()
    assert check_encode(codec, 0xD800) == {SUBSTITUTED}


def test_stablelib_reads_a_stray_continuation_byte_as_a_two_byte_lead(program: Started) -> None:
    codec = program("npm-stablelib-utf8")
    direct = node(
        "console.log(JSON.stringify(r('@stablelib/utf8').decode(Uint8Array.of(0xbf, 0xbf))))"
    )
    assert direct == "\u07ff"  # BF BF is two stray tails; RFC 3629 §4: no lead byte at all
    assert codec.decode(b"A\xbf\xbf") == Returned("A\u07ff")
    assert check(codec, "decode", b"A\xbf\xbf") == {("decode", "must", "accepted ill-formed input")}
    assert check(codec, "decode", b"A\x80\x80") == set()  # it refuses where the value is small
    assert check_encode(codec, 0x41, 0xD800) == set()


def test_the_buffer_polyfill_replaces_a_truncated_character_byte_by_byte(
    program: Started,
) -> None:
    codec = program("npm-buffer")
    direct = node(
        "console.log(JSON.stringify(r('buffer/').Buffer.from([0x41, 0xe2, 0x82]).toString()))"
    )
    assert direct == "A\ufffd\ufffd"
    assert codec.decode_replace(b"A\xe2\x82") == Returned("A\ufffd\ufffd")
    assert check(codec, "replace", b"A\xe2\x82") == {("replace", "should", "wrong U+FFFD count")}


@pytest.mark.slow
def test_the_buffer_polyfill_drops_the_second_of_two_lone_surrogates(program: Started) -> None:
    # Issue 33: two lone high surrogates in a row come out as one EF BF BD (Node's own Buffer
    # writes one for each); the built-in vectors of unencodable-runs.yaml make the check fail.
    codec = program("npm-buffer")
    direct = node(
        "console.log(JSON.stringify([...r('buffer/').Buffer.from('\\ud800\\ud800', 'utf8')]))"
    )
    assert direct == [0xEF, 0xBF, 0xBD]
    assert node("console.log(JSON.stringify([...Buffer.from('\\ud800\\ud800', 'utf8')]))") == [
        *b"\xef\xbf\xbd" * 2
    ]
    assert codec.encode([0xD800, 0xD800]) == Returned(b"\xef\xbf\xbd")
    assert check_encode(codec, 0xD800, 0xD800) == {
        ("encode", "must", "dropped an unencodable value")
    }
    vectors = load_vectors()
    report = run_check(codec, only_these(vectors, {"unr-1", "unr-3"}))
    assert not report.conformant
    assert {d.vector for d in report.differences if d.level == "must"} == {"unr-1", "unr-3"}


def test_utf8_encoding_loses_the_character_after_a_cut_sequence_and_drops_a_low_surrogate(
    program: Started,
) -> None:
    codec = program("npm-utf8-encoding")
    decoded = "console.log(JSON.stringify(new (r('utf8-encoding').TextDecoder)()"
    direct = node(decoded + ".decode(new Uint8Array([0xc2, 0x7f]))))")
    assert direct == "\ufffd"  # the 7F, a character of its own (RFC 3629 §4), is gone
    assert codec.decode_replace(b"\xc2\x7f") == Returned("\ufffd")
    assert check(codec, "replace", b"\xc2\x7f") == {
        ("replace", "must", "lost well-formed characters")
    }
    encoded = "console.log(JSON.stringify([...new (r('utf8-encoding').TextEncoder)()"
    assert node(encoded + ".encode('A\\udc00B')]))") == [0x41, 0x42]
    assert check_encode(codec, 0x41, 0xDC00, 0x42) == {
        ("encode", "must", "dropped an unencodable value")
    }


def test_is_utf8_rejects_control_characters(program: Started) -> None:
    codec = program("npm-is-utf8")
    assert node(
        "console.log(JSON.stringify([0x7f, 0x1f, 0x00, 0x09].map((b) => "
        "r('is-utf8')(Buffer.from([b])))))"
    ) == [False, False, False, True]
    assert codec.validate(b"\x7f") == Returned(False)
    assert check(codec, "validate", b"\x7f") == {("validate", "must", "rejected well-formed input")}


def test_the_string_decoder_port_writes_one_u_fffd_where_node_writes_two(
    program: Started,
) -> None:
    codec = program("npm-string-decoder")
    script = "const d = new (r('string_decoder/').StringDecoder)('utf8'); const n = new (require("
    script += "'string_decoder').StringDecoder)('utf8'); const b = Buffer.from([0xf7, 0x80]);"
    script += "console.log(JSON.stringify([d.write(b) + d.end(), n.write(b) + n.end()]))"
    assert node(script) == ["\ufffd", "\ufffd\ufffd"]  # F7 and 80: two maximal subparts
    assert codec.decode_replace(b"\xf7\x80") == Returned("\ufffd")
    assert check(codec, "replace", b"\xf7\x80") == {("replace", "should", "wrong U+FFFD count")}


def test_iconv_lite_streams_a_split_character(program: Started) -> None:
    codec = program("npm-iconv-lite")
    assert codec.decode_chunks([b"A\xe2", b"\x82", b"\xac"], False) == Returned("A\u20ac")
    assert check(codec, "incremental", b"\xe2\x82\xac\xc0\xaf") == set()


# --- Java and Rust -----------------------------------------------------------------------------


def test_java_writeutf_writes_modified_utf8(program: Started) -> None:
    codec = program("java-writeutf")
    # java.io.DataOutput#writeUTF: U+0000 as C0 80, each surrogate of a pair as three bytes.
    assert codec.encode([0x41, 0x00]) == Returned(b"A\xc0\x80")
    assert codec.encode([0x1F600]) == Returned(b"\xed\xa0\xbd\xed\xb8\x80")
    assert check_encode(codec, 0x00) == {("encode", "must", "wrote U+0000 as the overlong C0 80")}


def test_java_charsetencoder_refuses_or_substitutes_a_lone_surrogate(program: Started) -> None:
    report = program("java-charsetencoder-report")
    assert report.encode([0x1F600, 0xD800]) == Refused("MALFORMED[1]", 1)
    assert check_encode(report, 0x41, 0xDC00) == set()
    replace = program("java-charsetencoder-replace")
    assert replace.encode([0x41, 0xD800]) == Returned(b"A?")  # the encoder's replacement, '?'
    assert check_encode(replace, 0x41, 0xD800) == {SUBSTITUTED}


def test_rust_refuses_to_make_a_char_of_a_surrogate(program: Started) -> None:
    codec = program("rust-into-bytes")
    assert codec.encode([0x41, 0xD800]) == Refused("char::from_u32(0xd800) is None", 1)
    assert codec.encode([0x1F600]) == Returned(b"\xf0\x9f\x98\x80")
    assert check_encode(codec, 0xDFFF) == set()
