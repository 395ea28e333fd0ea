"""The error's extent and the streaming timeliness are judged at `should`: each codec here
with one such defect is flagged at that level and for nothing else, and CPython's codec and
incremental decoder (strict and replacing) are flagged for neither."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from support.samples import few_of_each_kind

from utf8cert.harness.check.expected import expectation_for
from utf8cert.harness.check.extent import UNPLACED, WRONG_END
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.check.timeliness import (
    HELD_CHARACTER,
    HELD_ERROR,
    LET_THROUGH,
    late,
    schedule,
)
from utf8cert.harness.codec.interface import Capability, Stream
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, VectorSet
from utf8cert.reference import ErrorKind, decode_replace, errors

CHOSEN = (*few_of_each_kind(), "edge-9", "sur-23")
"""The vectors the codecs are checked on: a few of each kind (an error's end and a held
character are judged the same whatever else is checked), and the two the tests below read."""


@cache
def vectors() -> VectorSet:
    return load_vectors()


@cache
def report(spec: str, capabilities: tuple[Capability, ...]) -> Report:
    return run_check(load_codec(spec), only_these(vectors(), CHOSEN), only=capabilities)


def findings(spec: str, *capabilities: Capability) -> set[tuple[str, str, str]]:
    return {(d.capability, d.level, d.what) for d in report(spec, capabilities).differences}


@pytest.mark.parametrize(
    "spec", ["codec:utf-8", "codec:utf-8:replace", "support.broken_codecs:CPythonUtf8"]
)
def test_cpythons_codec_and_incremental_decoder_are_not_flagged(spec: str) -> None:
    whats = {what for _, _, what in findings(spec, "decode", "incremental", "encode")}
    assert not whats & {WRONG_END, UNPLACED, HELD_CHARACTER, HELD_ERROR}


def test_an_error_end_short_of_the_maximal_subpart_is_a_should() -> None:
    # Its incremental decoder has no getstate(), so its refusals' place in the stream, and with
    # it their end, is unknown: only the one-shot decoder is judged.
    assert findings("support.broken_codecs:OneByteErrors", "decode", "incremental") == {
        ("decode", "should", WRONG_END)
    }
    difference = next(
        d
        for d in report(
            "support.broken_codecs:OneByteErrors", ("decode", "incremental")
        ).differences
        if d.vector == "edge-9" and d.variant == "as-is" and d.capability == "decode"
    )
    assert difference.marks == ((0, 2),)  # E0 A0 7F: the subpart is E0 A0


def test_an_encode_error_end_past_the_surrogates_is_a_should() -> None:
    assert findings("support.broken_codecs:RestOfTextEncodeError", "encode") == {
        ("encode", "should", WRONG_END)
    }


def test_one_error_per_surrogate_is_not_flagged() -> None:
    """HandRolled reports each surrogate of a run on its own (end = start + 1), CPython the run
    at once: both ends lie within the run, and both are right."""
    assert findings("support.broken_codecs:HandRolled", "encode") == set()


def test_a_character_held_back_to_the_next_call_is_a_should() -> None:
    assert findings("support.broken_codecs:LookaheadDecoder", "incremental") == {
        ("incremental", "should", HELD_CHARACTER)
    }


def test_an_error_held_back_to_the_final_call_is_a_should() -> None:
    assert findings("support.broken_codecs:LateErrorDecoder", "incremental") == {
        ("incremental", "should", HELD_ERROR)
    }


def test_a_plain_value_error_from_an_operation_is_a_may() -> None:
    """docs/mutation.md's m158: the refusal is right, only its place is lost."""
    assert findings("support.broken_codecs:ChrOfAnErrorDecoder", "decode") == {
        ("decode", "may", UNPLACED)
    }


def test_ill_formed_bytes_returned_on_an_early_call_are_let_through_though_the_end_refuses() -> (
    None
):
    """NaiveBitDecoder takes ED A0 80 for a character: fed ED A0 80 | ED B0, it returns the
    surrogate on the first call and refuses only the truncated ED B0 at the end. That is
    decoding ill-formed bytes (must), not merely an error held back."""
    differences = report("support.broken_codecs:NaiveBitDecoder", ("incremental",)).differences
    cut = next(d for d in differences if d.vector == "sur-23" and d.variant == "as-is, cut at 3")
    assert (cut.level, cut.what) == ("must", "decoded ill-formed bytes as characters")
    assert HELD_ERROR not in {d.what for d in differences}


def test_ill_formed_bytes_let_through_are_marked_from_their_first_byte_not_the_last_call() -> None:
    # 41 ED B2 87 42 fed as 41 ED | B2 87 | 42: two characters back after the second call, A and
    # the surrogate U+DC87 read by its bits. The bytes let through start at ED (a surrogate, RFC
    # 3629 §3), on the call before: the behaviour is named by them, not by B2 (a lone tail).
    data = bytes.fromhex("41 ED B2 87 42")
    stream = Stream(fed=(2, 4, 5), returned=(1, 2))
    finding = late(expectation_for(data).reading.schedule, stream, True)
    assert finding == ("must", LET_THROUGH, ((1, 4),))
    assert [str(e.kind) for e in errors(data[1:4])] == [
        "surrogate",
        *["unexpected-continuation"] * 2,
    ]


def _pending(data: bytes) -> int:
    """Where the pending end of `data` starts: a last sequence more bytes could complete, or
    ED A0..BF (the rule of timeliness.py, written out plainly as the oracle)."""
    if len(data) >= 2 and data[-2] == 0xED and 0xA0 <= data[-1] <= 0xBF:
        return len(data) - 2
    found = errors(data)
    if found and found[-1].kind is ErrorKind.TRUNCATED:
        return found[-1].offset
    return len(data)


def _decided(prefix: bytes) -> tuple[int, int | None]:
    settled = prefix[: _pending(prefix)]
    found = errors(settled)
    before = len(decode_replace(settled[: found[0].offset])) if found else None
    return len(decode_replace(settled)), before


EDGE_BYTES = bytes.fromhex("00 41 7F 80 8F 90 9F A0 BF C0 C1 C2 DF E0 E1 ED EE EF F0 F1 F4 F5 FF")


@pytest.mark.parametrize(
    "longest", [2, pytest.param(3, marks=pytest.mark.slow)], ids=["2 edge bytes", "3 edge bytes"]
)
def test_the_schedule_is_what_each_prefix_decides(longest: int) -> None:
    """Schedule (one pass over the input) owes, after each number of bytes fed, what decoding
    that prefix with its pending end set aside gives: every input of up to `longest` of the
    edge bytes (3: 12,720 inputs, slow), every vector (2: those of up to 256 bytes, the ten
    longer ones, 83 % of the oracle's quadratic work, with 3), and each of those in ASCII
    padding."""
    inputs = [bytes(p) for n in range(longest + 1) for p in itertools.product(EDGE_BYTES, repeat=n)]
    decoding = [v.data for v in vectors() if isinstance(v, DecodeVector)]
    inputs += [data for data in decoding if longest > 2 or len(data) <= 256]
    inputs += [b"ab" + data + b"cd" for data in inputs[-600:]]
    for data in inputs:
        timing = schedule(data)
        for fed in range(len(data) + 1):
            owed, before = _decided(data[:fed])
            assert (timing.owed(fed), timing.before_error(fed)) == (owed, before), (data, fed)
