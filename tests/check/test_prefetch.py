"""The prefetch of a vector's questions (harness/check/prefetch.py): it foresees every question
the check asks, in the check's order, so a program answers them pipelined; the report is the
one asking one by one gives; what it did not foresee is still asked."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import pytest
from support.samples import few_of_each_kind

from utf8cert.harness.check.interrupt import Interrupted, Stop
from utf8cert.harness.check.prefetch import Prefetched, planned, prefetched
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import capabilities_for, only_these, run_check
from utf8cert.harness.check.schedule import schedule
from utf8cert.harness.codec.interface import CAPABILITIES, Codec, Outcome
from utf8cert.harness.codec.protocol import AskingCodec, Request, outcome_of
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import VectorSet


class Asked(AskingCodec):
    """A codec in this process that can also be asked many requests at once, as a program is
    (`ask_until_failure`), recording what it is asked and how."""

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.spec, self.description = codec.spec, codec.description
        self.capabilities = codec.capabilities
        self.ahead: list[Request] = []
        self.alone: list[Request] = []

    def ask_until_failure(self, requests: Sequence[Request]) -> list[Outcome]:
        self.ahead += requests
        return [outcome_of(self.codec, request) for request in requests]

    def ask(self, request: Request) -> Outcome:
        self.alone.append(request)
        return outcome_of(self.codec, request)

    def close(self) -> None:
        self.codec.close()


@cache
def vectors(every: bool = True) -> VectorSet:
    """Return every built-in vector, or a few of each kind (support.samples)."""
    return load_vectors() if every else only_these(load_vectors(), few_of_each_kind())


def shown(report: Report) -> list[tuple[str, str, str, str, str, str]]:
    return [
        (d.vector, d.variant, d.capability, d.level, d.what, d.actual) for d in report.differences
    ]


# CPython's codec is asked every question of every vector; NaiveBitDecoder, whose failures end
# a vector's questions early, a few vectors of each kind (every kind of question, at a third of
# the cost of its slow decoder on all of them); it in the slow tier (8 CPU-s).
@pytest.mark.parametrize(
    ("spec", "every"),
    [
        ("codec:utf-8", True),
        pytest.param("support.broken_codecs:NaiveBitDecoder", False, marks=pytest.mark.slow),
    ],
)
def test_every_question_of_a_check_is_asked_ahead_and_the_report_is_unchanged(
    spec: str, every: bool
) -> None:
    asked = Asked(load_codec(spec))
    prefetching = run_check(asked, vectors(every))
    assert asked.alone == []  # every question foreseen, in the check's order
    assert asked.ahead
    one_by_one = run_check(load_codec(spec), vectors(every))
    assert shown(prefetching) == shown(one_by_one)
    assert prefetching.coverage.asked == one_by_one.coverage.asked


def test_a_question_not_foreseen_is_asked_and_the_foreseen_ones_it_passes_are_dropped() -> None:
    asked = Asked(load_codec("codec:utf-8"))
    requests = [Request("decode", data=b"a"), Request("decode", data=b"b")]
    codec = Prefetched(asked, list(zip(requests, asked.ask_until_failure(requests), strict=True)))
    assert codec.decode(b"b") == outcome_of(asked.codec, requests[1])  # "a" skipped
    assert codec.decode(b"a") == outcome_of(asked.codec, requests[0])  # no longer ahead
    assert asked.alone == [requests[0]]


def test_a_question_the_judge_adds_keeps_the_answers_asked_ahead() -> None:
    # late_refusal.py asks an encoder the values before its refusal: not foreseen, between two
    # foreseen questions, which are still answered from what was asked ahead.
    asked = Asked(load_codec("codec:utf-8"))
    requests = [Request("encode", scalars=(0x41,)), Request("encode", scalars=(0x42,))]
    codec = Prefetched(asked, list(zip(requests, asked.ask_until_failure(requests), strict=True)))
    assert codec.encode((0x41,)) == outcome_of(asked.codec, requests[0])
    assert codec.encode((0x43,)) == outcome_of(asked.codec, Request("encode", scalars=(0x43,)))
    assert codec.encode((0x42,)) == outcome_of(asked.codec, requests[1])
    assert asked.alone == [Request("encode", scalars=(0x43,))]


def test_only_a_codec_that_takes_many_requests_at_once_is_prefetched() -> None:
    codec = load_codec("codec:utf-8")
    vector = next(iter(vectors()))
    plan = schedule(vectors(), "default").plan(vector)
    capabilities = capabilities_for(vector, CAPABILITIES)
    assert prefetched(codec, vector, capabilities, plan) is codec
    assert isinstance(prefetched(Asked(codec), vector, capabilities, plan), Prefetched)
    assert planned(vector, capabilities, plan)


def test_a_signal_while_a_vectors_questions_are_asked_at_once_interrupts_them() -> None:
    # A signal handler calls stop.request (interrupt.py): while the codec is being asked, that
    # raises Interrupted at once, so a batch of questions does not hold a stop back.
    stop = Stop()

    class Signalled(Asked):
        def ask_until_failure(self, requests: Sequence[Request]) -> list[Outcome]:
            stop.request("SIGTERM", 15)  # as the handler does, mid-batch
            raise AssertionError("not interrupted")

    vector = next(iter(vectors()))
    plan = schedule(vectors(), "default").plan(vector)
    codec = Signalled(load_codec("codec:utf-8"))
    with pytest.raises(Interrupted, match="SIGTERM"):
        prefetched(codec, vector, capabilities_for(vector, CAPABILITIES), plan, stop)
