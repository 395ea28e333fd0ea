"""Hostile codecs (tests/support/hostile_codecs.py) under the pytest plugin, pytest run as a real
process:
a fault fails the items of the vectors holding C0 and no other, the session goes on; a signal
while the codec hangs ends the session as a Ctrl-C does, its JUnit XML written, no process left
behind; a hostile vector file is a usage error, never an INTERNALERROR."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from functools import cache
from pathlib import Path

import pytest
import xmlschema
from support.hostile_codecs import MARK, c0_vectors
from support.leftovers import survivors, tagged_environment

from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB
from utf8cert.harness.plugin import pytest_plugin
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import EncodeVector

TESTS = Path(__file__).resolve().parents[1]
NO_CACHE = ("-p", "no:cacheprovider", "-p", "no:randomly")
TIMEOUT = 300
CHOSEN = ("sec-1", "sec-10", "sec-11")
JUNIT_10 = xmlschema.XMLSchema(str(TESTS / "reports" / "junit-10.xsd"))
"""The published schema of pytest's default JUnit family, xunit2 (its header says where from)."""
"""The vectors the items are chosen from (-k): sec-1 holds C0, the others do not."""


@cache
def decoding() -> frozenset[str]:
    return frozenset(v.id for v in load_vectors() if not isinstance(v, EncodeVector))


def selection() -> tuple[str, str]:
    return ("-k", " or ".join(f"{vector}[" for vector in CHOSEN))


def pytest_run(
    tmp_path: Path, *arguments: str, mark: Path | None = None
) -> tuple[subprocess.CompletedProcess[str], str]:
    """Return the finished `pytest ARGUMENTS` run in `tmp_path`, and its processes' tag."""
    env, tag = environment(mark)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *arguments, *NO_CACHE],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    return done, tag


def environment(mark: Path | None = None) -> tuple[dict[str, str], str]:
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    extra = {"PYTHONPATH": path} | ({MARK: str(mark)} if mark is not None else {})
    return tagged_environment(**extra)


def outcomes(report: Path) -> dict[str, str]:
    """Return each test case of a JUnit XML report by name: 'failure', 'error' or 'passed'."""
    found = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        found[str(case.get("name"))] = kinds[0] if kinds else "passed"
    return found


SLOW = [pytest.mark.slow]
CASES = [
    pytest.param("CrashOnC0", (), id="CrashOnC0-in-process"),
    pytest.param("InterruptOnC0", (), id="InterruptOnC0-in-process"),
    # Each fault through a child is judged by the engine `utf8cert check` uses, where each is
    # in the default tier (tests/check/test_hostile.py): here the hang, the rest slow (a
    # segfault and an exit in a child fail their items in the default tier all the same: the
    # isolated runs of test_in_process_a_segfault... and test_in_process_os_exit...).
    pytest.param("CrashOnC0", ("--utf8-isolate",), id="CrashOnC0-isolated", marks=SLOW),
    pytest.param("ExitOnC0", ("--utf8-isolate",), id="ExitOnC0-isolated", marks=SLOW),
    pytest.param("InterruptOnC0", ("--utf8-isolate",), id="InterruptOnC0-isolated", marks=SLOW),
    pytest.param("SegfaultOnC0", ("--utf8-isolate",), id="SegfaultOnC0-isolated", marks=SLOW),
    pytest.param("HangOnC0", ("--utf8-isolate", "--utf8-timeout", "2"), id="HangOnC0-isolated"),
]


@pytest.mark.parametrize(("name", "options"), CASES)
@pytest.mark.slow
def test_a_fault_fails_the_items_of_the_c0_vectors_alone_and_the_session_goes_on(
    tmp_path: Path, name: str, options: tuple[str, ...]
) -> None:
    report = tmp_path / "junit.xml"
    spec = f"support.hostile_codecs:{name}"
    arguments = ("--utf8-codec", spec, *options, *selection(), f"--junitxml={report}")
    done, tag = pytest_run(tmp_path, *arguments)
    # Not INTERRUPTED: a KeyboardInterrupt of the codec's own did not end the session.
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    found = outcomes(report)
    c0 = [vector for vector in CHOSEN if vector in c0_vectors()]
    failed = {name for name, outcome in found.items() if outcome != "passed"}
    assert failed == {
        f"{case.split('/')[0]}/{vector}[{capability}]"
        for case in found
        for vector in c0
        for capability in ("decode", "replace", "validate", "incremental")
        if f"/{vector}[" in case
    }
    assert {found[case] for case in failed} == {"failure"}
    assert len(found) == 4 * sum(1 for vector in CHOSEN if vector in decoding())
    assert "INTERNALERROR" not in done.stdout + done.stderr
    assert survivors(tag) == []


