"""The line protocol: its fields, its lines both ways, and whole codecs spoken to through it."""

from __future__ import annotations

import io
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from utf8cert.harness.codec.handshake import (
    Handshake,
    handshake_line,
    parse_handshake,
    read_handshake,
)
from utf8cert.harness.codec.interface import (
    Capability,
    Codec,
    Failed,
    Inapplicable,
    Outcome,
    Refused,
    Returned,
)
from utf8cert.harness.codec.protocol import (
    ProtocolError,
    Request,
    answer_line,
    hex_of_scalars,
    hex_of_text,
    numbered,
    outcome_of,
    outcomes_of,
    parse_answer,
    parse_request,
    request_line,
    scalars_of_hex,
    split_id,
    text_of_hex,
)
from utf8cert.harness.codec.serve import serve
from utf8cert.harness.codec.spec import load_codec

NODE_ADAPTER = Path(__file__).resolve().parents[2] / "examples" / "node" / "textdecoder.js"
SERVER = f"{shlex.quote(sys.executable)} -m utf8cert.harness.codec.serve"

WELL_FORMED = [b"", b"plain", "aé€😀".encode(), "\u0080\u07ff\u0800\uffff\U00010000".encode()]
ILL_FORMED = [
    b"\xc0\xaf",
    b"a\xe0\x80\xafb",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xfe\xff",
    b"ab\x80\x80cd",
    b"ab\xe2\x82",
    b"\xe2\x82a",
    b"\xf0\x9f\x98",
]


def test_text_travels_as_utf32_hex_with_lone_surrogates_intact() -> None:
    assert hex_of_text("A€") == "00000041000020ac"
    assert hex_of_text("") == "-"
    for text in ["", "A", "\ud800", "\udfff\ud800", "\U0010ffff", "a\udc80b"]:
        assert text_of_hex(hex_of_text(text)) == text
    with pytest.raises(ValueError):
        text_of_hex("00110000")


def test_code_points_travel_as_eight_digits_including_values_beyond_unicode() -> None:
    assert hex_of_scalars([0x41, 0x7FFFFFFF]) == "000000417fffffff"
    assert scalars_of_hex(hex_of_scalars([0xD800, 0x110000, 0])) == (0xD800, 0x110000, 0)
    assert scalars_of_hex("-") == ()
    with pytest.raises(ValueError):
        hex_of_scalars([-1])
    with pytest.raises(ValueError):
        scalars_of_hex("0041")


def test_a_handshake_announces_version_and_capabilities() -> None:
    line = handshake_line(frozenset({"encode", "decode"}))
    assert line == "utf8cert-protocol 2 decode encode"
    assert read_handshake(line) == Handshake(2, frozenset({"decode", "encode"}))
    assert read_handshake("utf8cert-protocol 1 validate") == Handshake(1, frozenset({"validate"}))
    assert parse_handshake(line) == {"decode", "encode"}


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("", "expected 'utf8cert-protocol 2 CAPABILITY...', got ''"),
        ("hello world", "expected 'utf8cert-protocol 2 CAPABILITY...', got 'hello world'"),
        ("utf8cert-protocol 3 decode", "the program speaks utf8cert-protocol 3, utf8cert 1 or 2"),
        ("utf8cert-protocol 1", "the program announces no capability"),
        ("utf8cert-protocol 1 decode fly", "unknown capability 'fly'"),
    ],
)
def test_a_bad_handshake_says_what_is_wrong(line: str, problem: str) -> None:
    with pytest.raises(ProtocolError, match="handshake failure: ") as caught:
        parse_handshake(line)
    assert problem in str(caught.value)


REQUESTS = [
    Request("decode", data=b"\xe2\x82\xac"),
    Request("replace", data=b""),
    Request("validate", data=b"\xff"),
    Request("encode", scalars=(0x41, 0xD800, 0x110000)),
    Request("encode", scalars=()),
    Request("incremental", chunks=(b"\xe2", b"", b"\x82\xac"), final_empty=True),
    Request("incremental", chunks=(), final_empty=False),
]


@pytest.mark.parametrize("request_", REQUESTS, ids=request_line)
def test_every_request_reads_back_as_itself(request_: Request) -> None:
    assert parse_request(request_line(request_)) == request_


def test_request_lines_are_as_the_protocol_document_shows() -> None:
    assert request_line(REQUESTS[0]) == "decode e282ac"
    assert request_line(REQUESTS[1]) == "replace -"
    assert request_line(REQUESTS[3]) == "encode 000000410000d80000110000"
    assert request_line(REQUESTS[5]) == "incremental 1 e2 - 82ac"
    assert request_line(REQUESTS[6]) == "incremental 0"


@pytest.mark.parametrize(
    "line", ["", "decode", "decode zz", "encode 41", "incremental 2 41", "x -"]
)
def test_a_malformed_request_is_a_protocol_error(line: str) -> None:
    with pytest.raises(ProtocolError, match="malformed request"):
        parse_request(line)


