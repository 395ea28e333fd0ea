"""The time a request may take: the ceiling until something comparable has been answered, then
fifty times the slowest comparable answer scaled to the request's length, within one second and
the ceiling."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from utf8cert.harness.codec.interface import Failed, Refused, Returned
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.codec.pace import FACTOR, FLOOR, PER_BYTE, Pace
from utf8cert.harness.codec.protocol import Request
from utf8cert.harness.codec.spec import load_codec

PROGRAM = Path(__file__).with_name("hostile_program.py")


def test_before_any_answer_a_request_gets_the_ceiling() -> None:
    assert Pace(10.0).allowed(100) == 10.0 + 100 * PER_BYTE  # the ceiling, and the length's
    assert Pace(10.0).describe(10.0) == "no answer within 10 s"


def test_after_answers_a_request_gets_fifty_times_the_slowest_within_floor_and_ceiling() -> None:
    pace = Pace(10.0)
    pace.answered(0.001, 100)
    assert pace.allowed(100) == FLOOR  # 50 ms is less than the floor
    pace.answered(0.04, 100)
    pace.answered(0.002, 100)  # a faster answer changes nothing
    assert pace.allowed(100) == pytest.approx(FACTOR * 0.04)
    pace.answered(1.0, 100)
    assert pace.allowed(100) == 10.0 + 100 * PER_BYTE  # never more than the limit


def test_a_longer_request_gets_time_in_proportion_to_comparable_answers() -> None:
    pace = Pace(100.0)
    pace.answered(0.1, 4000)
    assert pace.allowed(4000) == pytest.approx(FACTOR * 0.1)
    assert pace.allowed(8000) == pytest.approx(FACTOR * 0.2)  # twice as long: twice the time
    assert pace.allowed(10) == FLOOR  # a short one: the long answer scaled down, then the floor


def test_a_request_far_longer_than_any_answered_gets_the_ceiling() -> None:
    pace = Pace(100.0)
    pace.answered(0.001, 100)  # small answers say nothing of a 128 KiB request
    assert pace.allowed(100) == FLOOR
    assert pace.allowed(131_072) == 100.0 + 131_072 * PER_BYTE


def test_a_slow_answer_to_a_long_request_does_not_lengthen_the_wait_on_a_short_one() -> None:
    pace = Pace(100.0)
    pace.answered(0.002, 20)
    pace.answered(2.0, 131_072)  # 64 KiB decoded in 2 s
    assert pace.allowed(20) == FLOOR
    assert pace.allowed(131_072) == FACTOR * 2.0  # 50 x 2 s, within the limit


def test_a_ceiling_below_the_floor_wins() -> None:
    pace = Pace(0.3)
    pace.answered(0.001, 10)
    assert pace.allowed(10) == 0.3 + 10 * PER_BYTE


def test_every_request_waits_the_whole_ceiling_until_the_codec_hangs_for_real() -> None:
    pace = Pace(10.0)
    pace.answered(0.001, 64)
    assert pace.allowed(64) == FLOOR  # its paced time
    assert pace.wait(64) == 10.0 + 64 * PER_BYTE  # a slow answer is no hang: the whole limit


def test_after_a_hang_for_real_a_request_is_skipped_after_its_paced_time() -> None:
    pace = Pace(10.0)
    pace.answered(0.04, 64)
    pace.hang("decode c080")
    assert pace.wait(64) == pytest.approx(2.0)
    assert pace.describe(2.0) == (
        "skipped: no answer in its paced time after a hang on decode c080"
    )
    assert pace.describe(10.0) == "no answer within 10 s"  # the whole ceiling: a hang


def test_a_long_request_gets_more_time_before_it_is_a_hang() -> None:
    pace = Pace(10.0)
    size = 200_000_000  # the line of a 100 MB input, in hex
    assert pace.wait(size) == pytest.approx(10.0 + 1000.0)
    assert pace.describe(10.0, size) == "no answer within 1010 s"
    assert pace.describe(10.0, 1000) == "no answer within 10 s"  # a vector's: the timeout


def test_a_slow_but_correct_program_is_never_failed_for_speed() -> None:
    # Each answer takes 0.1 s, and the one to C0 1.5 s: fifteen times slower, not fifty.
    spec = "cmd:" + shlex.join([sys.executable, str(PROGRAM), "2", "slow"])
    codec = load_codec(spec, timeout=30)
    try:
        assert codec.decode(b"a") == Returned("a")
        assert codec.decode(b"b") == Returned("b")
        assert codec.decode(b"\xc0") == Refused("invalid start byte", 0)
    finally:
        codec.close()


def test_the_first_answer_may_take_up_to_the_ceiling() -> None:
    spec = "cmd:" + shlex.join([sys.executable, str(PROGRAM), "1", "slow"])
    codec = load_codec(spec, timeout=30)
    try:
        assert codec.decode(b"\xc0") == Refused("invalid start byte", 0)  # 1.5 s, far above 1 s
    finally:
        codec.close()


DEAF = [sys.executable, str(Path(__file__).parents[1] / "support" / "hostile_programs.py"), "deaf"]


def test_a_program_that_never_reads_hangs_once_then_every_question_is_skipped_unasked() -> None:
    codec = load_codec(f"cmd:{shlex.join(DEAF)}", timeout=1.0)
    assert isinstance(codec, ProcessCodec)
    try:
        # A request far longer than a pipe holds: the write itself hangs, bounded by the timeout.
        [first] = codec.ask_all([Request("decode", b"A" * (1 << 20))])
        assert isinstance(first, Failed) and first.kind == "timeout" and not first.cut_short
        assert "read none of its input" in first.message
        assert codec.running() is None
        later = codec.ask_all([Request("decode", b"A"), Request("encode", scalars=(0x41,))])
        assert all(isinstance(o, Failed) and o.kind == "timeout" and o.cut_short for o in later)
        assert all(isinstance(o, Failed) and o.message.startswith("skipped") for o in later)
        assert len(later) == 2 and codec.running() is None  # no program started for them
    finally:
        codec.close()


def test_a_program_that_reads_its_question_then_hangs_is_not_taken_for_a_deaf_one() -> None:
    hanging = [
        sys.executable,
        str(Path(__file__).parents[1] / "support" / "hostile_programs.py"),
        "hang",
    ]
    codec = load_codec(f"cmd:{shlex.join(hanging)}", timeout=1.0)
    assert isinstance(codec, ProcessCodec)
    try:
        [hung] = codec.ask_all([Request("decode", b"\xc0")])
        assert isinstance(hung, Failed) and hung.kind == "timeout"
        assert "read none" not in hung.message and codec.pace.deaf() is None
        assert codec.ask_all([Request("decode", b"A")]) == [Returned("A")]  # asked, answered
    finally:
        codec.close()
