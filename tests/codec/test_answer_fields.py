"""An answer's optional fields (harness/PROTOCOL.md, "Optional fields"): an error's end, an
incremental decoder's calls and a plain ValueError travel both ways and read back as they were
written; answers without them, and every line of the forms before them, read as before."""

from __future__ import annotations

import io

import pytest

from utf8cert.harness.codec.interface import (
    Capability,
    Failed,
    Outcome,
    Refused,
    Returned,
    Stream,
)
from utf8cert.harness.codec.protocol import (
    ProtocolError,
    Request,
    answer_line,
    parse_answer,
)
from utf8cert.harness.codec.serve import serve
from utf8cert.harness.codec.spec import load_codec

CUT = Request("incremental", chunks=(b"A\xe2", b"\x82\xac", b"B"))
"""Fed in three calls: 2, 4, then 5 bytes in all."""
CUT_THEN_EMPTY = Request("incremental", chunks=(b"A\xe2", b"\x82\xac"), final_empty=True)
DECODE = Request("decode", data=b"\xe0\xa0\x7f")
ENCODE = Request("encode", scalars=(0x41, 0xD800, 0xDC00, 0x42))

AEB = "00000041000020ac00000042"
"""A€B as code points."""
CHR = "ValueError: chr() arg not in range(0x110000)"

FIELDS: list[tuple[Request, Outcome, str]] = [
    (DECODE, Refused("invalid continuation", 0, 2), "refused end=2 0 invalid continuation"),
    (DECODE, Refused("bad", 0, -1), "refused end=-1 0 bad"),
    (ENCODE, Refused("surrogates", 1, 3), "refused end=3 1 surrogates"),
    (DECODE, Refused(CHR, None, generic=True), f"refused generic=1 - {CHR}"),
    (CUT, Returned("A€B", Stream((2, 4, 5), (1, 2, 3))), f"ok returned=1,2,3 {AEB}"),
    (CUT, Returned("A€B", Stream((2, 4, 5), (0, 2, 3))), f"ok returned=0,2,3 {AEB}"),
    (CUT_THEN_EMPTY, Returned("A€", Stream((2, 4, 4), (1, 1, 2))), f"ok returned=1,1,2 {AEB[:16]}"),
    (CUT, Refused("bad", 3, 4, Stream((2, 4), (1,))), "refused end=4 returned=1 3 bad"),
    (CUT, Refused("bad", 1, 2, Stream((2,), ())), "refused end=2 1 bad"),
    (CUT, Refused("bad", None, None, Stream((2, 4), (0,))), "refused returned=0 - bad"),
]


@pytest.mark.parametrize(("request_", "outcome", "line"), FIELDS)
def test_each_field_is_written_and_reads_back_as_it_was(
    request_: Request, outcome: Outcome, line: str
) -> None:
    assert answer_line(request_.capability, outcome) == line
    again = parse_answer(request_, line)
    assert again == outcome
    # The fields are left out of equality (interface.py): each is compared here on its own.
    for name in ("end", "generic"):
        assert getattr(again, name, None) == getattr(outcome, name, None)
    stream = getattr(outcome, "stream", None)
    if stream is not None and len(stream.fed) < 2:
        stream = None  # one call says nothing the answer does not: never written
    assert getattr(again, "stream", None) == stream


def test_a_refusal_on_the_first_of_several_calls_says_so_with_no_count() -> None:
    outcome = Refused("bad", 0, 1, Stream((2, 4), ()))
    assert answer_line("incremental", outcome) == "refused end=1 returned=- 0 bad"
    again = parse_answer(CUT, "refused end=1 returned=- 0 bad")
    assert isinstance(again, Refused)
    assert again.stream == Stream((2,), ())


OLD_FORMS: list[tuple[Capability, str, Outcome]] = [
    ("decode", "refused 3 invalid start byte", Refused("invalid start byte", 3)),
    ("decode", "refused 3 end=4 is in the message", Refused("end=4 is in the message", 3)),
    ("decode", "refused - returned=1 too", Refused("returned=1 too", None)),
    ("incremental", "ok 00000041", Returned("A")),
    ("incremental", "ok -", Returned("")),
    ("validate", "ok true", Returned(True)),
    ("encode", "ok eda080", Returned(b"\xed\xa0\x80")),
    ("decode", "crash end=3 boom", Failed("crash", "end=3 boom")),
]