OUTCOMES: list[tuple[Capability, Outcome, str]] = [
    ("decode", Returned("A\ud800"), "ok 000000410000d800"),
    ("decode", Returned(""), "ok -"),
    ("validate", Returned(False), "ok false"),
    ("encode", Returned(b"\xed\xa0\x80"), "ok eda080"),
    ("decode", Refused("invalid start byte", 3), "refused 3 invalid start byte"),
    ("encode", Refused("surrogate", None), "refused - surrogate"),
    ("encode", Inapplicable("no str holds it"), "inapplicable no str holds it"),
    ("decode", Failed("crash", "TypeError: boom"), "crash TypeError: boom"),
    ("validate", Failed("wrong-type", "returned int"), "wrong-type returned int"),
]


@pytest.mark.parametrize(("capability", "outcome", "line"), OUTCOMES)
def test_every_outcome_is_one_answer_line_and_reads_back(
    capability: Capability, outcome: Outcome, line: str
) -> None:
    assert answer_line(capability, outcome) == line
    assert parse_answer(capability, line) == outcome


def test_a_multiline_message_is_kept_to_one_line() -> None:
    assert answer_line("decode", Failed("crash", "Traceback:\n  line 1\nBoom")) == (
        "crash Traceback: line 1 Boom"
    )


@pytest.mark.parametrize(
    ("capability", "line"),
    [
        ("validate", "ok maybe"),
        ("decode", "ok zz"),
        ("decode", "ok 0041"),
    ],
)
def test_an_ok_with_the_wrong_kind_of_value_is_a_wrong_type_failure(
    capability: Capability, line: str
) -> None:
    outcome = parse_answer(capability, line)
    assert isinstance(outcome, Failed)
    assert outcome.kind == "wrong-type"


def test_decoded_values_above_u10ffff_come_back_as_code_points_for_the_judge() -> None:
    # glibc's mbrtowc reads F4 90 80 80 as 0x110000: no str holds it, but it is an answer.
    assert parse_answer("decode", "ok 0000004100110000") == Returned((0x41, 0x110000))
    assert answer_line("decode", Returned((0x41, 0x110000))) == "ok 0000004100110000"


@pytest.mark.parametrize("line", ["debug: got here", "", "OK 41", "refused x message"])
def test_a_line_that_is_no_answer_is_a_protocol_error(line: str) -> None:
    with pytest.raises(ProtocolError):
        parse_answer("decode", line)


def test_serve_writes_the_handshake_and_one_answer_per_request() -> None:
    requests = [b"decode 41e282ac\n", b"decode 41ff\n", b"bogus\n", b"encode 0000d800\n"]
    answers = io.BytesIO()
    serve(load_codec("codec:utf-8"), requests, answers, version=1)
    with pytest.raises(UnicodeDecodeError) as refused:
        b"A\xff".decode("utf-8")
    with pytest.raises(UnicodeEncodeError) as unencodable:
        "\ud800".encode("utf-8")
    assert answers.getvalue().decode().split("\n") == [
        "utf8cert-protocol 1 decode replace encode incremental incremental=strict reuse=yes",
        "ok 00000041000020ac",
        f"refused end={refused.value.end} 1 UnicodeDecodeError: {refused.value}",
        "crash malformed request 'bogus'",
        f"refused end={unencodable.value.end} 0 UnicodeEncodeError: {unencodable.value}",
        "",
    ]


def test_serve_in_version_2_echoes_each_requests_id() -> None:
    requests = [b"7 decode 41e282ac\n", b"8 validate ff\n", b"decode 41\n", b"9 bogus\n"]
    answers = io.BytesIO()
    serve(load_codec("codec:utf-8"), requests, answers)
    assert answers.getvalue().decode().split("\n") == [
        "utf8cert-protocol 2 decode replace encode incremental incremental=strict reuse=yes",
        "7 ok 00000041000020ac",
        "8 inapplicable codec:utf-8 has no validate capability",
        "crash a request with no id: 'decode 41'",
        "9 crash malformed request 'bogus'",
        "",
    ]


def test_ids_are_split_from_version_2_lines_and_only_decimal_numbers_count() -> None:
    assert numbered(12, "ok -") == "12 ok -"
    assert split_id("12 ok -") == (12, "ok -")
    assert split_id("ok -") == (None, "ok -")
    assert split_id("-1 ok -") == (None, "-1 ok -")
    assert split_id("١٢ ok -") == (None, "١٢ ok -")  # Arabic-Indic digits are digits, not ids
    assert split_id("1" * 19 + " ok") == (None, "1" * 19 + " ok")


def test_serve_with_a_bad_spec_exits_2_with_one_line() -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness.codec.serve", "codec:klingon"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert finished.returncode == 2
    assert finished.stdout == ""
    assert finished.stderr == (
        "python -m utf8cert.harness.codec.serve: codec spec 'codec:klingon': "
        "unknown codec 'klingon' (Python's registry has none)\n"
    )


