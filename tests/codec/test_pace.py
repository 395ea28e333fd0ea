"""The time a request may take: the ceiling before any answer, then fifty times the slowest
answer (more for a longer request), within one second and the ceiling."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from utf8cert.harness.codec.interface import Refused, Returned
from utf8cert.harness.codec.pace import FACTOR, FLOOR, Pace
from utf8cert.harness.codec.spec import load_codec

PROGRAM = Path(__file__).with_name("hostile_program.py")


def test_before_any_answer_a_request_gets_the_ceiling() -> None:
    assert Pace(10.0).allowed(100) == 10.0
    assert Pace(10.0).describe(10.0) == "no answer within 10 s"


def test_after_answers_a_request_gets_fifty_times_the_slowest_within_floor_and_ceiling() -> None:
    pace = Pace(10.0)
    pace.answered(0.001, 100)
    assert pace.allowed(100) == FLOOR  # 50 ms is less than the floor
    pace.answered(0.04, 100)
    pace.answered(0.002, 100)  # a faster answer changes nothing
    assert pace.allowed(100) == FACTOR * 0.04
    pace.answered(1.0, 100)
    assert pace.allowed(100) == 10.0  # never more than the ceiling


def test_a_longer_request_gets_time_in_proportion_to_the_slowest_rate() -> None:
    pace = Pace(100.0)
    pace.answered(0.1, 1000)  # 100 microseconds a byte
    assert pace.allowed(1000) == pytest.approx(FACTOR * 0.1)
    assert pace.allowed(10_000) == pytest.approx(FACTOR * 0.1 * 10)
    assert pace.allowed(10) == pytest.approx(FACTOR * 0.1)  # the slowest answer still counts


def test_a_ceiling_below_the_floor_wins() -> None:
    pace = Pace(0.3)
    pace.answered(0.001, 10)
    assert pace.allowed(10) == 0.3


def test_a_timeout_shorter_than_the_ceiling_says_why() -> None:
    pace = Pace(10.0)
    pace.answered(0.04, 100)
    assert pace.describe(pace.allowed(100)) == (
        "no answer within 2 s (50 times its slowest answer so far, 40 ms; at most 10 s)"
    )


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