@pytest.mark.slow
def test_in_process_a_segfault_names_the_item_and_how_to_run_it_isolated(tmp_path: Path) -> None:
    done, tag = pytest_run(
        tmp_path, "--utf8-codec", "support.hostile_codecs:SegfaultOnC0", *selection()
    )
    assert done.returncode == -signal.SIGSEGV
    assert (
        "the codec was asked vector sec-1 on decode in this process and took it down; in a "
        "child process that is a failure: pytest --utf8-codec support.hostile_codecs:SegfaultOnC0 "
        "--utf8-fail-on must --utf8-isolate -k 'sec-1[decode]'"
    ) in done.stderr
    again, _ = pytest_run(
        tmp_path,
        "--utf8-codec",
        "support.hostile_codecs:SegfaultOnC0",
        "--utf8-isolate",
        "-k",
        "sec-1[",
    )
    assert again.returncode == pytest.ExitCode.TESTS_FAILED
    assert "crash: the program was killed by SIGSEGV" in again.stdout
    assert survivors(tag) == []


@pytest.mark.slow
def test_in_process_os_exit_names_the_item_and_how_to_run_it_isolated(tmp_path: Path) -> None:
    # os._exit takes no signal, so faulthandler sees nothing: the note is written by the
    # os._exit the plugin puts in place while it asks an in-process codec.
    done, tag = pytest_run(
        tmp_path, "--utf8-codec", "support.hostile_codecs:ExitOnC0", *selection()
    )
    assert done.returncode == 3
    lines = done.stderr.splitlines()
    called = lines.index("utf8cert: the codec called os._exit(3)")
    assert lines[called + 1] == (
        "utf8cert: the codec was asked vector sec-1 on decode in this process and took it down; "
        "in a child process that is a failure: pytest --utf8-codec support.hostile_codecs:ExitOnC0 "
        "--utf8-fail-on must --utf8-isolate -k 'sec-1[decode]'"
    )
    again, _ = pytest_run(
        tmp_path,
        "--utf8-codec",
        "support.hostile_codecs:ExitOnC0",
        "--utf8-isolate",
        "-k",
        "sec-1[",
    )
    assert again.returncode == pytest.ExitCode.TESTS_FAILED
    assert "crash: the program exited with status 3" in again.stdout
    assert survivors(tag) == []


def interrupted(
    tmp_path: Path, number: signal.Signals, *arguments: str
) -> tuple[subprocess.Popen[str], str, str]:
    """Return the `pytest ARGUMENTS --junitxml=junit.xml` process run in `tmp_path`, sent
    `number` once a hostile codec (or test) wrote the mark file, and its stdout and stderr."""
    mark = tmp_path / "hanging"
    env, tag = environment(mark)
    command = [sys.executable, "-m", "pytest", *arguments, "--junitxml=junit.xml", *NO_CACHE]
    with subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        deadline = time.monotonic() + TIMEOUT
        while not (mark.exists() and mark.read_text()):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the codec never hung"
            time.sleep(0.05)
        process.send_signal(number)  # to pytest alone (an xdist controller: not its workers)
        out, err = process.communicate(timeout=TIMEOUT)
    assert survivors(tag) == []
    return process, out, err


def incomplete(report: Path, number: signal.Signals) -> set[str]:
    """Return the cases of the JUnit report that fail, asserting that it is whole and valid
    (pytest alone writes the case under way without a name), marked INCOMPLETE, and that each
    of them fails with why the session stopped."""
    JUNIT_10.validate(str(report))
    root = ElementTree.parse(report).getroot()
    why = f"INCOMPLETE: stopped by {number.name}"
    assert [p.get("value") for p in root.iter("property") if p.get("name") == "utf8cert"] == [why]
    failures = {
        str(case.get("name")): failure.get("message")
        for case in root.iter("testcase")
        if (failure := case.find("failure")) is not None
    }
    assert set(failures.values()) <= {why}
    return set(failures)


