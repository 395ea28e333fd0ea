"""Copies of a failing program asking the vectors ahead (harness/check/ahead.py): the report is
the one asking the program itself one question at a time gives, copies start only once the codec
has failed, and a run stopped while they ask leaves no process behind. Real programs
(tests/support/hostile_programs.py: correct until an input holds byte C0), real signals."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from functools import cache
from pathlib import Path

import pytest
from support.hostile_codecs import MARK, c0_vectors
from support.leftovers import survivors, tagged_environment
from support.samples import few_of_each_kind

from utf8cert.harness.check.ahead import COPIES
from utf8cert.harness.check.prefetch import asked_ahead
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.codec.interface import Codec, Failed, Outcome
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.codec.protocol import AskingCodec, Request
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import EncodeVector, VectorSet

TESTS = Path(__file__).resolve().parents[1]
PROGRAM = TESTS / "support" / "hostile_programs.py"
TIMEOUT = 300  # seconds a run may take on a loaded 2-core machine before the test gives up


def program(mode: str) -> ProcessCodec:
    codec = load_codec(f"cmd:{sys.executable} {PROGRAM} {mode}")
    assert isinstance(codec, ProcessCodec)
    return codec


class OneByOne(AskingCodec):
    """A program asked one question at a time, as a codec that cannot take many: no prefetch,
    no copies; the circuit breaker alone spares it."""

    def __init__(self, codec: ProcessCodec) -> None:
        self.codec = codec
        self.spec, self.description = codec.spec, codec.description
        self.capabilities = codec.capabilities

    def ask(self, request: Request) -> Outcome:
        return self.codec.ask(request)

    def close(self) -> None:
        self.codec.close()


@cache
def chosen(c0: int) -> VectorSet:
    """Return the first `c0` vectors holding C0 and every vector before the last of them."""
    every = load_vectors()
    order = [vector.id for vector in every]
    faulty = sorted(c0_vectors(), key=order.index)[:c0]
    return only_these(every, order[: order.index(faulty[-1]) + 1])


def shown(report: Report) -> list[tuple[str, str, str, str, str]]:
    return [(d.vector, d.variant, d.capability, d.level, d.what) for d in report.differences]


def copies_seen(codec: Codec, vectors: VectorSet) -> tuple[Report, set[str]]:
    """Return the report of `codec` and the names of the copy threads alive as it went."""
    names: set[str] = set()

    def progress(done: int, total: int) -> None:
        names.update(t.name for t in threading.enumerate() if t.name.startswith("utf8cert copy"))

    return run_check(codec, vectors, progress), names


# The copies ask the same way whatever ended the program: one crash kind in the default tier.
@pytest.mark.parametrize("mode", ["exit", pytest.param("segfault", marks=pytest.mark.slow)])
@pytest.mark.slow
def test_copies_give_the_report_that_asking_the_program_itself_gives(mode: str) -> None:
    vectors = chosen(8)
    ahead, names = copies_seen(program(mode), vectors)
    assert len(names) == COPIES  # they asked the vectors after the first crash
    alone = run_check(OneByOne(program(mode)), vectors)
    assert shown(ahead) == shown(alone)
    assert ahead.coverage == alone.coverage
    assert {d.vector for d in ahead.differences} == c0_vectors() & {v.id for v in vectors}


@pytest.mark.exhaustive
def test_copies_give_the_same_report_on_a_program_that_hangs() -> None:
    vectors = chosen(3)
    ahead, names = copies_seen(program("hang"), vectors)
    assert names
    alone = run_check(OneByOne(program("hang")), vectors)
    assert shown(ahead) == shown(alone)
    assert ahead.coverage == alone.coverage


@pytest.mark.slow
def test_a_program_that_never_fails_gets_no_copy() -> None:
    # A few vectors of each kind, those holding C0 left out (the program hangs on them).
    every = load_vectors()
    few = set(few_of_each_kind())
    clean = {
        v.id
        for v in every
        if v.id in few and (isinstance(v, EncodeVector) or v.id not in c0_vectors())
    }
    report, names = copies_seen(program("hang"), only_these(every, clean))
    assert names == set()
    assert report.differences == []


def test_after_a_failure_the_rest_of_its_capability_is_not_asked_the_others_are() -> None:
    bad, good = b"\xc0\x80", b"ok"
    requests = [
        Request("decode", data=good),
        Request("decode", data=bad),
        Request("decode", data=good + good),
        Request("validate", data=good),
        Request("validate", data=bad),
        Request("validate", data=good + good),
        Request("replace", data=good),
    ]
    answers = asked_ahead(program("exit").ask_until_failure, requests)
    assert [request for request, _ in answers] == [requests[i] for i in (0, 1, 3, 4, 6)]
    assert [type(outcome) is Failed for _, outcome in answers] == [0, 1, 0, 1, 0]


def test_a_signal_while_copies_wait_on_hangs_stops_the_run_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    mark = tmp_path / "hanging"
    env, tag = tagged_environment(PYTHONPATH=str(TESTS), **{MARK: str(mark)})
    report = tmp_path / "r.json"
    spec = f"cmd:{sys.executable} {PROGRAM} hang"
    command = [sys.executable, "-m", "utf8cert.harness", "check", spec, "--json", str(report)]
    with subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        # The first vector holding C0 hangs on its four capabilities in turn; after it the
        # copies hang at once: more hangs than four means copies are waiting.
        deadline = time.monotonic() + TIMEOUT
        while not mark.exists() or len(mark.read_text().split()) < 4 + 2:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the copies never hung"
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "INCOMPLETE: stopped by SIGTERM" in out
    assert json.loads(report.read_text())["complete"] is False
    assert "Traceback" not in err
    assert survivors(tag) == [], "processes left behind"