@pytest.fixture
def served_cpython() -> Iterator[Codec]:
    codec = load_codec(f"cmd:{SERVER} codec:utf-8")
    yield codec
    codec.close()


def test_a_served_codec_behaves_exactly_as_in_process(served_cpython: Codec) -> None:
    direct = load_codec("codec:utf-8")
    assert served_cpython.capabilities == direct.capabilities
    for data in WELL_FORMED + ILL_FORMED:
        assert served_cpython.decode(data) == direct.decode(data)
        assert served_cpython.decode_replace(data) == direct.decode_replace(data)
        pieces = [data[i : i + 1] for i in range(len(data))]
        assert served_cpython.decode_chunks(pieces, True) == direct.decode_chunks(pieces, True)
        assert served_cpython.decode_chunks([data], False) == direct.decode_chunks([data], False)
    for scalars in ([], [0x41, 0x10FFFF], [0x41, 0xDC00], [0x110000], [0x7FFFFFFF]):
        assert served_cpython.encode(scalars) == direct.encode(scalars)


def test_a_long_input_crosses_the_pipe_both_ways(served_cpython: Codec) -> None:
    data = "€".encode() * 100_000  # 300 kB each way, far beyond a pipe's buffer
    assert served_cpython.decode(data) == Returned("€" * 100_000)


def test_what_a_served_codec_prints_does_not_disturb_the_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "chatty_codec.py").write_text(
        "import os\n"
        "def decode(data):\n"
        "    print('decoding', data)\n"
        "    os.write(1, b'raw write to fd 1\\n')\n"
        "    return data.decode('utf-8')\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    codec = load_codec(f"cmd:{SERVER} chatty_codec")
    try:
        assert codec.decode(b"abc") == Returned("abc")
        assert codec.decode(b"\xe2\x82\xac") == Returned("€")
    finally:
        codec.close()


node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture(scope="module")
def textdecoder() -> Iterator[Codec]:
    codec = load_codec(f"cmd:node {shlex.quote(str(NODE_ADAPTER))}")
    yield codec
    codec.close()


@node
def test_node_textdecoder_offers_five_capabilities_and_decodes_as_cpython(
    textdecoder: Codec,
) -> None:
    assert textdecoder.capabilities == {"decode", "replace", "validate", "encode", "incremental"}
    for data in WELL_FORMED:
        assert textdecoder.decode(data) == Returned(data.decode("utf-8"))
        assert textdecoder.validate(data) == Returned(True)
        pieces = [data[i : i + 1] for i in range(len(data))]
        assert textdecoder.decode_chunks(pieces, True) == Returned(data.decode("utf-8"))
        assert textdecoder.encode(list(map(ord, data.decode()))) == Returned(data)


@node
@pytest.mark.parametrize("data", ILL_FORMED, ids=bytes.hex)
def test_node_refuses_ill_formed_input_and_replaces_as_cpython_does(
    textdecoder: Codec, data: bytes
) -> None:
    refused = textdecoder.decode(data)
    assert isinstance(refused, Refused)
    assert refused.offset is None  # TextDecoder does not say where
    assert textdecoder.validate(data) == Returned(False)
    assert isinstance(textdecoder.decode_chunks([data[:1], data[1:]], False), Refused)
    # WHATWG and CPython both replace each maximal subpart (Unicode §3.9) with one U+FFFD.
    assert textdecoder.decode_replace(data) == Returned(data.decode("utf-8", "replace"))


@node
def test_node_drops_a_leading_signature_as_utf8_sig_does(textdecoder: Codec) -> None:
    signed = b"\xef\xbb\xbfA\xef\xbb\xbf"
    assert textdecoder.decode(signed) == load_codec("codec:utf-8-sig").decode(signed)


@node
def test_node_textencoder_writes_fffd_for_a_lone_surrogate(textdecoder: Codec) -> None:
    # WHATWG Encoding: TextEncoder takes a USVString, in which a lone surrogate became U+FFFD.
    assert textdecoder.encode([0x41, 0xD800]) == Returned(b"A\xef\xbf\xbd")
    assert isinstance(textdecoder.encode([0xD83D, 0xDE00]), Inapplicable)
    assert isinstance(textdecoder.encode([0x110000]), Inapplicable)


def test_outcomes_of_asks_a_program_all_at_once_and_a_python_codec_one_by_one(
    served_cpython: Codec,
) -> None:
    requests = [Request("decode", data=data) for data in WELL_FORMED + ILL_FORMED]
    requests += [Request("encode", scalars=(0x41, 0xD800)), Request("replace", data=b"a\xff")]
    direct = load_codec("codec:utf-8")
    expected = [outcome_of(direct, request) for request in requests]
    assert outcomes_of(direct, requests) == expected
    assert outcomes_of(served_cpython, requests) == expected