@pytest.mark.parametrize(("capability", "line", "outcome"), OLD_FORMS)
def test_answers_without_fields_read_exactly_as_before(
    capability: Capability, line: str, outcome: Outcome
) -> None:
    again = parse_answer(capability, line)
    assert again == outcome
    assert getattr(again, "end", None) is None
    assert getattr(again, "stream", None) is None
    assert answer_line(capability, outcome) == line


def test_answers_with_nothing_to_say_in_a_field_do_not_grow() -> None:
    assert answer_line("decode", Refused("bad", None, 3)) == "refused - bad"  # no offset: no end
    assert answer_line("incremental", Returned("A", Stream((1,), (1,)))) == "ok 00000041"
    assert answer_line("decode", Refused("bad", 2)) == "refused 2 bad"


def test_an_unknown_word_before_the_value_is_read_as_before() -> None:
    # Only the known names are fields: any other word is the (wrong) value or offset it was.
    outcome = parse_answer("validate", "ok maybe=1")
    assert isinstance(outcome, Failed)
    assert outcome.kind == "wrong-type"
    with pytest.raises(ProtocolError, match="the offset must be a decimal number"):
        parse_answer("decode", "refused ends=4 3 bad")


@pytest.mark.parametrize(
    ("request_", "line", "problem"),
    [
        (DECODE, "refused end=x 0 bad", "end= takes a decimal number"),
        (DECODE, "refused end=+2 0 bad", "end= takes a decimal number"),
        (DECODE, "refused end=2 - bad", "end= needs a decimal offset"),
        (DECODE, "refused end=2 end=3 0 bad", "given twice"),
        (DECODE, "ok end=2 00000041", "only goes with refused"),
        (DECODE, "refused generic=yes - bad", "generic= takes 1"),
        (DECODE, "ok returned=1 00000041", "only answers an incremental request"),
        (CUT, "ok returned=1,2 " + AEB, "2 counts for 3 calls"),
        (CUT, "ok returned=1,2,4 " + AEB, "ends at 4 characters"),
        (CUT, "ok returned=2,1,3 " + AEB, "cannot go down"),
        (CUT, "ok returned=1,,3 " + AEB, "decimal counts"),
        (CUT, "ok returned= " + AEB, "decimal counts"),
        (CUT, "ok returned=1,2,٣ " + AEB, "decimal counts"),
        (CUT, "refused returned=1,2,3 4 bad", "3 counts for 3 calls"),
    ],
)
def test_a_malformed_field_is_a_protocol_error(request_: Request, line: str, problem: str) -> None:
    with pytest.raises(ProtocolError, match=problem):
        parse_answer(request_, line)


def test_a_stream_read_without_its_request_is_a_protocol_error() -> None:
    """The bytes each call fed are the request's: with only a capability, none can be read."""
    with pytest.raises(ProtocolError, match="only answers an incremental request"):
        parse_answer("incremental", "ok returned=1,2 00000041")


def test_serve_sends_the_end_and_the_calls_cpythons_codec_gives() -> None:
    requests = [
        b"1 decode 41e0a07f\n",
        b"2 encode 00000041\n",
        b"3 encode 000000410000d8000000dc0000000042\n",
        b"4 incremental 0 41e2 82ac 42\n",
        b"5 incremental 0 41e2 ff\n",
        b"6 incremental 0 41e282ac\n",
    ]
    answers = io.BytesIO()
    serve(load_codec("codec:utf-8"), requests, answers)
    with pytest.raises(UnicodeDecodeError) as decoding:
        b"A\xe0\xa0\x7f".decode("utf-8")
    with pytest.raises(UnicodeEncodeError) as encoding:
        "\ud800\udc00B".encode("utf-8")
    assert (decoding.value.start, decoding.value.end) == (1, 3)
    assert (encoding.value.start, encoding.value.end) == (0, 2)
    expected = [
        f"1 refused end={decoding.value.end} {decoding.value.start} ",
        "2 ok 41",
        f"3 refused end={encoding.value.end + 1} {encoding.value.start + 1} ",
        "4 ok returned=1,2,3 00000041000020ac00000042",  # A, then €, then B: each on time
        "5 refused end=2 returned=1 1 ",  # E2 FF: the subpart E2 at 1, after "A" on call 1
        "6 ok 00000041000020ac",  # one call: no stream
    ]
    lines = answers.getvalue().decode().splitlines()[1:]
    assert len(lines) == len(expected)
    for line, start in zip(lines, expected, strict=True):
        assert line == start or (start.endswith(" ") and line.startswith(start)), line
