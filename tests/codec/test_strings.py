"""UTF-16 strings: a codec that declares them is never asked what no UTF-16 string holds, and is
not counted down for it; the shipped JavaScript and Java encoders, and a program of its own that
would join a surrogate pair if asked one, are certified for encode."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.codec.handshake import Handshake, handshake_line, read_handshake
from utf8cert.harness.codec.interface import Failed, Inapplicable, Returned
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.codec.protocol import ProtocolError, Request
from utf8cert.harness.codec.strings import UTF16_BEYOND, UTF16_PAIR, string_model, unholdable
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import EncodeVector
from utf8cert.harness.world.catalog import registry
from utf8cert.harness.world.programs.c_libraries import C_PROGRAMS
from utf8cert.harness.world.spec import load_codec

PROGRAM = Path(__file__).with_name("utf16_program.py")
PAIR = Inapplicable(UTF16_PAIR, unholdable=True)


def test_a_utf16_string_cannot_keep_a_pair_apart_nor_hold_a_value_beyond_unicode() -> None:
    assert unholdable("utf-16", [0x41, 0xD83D, 0xDE00]) == PAIR
    assert unholdable("utf-16", [0x110000]) == Inapplicable(UTF16_BEYOND, unholdable=True)
    # Lone surrogates, a low one before a high one, and a pair split by a character: all held.
    for held in ([0xD800], [0xDC00, 0xD800], [0xD83D, 0x41, 0xDE00], [0x1F600], []):
        assert unholdable("utf-16", held) is None
    assert unholdable("code points", [0xD83D, 0xDE00]) is None
    assert unholdable("code points", [0x110000]) is None  # left to the codec


def test_the_handshake_declares_the_strings_after_the_capabilities() -> None:
    line = handshake_line(frozenset({"encode"}), 2, "utf-16")
    assert line == "utf8cert-protocol 2 encode strings=utf-16"
    assert read_handshake(line) == Handshake(2, frozenset({"encode"}), "utf-16")
    assert read_handshake("utf8cert-protocol 1 decode strings=code-points").strings == (
        "code points"
    )
    assert read_handshake("utf8cert-protocol 2 decode") == Handshake(2, frozenset({"decode"}))
    assert handshake_line(frozenset({"decode"}), 2) == "utf8cert-protocol 2 decode"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("utf8cert-protocol 2 encode strings=utf-8", "unknown strings=utf-8 (known: "),
        ("utf8cert-protocol 2 encode strings=utf-16 strings=utf-16", "declared 2 times"),
        ("utf8cert-protocol 2 strings=utf-16", "announces no capability"),
    ],
)
def test_a_bad_strings_declaration_is_a_handshake_failure(line: str, problem: str) -> None:
    with pytest.raises(ProtocolError, match="handshake failure") as raised:
        read_handshake(line)
    assert problem in str(raised.value)


def utf16_program() -> ProcessCodec:
    codec = load_codec(f"cmd:{sys.executable} {PROGRAM}")
    assert isinstance(codec, ProcessCodec)
    return codec


def test_a_program_with_utf16_strings_is_never_sent_a_surrogate_pair() -> None:
    codec = utf16_program()
    try:
        assert codec.strings == "utf-16" and "its strings utf-16" in codec.description
        # Sent, the pair would come back F0 9F 98 80: "joined a surrogate pair".
        assert codec.encode([0xD83D, 0xDE00]) == PAIR
        assert codec.encode([0xD83D]) == Returned(b"\xef\xbf\xbd")
        assert codec.encode([0x1F600]) == Returned("\U0001f600".encode())

        def encode(*values: int) -> Request:
            return Request("encode", scalars=values)

        asked = codec.ask_all([encode(0xD83D, 0xDE00), encode(0x41), encode(0xDBFF, 0xDFFF)])
        assert asked == [PAIR, Returned(b"A"), PAIR]
        # Up to the first failure, that one included: a pair after it is not answered either.
        until = codec.ask_until_failure(
            [encode(0xD800, 0xDC00), encode(0x2603), encode(0xD800, 0xDC00), encode(0x41)]
        )
        assert until[0] == PAIR and isinstance(until[1], Failed) and len(until) == 2
    finally:
        codec.close()


def test_a_program_with_utf16_strings_is_certified_for_encode_with_no_must() -> None:
    everything = load_vectors()
    vectors = only_these(everything, {v.id for v in everything if isinstance(v, EncodeVector)})
    codec = utf16_program()
    try:
        report = run_check(codec, vectors)
    finally:
        codec.close()
    encode = report.coverage.of("encode")
    assert encode.certified and encode.beyond_utf16 > 0
    assert encode.inapplicable[UTF16_PAIR] == encode.beyond_utf16
    assert report.conformant
    assert not [d for d in report.differences if d.what == "joined a surrogate pair"]


@pytest.mark.parametrize("name", ["node-textencoder", "node-buffer", "java-getbytes"])
@pytest.mark.slow
def test_the_shipped_utf16_encoders_declare_their_strings_and_are_certified(name: str) -> None:
    entry = registry()[name]
    if entry.unavailable() is not None:
        pytest.skip(f"adapter:{name} is unavailable here: {entry.unavailable()}")
    assert entry.strings == "utf-16"
    codec = load_codec(f"adapter:{name}")
    try:
        assert string_model(codec) == "utf-16"
        assert codec.encode([0xD83D, 0xDE00]) == PAIR
        # A low surrogate then a high one is no pair: asked, and substituted (U+FFFD; Java '?').
        lone = b"\xef\xbf\xbd" * 2 if name.startswith("node") else b"??"
        assert codec.encode([0xDE00, 0xD83D]) == Returned(lone)
        report = run_check(codec, load_vectors(), only=["encode"])
    finally:
        codec.close()
    assert report.coverage.of("encode").certified and report.conformant


UTF16_ENCODERS = ("sqlite-encode", "pyicu-encode", "cxx-codecvt-utf8-utf16")


def test_python_adapters_hold_code_points() -> None:
    c_libraries = {name for _, name, _ in C_PROGRAMS}  # each checked in test_c_libraries.py
    for name, entry in registry().items():
        # UTF-16: JavaScript's, Java's (the JDK's and the JVM libraries') and Tcl 8.6's
        # strings, and the encoders taking UTF-16
        prefixes = ("node-", "java-", "jvm-", "npm-", "tcl-")
        utf16 = name.startswith(prefixes) or name in UTF16_ENCODERS
        if not utf16 and name not in c_libraries:
            assert entry.strings == "code points", name
