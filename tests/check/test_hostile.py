"""Hostile codecs (tests/support/hostile_codecs.py, tests/support/hostile_programs.py: correct
until given byte
C0, then they hang, crash, exit, raise KeyboardInterrupt or segfault) through the check engine
and real `utf8cert check` processes: each fault is reported once per vector and capability,
against the vectors holding C0 and no other; the rest of the suite is still evaluated; the exit
status is right; utf8cert prints no traceback; and no process is left behind
(tests/support/leftovers.py
lists the processes that carry the run's tag)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from support.hostile_codecs import MARK, c0_vectors
from support.leftovers import survivors, tagged_environment

from utf8cert.harness.check.coverage import THRESHOLD, Coverage
from utf8cert.harness.check.interrupt import Stop, watching
from utf8cert.harness.check.report import Report
from utf8cert.harness.check.run import capabilities_for, check_vector, only_these, run_check
from utf8cert.harness.check.schedule import schedule
from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import EncodeVector, VectorSet

TESTS = Path(__file__).resolve().parents[1]
PROGRAM = TESTS / "support" / "hostile_programs.py"
DECODING: tuple[Capability, ...] = ("decode", "replace", "validate", "incremental")
TIMEOUT = 300  # seconds a run may take on a loaded 2-core machine before the test gives up
FAILURE = {"HangOnC0": "timed out", "hang": "timed out"}
"""What each fault is reported as: a crash, unless it hangs."""


@cache
def vectors() -> VectorSet:
    return load_vectors()


@cache
def few(hanging: bool = False) -> tuple[str, ...]:
    """Return a few vector ids: two holding C0 (one for a codec that hangs: each of its
    capabilities costs the timeout), two decoding ones and one encoding one without."""
    decoding = [v.id for v in vectors() if not isinstance(v, EncodeVector)]
    clean = [i for i in decoding if i not in c0_vectors()]
    encoding = next(v.id for v in vectors() if isinstance(v, EncodeVector))
    return (*sorted(c0_vectors())[: 1 if hanging else 2], *clean[:2], encoding)


@cache
def with_c0() -> tuple[str, ...]:
    """Return the vectors the in-process runs check: every one holding C0, with as many
    decoding ones without and the first encoding one, in the built-in order. The circuit breaker
    is the same on the whole set (test_isolated_every_vector_each_fault_on_the_c0_vectors_alone,
    exhaustive), at a tenth of the cost."""
    clean = [v.id for v in vectors() if v.id not in c0_vectors()]
    decoding = [v.id for v in vectors() if v.id in clean and not isinstance(v, EncodeVector)]
    encoding = next(v.id for v in vectors() if isinstance(v, EncodeVector))
    chosen = {*c0_vectors(), *decoding[: len(c0_vectors())], encoding}
    return tuple(v.id for v in vectors() if v.id in chosen)


def selected(ids: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(word for vector in ids for word in ("--vector", vector))


def universe(ids: tuple[str, ...] | None) -> VectorSet:
    return vectors() if ids is None else only_these(vectors(), ids)


@cache
def checked(name: str, ids: tuple[str, ...] | None = None) -> Report:
    return run_check(load_codec(f"support.hostile_codecs:{name}"), universe(ids))


@cache
def asked(ids: tuple[str, ...], among: tuple[str, ...] | None = None) -> Coverage:
    """Return the questions a run of the vectors `among` (every vector for None) asks the
    vectors `ids`, in all (each in the variants that set's schedule gives it), of a codec that
    never fails."""
    plans, coverage = schedule(universe(among)), Coverage()
    codec = coverage.watch(load_codec("support.hostile_codecs:NoFault"))
    for vector in universe(among):
        if vector.id in ids:
            capabilities = capabilities_for(vector, codec.capabilities)
            check_vector(codec, vector, capabilities, coverage=coverage, plan=plans.plan(vector))
    return coverage


def questions(vector: str, capability: Capability) -> int:
    return asked((vector,), with_c0()).of(capability).answered


def blamed(differences: list[Any]) -> Counter[tuple[str, str]]:
    return Counter((d.vector, d.capability) for d in differences)


# The circuit breaker, in process


@pytest.mark.slow
def test_a_crash_is_one_difference_per_vector_and_capability_the_rest_skipped() -> None:
    crashed, calm = checked("CrashOnC0", with_c0()), checked("NoFault", with_c0())
    assert not calm.differences
    every = {(vector, capability) for vector in c0_vectors() for capability in DECODING}
    assert blamed(crashed.differences) == Counter(every)  # once each, no other vector
    for capability in DECODING:
        # The first question of each vector was answered (the crash); the rest were skipped.
        asked, mine = calm.coverage.of(capability), crashed.coverage.of(capability)
        questions_on_c0 = sum(questions(vector, capability) for vector in c0_vectors())
        assert mine.skipped == questions_on_c0 - len(c0_vectors())
        assert mine.answered + mine.skipped == asked.answered
    assert crashed.checked == calm.checked  # every vector was still checked


@pytest.mark.slow
def test_the_crash_says_how_many_questions_were_skipped_after_it() -> None:
    crashed = checked("CrashOnC0", with_c0())
    for difference in crashed.differences:
        skipped = questions(difference.vector, difference.capability) - 1
        if skipped:
            suffix = "question" if skipped == 1 else "questions"
            assert difference.actual.endswith(
                f"; {skipped} more {suffix} of {difference.vector} on {difference.capability} "
                "skipped"
            )
        assert difference.actual.startswith("crash: RuntimeError: C0 is not handled")


@pytest.mark.slow
def test_skipped_questions_count_against_the_share_and_the_crash_is_not_certified() -> None:
    crashed = checked("CrashOnC0", with_c0())
    for capability in DECODING:
        coverage = crashed.coverage.of(capability)
        assert coverage.share == coverage.answered / coverage.asked < THRESHOLD
        assert capability in crashed.coverage.uncertified()
    assert not crashed.certified
    assert "not certified for decode" in crashed.verdict()


def test_a_keyboard_interrupt_of_the_codec_is_a_crash_while_signals_are_watched() -> None:
    stop = Stop()
    with watching(stop):
        interrupted = run_check(
            load_codec("support.hostile_codecs:InterruptOnC0"), universe(with_c0()), stop=stop
        )
    assert set(blamed(interrupted.differences)) == {
        (vector, capability) for vector in c0_vectors() for capability in DECODING
    }
    assert {d.actual.split(";")[0] for d in interrupted.differences} == {"crash: KeyboardInterrupt"}


def test_unwatched_a_keyboard_interrupt_no_sigint_came_with_is_a_crash_too() -> None:
    # No SIGINT arrived (harness/codec/interrupts.py counts them), so the codec raised it: a
    # crash. A real Ctrl-C during a call still stops the run (tests/codec/test_python_codec.py).
    codec = load_codec("support.hostile_codecs:InterruptOnC0")
    interrupted = run_check(codec, universe(with_c0()))
    assert set(blamed(interrupted.differences)) == {
        (vector, capability) for vector in c0_vectors() for capability in DECODING
    }
    assert {d.actual.split(";")[0] for d in interrupted.differences} == {"crash: KeyboardInterrupt"}


def test_a_stopped_run_reports_the_vectors_it_finished_and_nothing_else() -> None:
    stop = Stop()

    def progress(done: int, total: int) -> None:
        if done == 7:
            stop.request("a test")  # between two questions: the next one stops the run

    report = run_check(load_codec("support.hostile_codecs:NoFault"), vectors(), progress, stop=stop)
    first = tuple(vector.id for vector in vectors())[:7]
    assert report.incomplete == f"stopped by a test after 7 of {len(vectors())} vectors"
    assert [vector.id for vector in report.vectors] == list(first)
    assert report.checked == checked("NoFault", first).checked
    assert report.coverage == asked(first)
    assert report.verdict().startswith(f"INCOMPLETE ({report.incomplete}): ")
    assert not report.certified


# Real `utf8cert check` runs


def utf8cert(*arguments: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "check", *arguments],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def environment(mark: Path | None = None) -> tuple[dict[str, str], str]:
    """Return an environment with tests/ importable and a fresh tag, and the tag."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    extra = {"PYTHONPATH": path} | ({MARK: str(mark)} if mark is not None else {})
    return tagged_environment(**extra)


def assert_clean(done: subprocess.CompletedProcess[str], tag: str) -> None:
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert survivors(tag) == [], "processes left behind"


def program(mode: str) -> str:
    return f"cmd:{sys.executable} {PROGRAM} {mode}"


def assert_blames_exactly(document: dict[str, Any], c0: set[str], what: str) -> None:
    """A crash is blamed on each question holding C0; a hang on the first alone, which had the
    whole --timeout (a slow answer is no hang: codec/pace.py): the later questions that hang are
    skipped after their paced time, never failed, and counted as skipped."""
    found = Counter((d["vector"], d["capability"]) for d in document["differences"])
    assert {d["what"] for d in document["differences"]} == {what}
    if what != "timed out":
        assert found == Counter({(v, capability): 1 for v in c0 for capability in DECODING})
        return
    # A hang fails only after the whole --timeout (2 s here). After it, the vector's other
    # questions on that capability are skipped (breaker.py), and a hang on another capability
    # is cut short at its paced time, skipped (pace.py): unless the machine is so loaded that
    # the paced time reaches the whole timeout, and then that hang is one for real. Either way
    # each question holding C0 is failed at most once a capability, or skipped for the hang.
    assert found and {vector for vector, _ in found} <= c0
    assert set(found.values()) == {1}
    for hang in document["differences"]:
        assert hang["actual"].startswith("timeout: no answer within 2 s")
    skipped = Counter[str]()
    for counted in document["coverage"].values():
        skipped.update(counted["skipped_for"])
    hang_reasons = ("after a hang on decode ", "the codec crashed or hung on this vector already")
    assert skipped, "the other questions holding C0 were asked, not skipped"
    assert all(any(why in reason for why in hang_reasons) for reason in skipped), skipped
    assert not document["certified"]


# The CLI's in-process run of InterruptOnC0 is slow: the engine test above with signals watched
# (as the CLI watches them) judges the same codec the same way, in process.
@pytest.mark.parametrize(
    "name", ["CrashOnC0", pytest.param("InterruptOnC0", marks=pytest.mark.slow)]
)
def test_in_process_a_raising_codec_is_reported_on_the_c0_vectors_alone(
    tmp_path: Path, name: str
) -> None:
    env, tag = environment()
    spec, ids = f"support.hostile_codecs:{name}", with_c0()
    done = utf8cert(spec, "--in-process", *selected(ids), "--json", "-", cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert_blames_exactly(document, set(c0_vectors()), "crashed")
    assert document["summary"]["checked"] == checked("NoFault", ids).checked
    assert document["complete"] is True
    assert_clean(done, tag)


FAULTS = [
    ("CrashOnC0", ()),
    ("ExitOnC0", ()),
    ("InterruptOnC0", ()),
    ("SegfaultOnC0", ()),
    ("HangOnC0", ("--timeout", "2")),
]
# Each fault x isolated Python child or program: each fault and each kind of codec keeps a case
# in the default tier. Crash and interrupt are the isolated child's alone; its exit is
# test_by_default_a_codec_calling_os_exit_0_fails_the_check, its segfault the rerun in
# test_in_process_a_segfault_names_the_question_and_how_to_rerun_isolated, and exit, segfault
# and hang each a program's in test_a_faulty_program_is_reported_on_the_c0_vectors_alone.
ISOLATED_FAULTS = [
    pytest.param(
        *fault, marks=[] if fault[0] in ("CrashOnC0", "InterruptOnC0") else [pytest.mark.slow]
    )
    for fault in FAULTS
]


@pytest.mark.parametrize(("name", "options"), ISOLATED_FAULTS)
def test_isolated_each_fault_is_reported_on_the_c0_vectors_alone(
    tmp_path: Path, name: str, options: tuple[str, ...]
) -> None:
    env, tag = environment()
    spec, ids = f"support.hostile_codecs:{name}", few(name == "HangOnC0")
    done = utf8cert(
        spec, "--isolate", *options, *selected(ids), "--json", "-", cwd=tmp_path, env=env
    )
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    c0 = set(ids) & c0_vectors()
    assert_blames_exactly(document, c0, FAILURE.get(name, "crashed"))
    assert document["summary"]["checked"] == checked("NoFault", ids).checked
    assert_clean(done, tag)


@pytest.mark.parametrize("mode", ["exit", "segfault", "hang"])
def test_a_faulty_program_is_reported_on_the_c0_vectors_alone(tmp_path: Path, mode: str) -> None:
    env, tag = environment()
    options, ids = ("--timeout", "2") if mode == "hang" else (), few(mode == "hang")
    done = utf8cert(program(mode), *options, *selected(ids), "--json", "-", cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    assert_blames_exactly(
        json.loads(done.stdout), set(ids) & c0_vectors(), FAILURE.get(mode, "crashed")
    )
    assert_clean(done, tag)


@pytest.mark.exhaustive
@pytest.mark.parametrize(("name", "options"), FAULTS)
def test_isolated_every_vector_each_fault_on_the_c0_vectors_alone(
    tmp_path: Path, name: str, options: tuple[str, ...]
) -> None:
    env, tag = environment()
    spec = f"support.hostile_codecs:{name}"
    done = utf8cert(spec, "--isolate", *options, "--json", "-", cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert_blames_exactly(document, set(c0_vectors()), FAILURE.get(name, "crashed"))
    assert document["summary"]["checked"] == checked("NoFault").checked
    assert_clean(done, tag)


@pytest.mark.slow
def test_in_process_a_segfault_names_the_question_and_how_to_rerun_isolated(
    tmp_path: Path,
) -> None:
    env, tag = environment()
    done = utf8cert("support.hostile_codecs:SegfaultOnC0", "--in-process", cwd=tmp_path, env=env)
    assert done.returncode == -signal.SIGSEGV
    assert "Fatal Python error: Segmentation fault" in done.stderr
    [note] = [line for line in done.stderr.splitlines() if "the codec was asked" in line]
    vector = note.split("the codec was asked vector ")[1].split()[0]
    assert vector in c0_vectors()
    assert " on decode in this process" in note
    command = note.split("in a child process that is a finding: ")[1].split('", line')[0]
    words = command.split()
    # isolated is the default: the command names no option for it
    assert words[:4] == ["utf8cert", "check", "support.hostile_codecs:SegfaultOnC0", "--vector"]
    again = utf8cert(*words[2:], "--json", "-", cwd=tmp_path, env=env)
    assert again.returncode == 1, again.stderr
    assert_blames_exactly(json.loads(again.stdout), {vector}, "crashed")
    assert survivors(tag) == []


def test_in_process_os_exit_names_the_question_before_the_process_ends(tmp_path: Path) -> None:
    # os._exit takes no signal, so faulthandler sees nothing: the note is written by the
    # os._exit utf8cert puts in place while it asks an in-process codec.
    env, tag = environment()
    done = utf8cert("support.hostile_codecs:ExitOnC0", "--in-process", cwd=tmp_path, env=env)
    assert done.returncode == 3
    lines = done.stderr.splitlines()
    called = lines.index("utf8cert: the codec called os._exit(3)")
    note = lines[called + 1]
    assert note.startswith("utf8cert: the codec was asked vector ")
    vector = note.split("was asked vector ")[1].split()[0]
    assert vector in c0_vectors()
    assert " on decode in this process" in note
    command = note.split("in a child process that is a finding: ")[1]
    assert command.startswith("utf8cert check support.hostile_codecs:ExitOnC0 --vector ")
    assert "Traceback" not in done.stderr
    assert survivors(tag) == []


# --isolate says the default: the same run as without it, so that one is slow.
@pytest.mark.parametrize("isolation", [(), pytest.param(("--isolate",), marks=pytest.mark.slow)])
@pytest.mark.slow
def test_by_default_a_codec_calling_os_exit_0_fails_the_check(
    tmp_path: Path, isolation: tuple[str, ...]
) -> None:
    # In process, os._exit(0) would end utf8cert with status 0, a pass: by default (and with
    # --isolate, the default said) the codec runs in a child, whose death fails its questions.
    env, tag = environment()
    spec, ids = "support.hostile_codecs:ExitZeroOnC0", few()
    done = utf8cert(spec, *isolation, *selected(ids), "--json", "-", cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert_blames_exactly(document, set(ids) & c0_vectors(), "crashed")
    assert all("exited with status 0" in d["actual"] for d in document["differences"])
    assert_clean(done, tag)


def test_in_process_a_codec_calling_os_exit_0_ends_the_run_as_it_asks(tmp_path: Path) -> None:
    # What --in-process trusts: the codec can end the process, here with status 0.
    env, tag = environment()
    done = utf8cert("support.hostile_codecs:ExitZeroOnC0", "--in-process", cwd=tmp_path, env=env)
    assert done.returncode == 0
    assert "utf8cert: the codec called os._exit(0)" in done.stderr.splitlines()
    assert survivors(tag) == []


@pytest.mark.slow
def test_a_program_that_never_reads_its_input_fails_once_and_the_rest_is_skipped(
    tmp_path: Path,
) -> None:
    env, tag = environment()
    done = utf8cert(program("deaf"), "--timeout", "2", "--json", "-", cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    [hang] = document["differences"]  # its first question, which had the whole --timeout
    assert hang["what"] == "timed out"
    assert hang["actual"].startswith("timeout: no answer within 2 s: the program read none")
    assert document["complete"] is True and not document["certified"]
    for capability, counted in document["coverage"].items():
        assert not counted["certified"], capability
        reasons = set(counted["skipped_for"])
        assert any(reason.startswith("the program read none of its input") for reason in reasons)
    assert_clean(done, tag)


# Signals and the deadline: the reports asked for are written, marked incomplete


MODES = {
    "in process": ["support.hostile_codecs:HangOnC0", "--in-process"],
    "isolated": ["support.hostile_codecs:HangOnC0", "--isolate", "--timeout", "120"],
    "program": [program("hang"), "--timeout", "120"],
}


def reports(tmp_path: Path) -> list[str]:
    return [
        "--json",
        str(tmp_path / "r.json"),
        "--junit-xml",
        str(tmp_path / "r.xml"),
        "--markdown",
        str(tmp_path / "r.md"),
    ]


def wait_for(mark: Path, process: subprocess.Popen[str]) -> None:
    """Return once the codec has started to hang (it wrote its mark)."""
    deadline = time.monotonic() + TIMEOUT
    while not (mark.exists() and mark.read_text()):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the codec never hung"
        time.sleep(0.05)


def assert_incomplete(tmp_path: Path, why: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((tmp_path / "r.json").read_text())
    assert document["complete"] is False
    assert document["stopped"].startswith(f"stopped by {why} after ")
    assert document["summary"]["passed"] is False
    assert document["summary"]["verdict"].startswith("INCOMPLETE")
    assert "INCOMPLETE" in (tmp_path / "r.md").read_text()
    ElementTree.parse(tmp_path / "r.xml")
    return document


SIGNALS = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]
# Each signal and each mode in the default tier (the diagonal); the rest of the product slow.
SIGNAL_MODES = [
    pytest.param(number, mode, marks=[] if s == m else [pytest.mark.slow])
    for s, number in enumerate(SIGNALS)
    for m, mode in enumerate(MODES)
]


@pytest.mark.parametrize(("number", "mode"), SIGNAL_MODES)
def test_a_signal_while_the_codec_hangs_stops_the_run_with_its_reports(
    tmp_path: Path, mode: str, number: signal.Signals
) -> None:
    mark = tmp_path / "hanging"
    env, tag = environment(mark)
    command = [sys.executable, "-m", "utf8cert.harness", "check", *MODES[mode], *reports(tmp_path)]
    with subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        wait_for(mark, process)
        process.send_signal(number)  # to utf8cert alone, not its process group
        signalled = time.monotonic()
        out, err = process.communicate(timeout=TIMEOUT)
    # The call under way (the codec's timeout is 120 s) was cut, not waited for: also when the
    # check had asked a program a vector's questions at once (check/prefetch.py).
    assert time.monotonic() - signalled < 100
    assert process.returncode == 128 + number, err
    assert f"INCOMPLETE: stopped by {number.name}" in out
    document = assert_incomplete(tmp_path, number.name)
    # The vectors before the first holding C0 were checked, and are the report's.
    order = [vector.id for vector in vectors()]
    first = min(order.index(vector) for vector in c0_vectors())
    assert document["vectors"] == first
    assert "Traceback" not in err
    assert survivors(tag) == []


def test_the_deadline_stops_a_hanging_run_with_a_partial_report_and_no_baseline(
    tmp_path: Path,
) -> None:
    # The deadline must fall in the hang, not in the start: on a loaded machine starting
    # utf8cert and its isolated child took more than 3 s (the run then stops before any report).
    env, tag = environment()
    baseline = tmp_path / "baseline.json"
    started = time.monotonic()
    done = utf8cert(
        *MODES["isolated"],
        "--deadline",
        "15",
        *reports(tmp_path),
        "--write-baseline",
        str(baseline),
        cwd=tmp_path,
        env=env,
    )
    assert time.monotonic() - started < 100  # the call under way was cut, not waited for
    assert done.returncode == 3, done.stderr
    assert_incomplete(tmp_path, "the deadline of 15 s")
    assert "INCOMPLETE: stopped by the deadline of 15 s" in done.stdout
    # An incomplete run writes no baseline (the reports, marked INCOMPLETE, it writes).
    assert not baseline.exists()
    assert f"did not write {baseline}: the run is incomplete" in done.stderr
    assert_clean(done, tag)


class RaisesPastItsWrapper:
    """A Codec object (not behind PythonCodec) whose decode raises `error` on every input."""

    spec = description = "raises past its wrapper"
    capabilities = frozenset({"decode"})

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def decode(self, data: bytes) -> Any:
        raise self.error

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("error", "failure"),
    [
        (KeyboardInterrupt(), "crash: KeyboardInterrupt"),
        (SystemExit(3), "crash: SystemExit: 3"),
    ],
)
def test_a_codec_object_raising_past_its_wrapper_is_judged_as_pythoncodec_judges(
    error: BaseException, failure: str
) -> None:
    # No SIGINT arrived, so even unwatched a KeyboardInterrupt is the codec's (an Exception
    # from a Codec object is the harness's own error, and propagates).
    vector = next(iter(vectors()))
    codec: Any = RaisesPastItsWrapper(error)
    (difference,) = check_vector(codec, vector, ("decode",))
    assert difference.actual.split(";")[0] == failure
