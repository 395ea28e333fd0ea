"""Hostile codecs (tests/support/hostile_codecs.py) under `utf8cert fuzz`: every fault (an
exception, a
KeyboardInterrupt, os._exit, a segfault, a hang) is one finding with its input saved and a
reproducer that reports the fault when pasted: with --isolate for each that takes the fuzzing
process down (and --timeout for a hang), without for an exception, which `check` survives;
a signal to the command alone while the codec hangs stops libFuzzer and prints the summary; no
traceback, no process left behind."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.hostile_codecs import MARK, TRIGGER
from support.leftovers import survivors, tagged_environment

TESTS = Path(__file__).resolve().parents[1]
TIMEOUT = 300


def environment(mark: Path | None = None) -> tuple[dict[str, str], str]:
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    extra = {"PYTHONPATH": path}
    if mark is not None:  # reaching the codec in its sandbox: named to pass, its place writable
        extra |= {
            MARK: str(mark),
            "UTF8CERT_SANDBOX_ENV": MARK,
            "UTF8CERT_SANDBOX_WRITABLE": str(mark.parent),
        }
    return tagged_environment(**extra)


def utf8cert(*arguments: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", *arguments],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


FAULTS = [
    pytest.param(
        "CrashOnC0", (), "crash: RuntimeError", False, id="exception", marks=pytest.mark.slow
    ),
    # Judged apart, the codec's process catches it as the codec's crash: `check` needs no
    # --isolate to replay it (it isolates by default).
    pytest.param(
        "InterruptOnC0",
        (),
        "KeyboardInterrupt",
        False,
        id="KeyboardInterrupt",
        marks=pytest.mark.slow,
    ),
    pytest.param("ExitOnC0", (), "exited with status 3", True, id="os._exit"),
    pytest.param(
        "SegfaultOnC0", (), "killed by SIGSEGV", True, id="segfault", marks=pytest.mark.slow
    ),
    pytest.param(
        "HangOnC0", ("--timeout", "2"), "timeout", True, id="hang", marks=pytest.mark.slow
    ),
]


@pytest.mark.parametrize(("name", "options", "fault", "isolated"), FAULTS)
def test_each_fault_is_one_finding_with_its_input_and_a_reproducer(
    tmp_path: Path, name: str, options: tuple[str, ...], fault: str, isolated: bool
) -> None:
    env, tag = environment()
    artifacts = tmp_path / "artifacts"
    arguments = ("fuzz", f"support.hostile_codecs:{name}", "--artifacts", str(artifacts), *options)
    done = utf8cert(*arguments, "--seed", "1", "--runs", "2000", cwd=tmp_path, env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert " 1 finding(s)" in done.stdout  # one input, one finding (a hang is no crash too)
    [found] = artifacts.glob("*.yaml")
    saved = found.with_suffix(".bin").read_bytes()
    assert TRIGGER in saved
    explained = found.with_suffix(".txt").read_text()
    assert fault in explained
    reproducer = shlex.split(explained.splitlines()[-1].removeprefix("reproduce: "))
    assert ("--isolate" in reproducer) == isolated
    assert ("--timeout" in reproducer) == bool(options)
    replayed = utf8cert(*reproducer[1:], cwd=tmp_path, env=env)
    assert replayed.returncode == 1, replayed.stdout + replayed.stderr
    assert fault.split(":")[0] in replayed.stdout
    assert survivors(tag) == []


@pytest.mark.parametrize(
    "number",
    [
        signal.SIGTERM,
        *(pytest.param(n, marks=pytest.mark.slow) for n in (signal.SIGINT, signal.SIGHUP)),
    ],
)
def test_a_signal_while_the_codec_hangs_stops_libfuzzer_and_prints_the_summary(
    tmp_path: Path, number: signal.Signals
) -> None:
    mark, artifacts = tmp_path / "hanging", tmp_path / "artifacts"
    env, tag = environment(mark)
    command = [sys.executable, "-m", "utf8cert.harness", "fuzz", "support.hostile_codecs:HangOnC0"]
    command += ["--artifacts", str(artifacts), "--timeout", "200"]  # no --max-time
    with subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        deadline = time.monotonic() + TIMEOUT
        while not (mark.exists() and mark.read_text()):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the codec never hung"
            time.sleep(0.05)
        process.send_signal(number)  # to the command alone, not its process group
        out, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, out + err  # stopped on purpose: nothing was found
    assert f"interrupted ({number.name})" in out
    assert "Traceback" not in out + err
    assert survivors(tag) == []