@pytest.mark.parametrize(
    ("number", "isolate"),
    [
        pytest.param(signal.SIGTERM, False, id="15-in process"),
        pytest.param(signal.SIGINT, True, id="2-isolated"),
        pytest.param(signal.SIGTERM, True, id="15-isolated", marks=SLOW),
        pytest.param(signal.SIGINT, False, id="2-in process", marks=SLOW),
    ],
)
@pytest.mark.slow
def test_a_signal_while_the_codec_hangs_ends_the_session_with_its_junit_report(
    tmp_path: Path, isolate: bool, number: signal.Signals
) -> None:
    options = ["--utf8-isolate", "--utf8-timeout", "120"] if isolate else []
    spec = ("--utf8-codec", "support.hostile_codecs:HangOnC0")
    process, out, err = interrupted(tmp_path, number, *spec, *options, *selection())
    assert process.returncode == pytest.ExitCode.INTERRUPTED, out + err
    assert f"utf8cert: stopped by {number.name}" in out
    assert "INTERNALERROR" not in out + err
    assert incomplete(tmp_path / "junit.xml", number) == {"security/sec-1[decode]"}


HANGING_TEST = f"""
import os, time

def test_hangs():
    with open(os.environ[{MARK!r}], "w") as mark:
        mark.write("hanging")
    time.sleep({TIMEOUT})
"""


@pytest.mark.slow
def test_a_sighup_in_a_test_of_the_project_ends_the_session_with_its_junit_report(
    tmp_path: Path,
) -> None:
    # Outside the suite's items: the session's own handler, beside the project's test.
    (tmp_path / "test_own.py").write_text(HANGING_TEST, encoding="utf-8")
    spec = ("--utf8-codec", "codec:utf-8")
    process, out, err = interrupted(tmp_path, signal.SIGHUP, *spec, "-k", "sec-1[ or hangs")
    assert process.returncode == pytest.ExitCode.INTERRUPTED, out + err
    assert "INTERNALERROR" not in out + err
    assert incomplete(tmp_path / "junit.xml", signal.SIGHUP) == {"test_hangs"}


@pytest.mark.slow
def test_a_sigterm_to_the_xdist_controller_ends_the_session_with_its_junit_report(
    tmp_path: Path,
) -> None:
    # The controller runs no item: the session's handler there, the items under way in the
    # workers failed from their setup reports, the workers ended.
    spec = ("--utf8-codec", "support.hostile_codecs:HangOnC0", "-n", "2")
    process, out, err = interrupted(tmp_path, signal.SIGTERM, *spec, *selection())
    assert process.returncode == pytest.ExitCode.INTERRUPTED, out + err
    assert "INTERNALERROR" not in out + err
    stopped = incomplete(tmp_path / "junit.xml", signal.SIGTERM)
    c0 = {f"security/sec-1[{each}]" for each in ("decode", "replace", "validate", "incremental")}
    assert stopped and stopped <= c0  # each worker stops on the C0 vector it is asked


@pytest.mark.slow
def test_a_vector_file_the_loader_trips_on_is_a_usage_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("vectors: " + "[" * 2000 + "]" * 2000 + "\n")
    done, _ = pytest_run(tmp_path, "--utf8-codec", "codec:utf-8", "--utf8-vectors", str(deep))
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert "INTERNALERROR" not in done.stdout + done.stderr
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and errors[0].startswith("ERROR: utf8cert: ")


@pytest.mark.slow
def test_a_memory_limit_fails_a_hog_as_memory_and_its_reproducer_carries_the_limit(
    tmp_path: Path,
) -> None:
    # HogOnC0 takes 1 GiB on C0: granted under the default 2048 MiB, refused under 256.
    (tmp_path / "pytest.ini").write_text("[pytest]\nutf8_memory = 256\n", encoding="utf-8")
    spec = "support.hostile_codecs:HogOnC0"
    done, tag = pytest_run(tmp_path, "--utf8-codec", spec, "--utf8-isolate", "-k", "sec-1[")
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    assert "ran out of memory" in done.stdout
    assert "crashed" not in done.stdout
    assert f"utf8cert check {spec} --timeout 10 --memory 256 --input" in done.stdout
    refused, _ = pytest_run(tmp_path, "--utf8-codec", spec, "--utf8-memory", "0")
    assert refused.returncode == pytest.ExitCode.USAGE_ERROR
    assert "the memory limit must be at least 1 MiB, not 0" in refused.stderr
    assert survivors(tag) == []


@pytest.mark.slow
def test_the_hog_passes_where_the_memory_limit_grants_its_gibibyte(tmp_path: Path) -> None:
    spec = "support.hostile_codecs:HogOnC0"
    granted, tag = pytest_run(
        tmp_path, "--utf8-codec", spec, "--utf8-isolate", "--utf8-memory", "2048", "-k", "sec-1["
    )
    assert granted.returncode == pytest.ExitCode.OK, granted.stdout + granted.stderr
    assert survivors(tag) == []


def test_the_plugins_default_memory_limit_is_the_codec_wings() -> None:
    assert pytest_plugin.DEFAULT_MEMORY_MB == DEFAULT_MEMORY_MB
