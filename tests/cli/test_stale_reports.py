"""No run leaves an earlier run's passing report behind: whatever stops `utf8cert check` before its
end — a bad vector file, a report path it cannot write, a codec spec or option it refuses,
Ctrl-C at any moment from the first instant — every report path then holds an INCOMPLETE report
that says why (harness/cli/placeholders.py), names its boundary, and fails as CI reads it; the
exit status is 2 (130 for Ctrl-C) and stderr has no traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

import pytest
from support.cli_runs import check
from support.user_vectors import EXTRA_VECTOR

FORMATS: Final = {
    "--json": "r.json",
    "--junit-xml": "r.xml",
    "--markdown": "r.md",
    "--html": "r.html",
}
TIMEOUT: Final = 600


def report_options(directory: Path, *, skip: str = "") -> list[str]:
    """Return the options that write every report format into `directory` (`skip`: one not)."""
    return [
        word
        for option, name in FORMATS.items()
        if option != skip
        for word in (option, str(directory / name))
    ]


def passing_reports(directory: Path) -> None:
    """Leave a passing run's reports in `directory`, as a previous CI job does."""
    passed = check("codec:utf-8", "--in-process", "--vector", "rfc3629-7-1", "-q",
                   *report_options(directory))  # fmt: skip
    assert passed.status == 0
    assert json.loads((directory / "r.json").read_text())["certified"] is True


def utf8cert(
    directory: Path, *arguments: str, ignoring: tuple[int, ...] = ()
) -> subprocess.Popen[str]:
    """Return `utf8cert check ARGUMENTS` started in `directory`, as a user starts it from a
    terminal: Ctrl-C, SIGTERM and SIGHUP at their defaults (tests/conftest.py sees to that also
    in a suite run as a shell's background job), but those `ignoring` names (`nohup`)."""

    def as_nohup_starts_it() -> None:
        for number in ignoring:
            signal.signal(number, signal.SIG_IGN)

    argv = [sys.executable, "-m", "utf8cert.harness", "check", *arguments]
    env = {**os.environ, "PYTHONPATH": str(directory)}
    return subprocess.Popen(
        argv,
        cwd=directory,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_nohup_starts_it if ignoring else None,  # dispositions only: no lock taken
    )


def assert_no_pass_left(directory: Path, *, skip: str = "") -> dict[str, object]:
    """Assert every report in `directory` (but `skip`'s) is an INCOMPLETE failing one that names
    its boundary; return the JSON report (empty when skipped)."""
    document: dict[str, object] = {}
    if skip != "--json":
        document = json.loads((directory / "r.json").read_text())
        summary = document["summary"]
        assert isinstance(summary, dict)
        assert document["certified"] is False and document["complete"] is False
        assert summary["passed"] is False and summary["conformant"] is False
        assert str(summary["gate"]).startswith("INCOMPLETE: ")
        assert document["boundary"]
    if skip != "--junit-xml":
        assert 'failures="1"' in (directory / "r.xml").read_text()
    for option, name in (("--markdown", "r.md"), ("--html", "r.html")):
        if skip != option:
            text = (directory / name).read_text()
            assert "INCOMPLETE" in text
    return document


BROKEN_FILES: Final = {
    "broken YAML": "decode: [\n",
    "a tab": EXTRA_VECTOR.replace("  surrogate:", "\tsurrogate:"),
    "a duplicate id": EXTRA_VECTOR + EXTRA_VECTOR[EXTRA_VECTOR.index("  - id: extra-1") :],
    "a schema violation": EXTRA_VECTOR.replace('    bytes: "41 ED B0 80 42"\n', ""),
}


@pytest.mark.parametrize("case", BROKEN_FILES)
def test_a_bad_vector_file_leaves_an_incomplete_report_saying_why(
    tmp_path: Path, case: str
) -> None:
    passing_reports(tmp_path)
    (tmp_path / "mine.yaml").write_text(BROKEN_FILES[case])
    judge = utf8cert(tmp_path, "--vectors", "mine.yaml", *report_options(tmp_path))
    out, err = judge.communicate(timeout=TIMEOUT)
    assert judge.returncode == 2, out + err
    [line] = err.splitlines()
    assert line.startswith("utf8cert: error: ") and "mine.yaml" in line
    document = assert_no_pass_left(tmp_path)
    assert "mine.yaml" in str(document["stopped"])  # the reason is the error itself


@pytest.mark.parametrize("case", ["missing", "a symbolic link loop"])
def test_a_vector_file_that_cannot_be_read_leaves_an_incomplete_report(
    tmp_path: Path, case: str
) -> None:
    passing_reports(tmp_path)
    if case != "missing":
        (tmp_path / "mine.yaml").symlink_to(tmp_path / "loop.yaml")
        (tmp_path / "loop.yaml").symlink_to(tmp_path / "mine.yaml")
    judge = utf8cert(tmp_path, "--vectors", "mine.yaml", *report_options(tmp_path))
    _, err = judge.communicate(timeout=TIMEOUT)
    assert judge.returncode == 2 and "Traceback" not in err, err
    assert len(err.splitlines()) == 1
    assert_no_pass_left(tmp_path)


@pytest.mark.parametrize(
    "options",
    [
        pytest.param(["nosuchmodule_anywhere:decode"], id="a codec spec that names nothing"),
        pytest.param(["--sandbox-env", "A=B"], id="an option it refuses"),
        pytest.param(["--input", "4"], id="an input that is no hex"),
    ],
)
def test_a_refused_spec_or_option_leaves_an_incomplete_report(
    tmp_path: Path, options: list[str]
) -> None:
    passing_reports(tmp_path)
    judge = utf8cert(tmp_path, *options, *report_options(tmp_path))
    _, err = judge.communicate(timeout=TIMEOUT)
    assert judge.returncode == 2 and len(err.splitlines()) == 1, err
    assert_no_pass_left(tmp_path)


def test_an_unwritable_report_path_leaves_no_other_report_saying_conformant(
    tmp_path: Path,
) -> None:
    passing_reports(tmp_path)
    missing = tmp_path / "no-such-directory" / "r.json"
    arguments = ["--json", str(missing), *report_options(tmp_path, skip="--json")]
    judge = utf8cert(tmp_path, *arguments)
    _, err = judge.communicate(timeout=TIMEOUT)
    assert judge.returncode == 2, err
    assert err == f"utf8cert: error: --json {missing}: no directory {missing.parent}\n"
    assert_no_pass_left(tmp_path, skip="--json")


SLOW_CODEC: Final = """
import time

def decode(data):
    time.sleep(60)  # each question under way when the signal comes: the run never ends first
    return data.decode("utf-8")
"""


def holds_signals(pid: int) -> bool:
    """Return whether process `pid` blocks SIGINT now (its SigBlk in /proc), i.e. utf8cert's
    entry has started; False once it has ended."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    blocked = next(line for line in status.splitlines() if line.startswith("SigBlk:"))
    return bool(int(blocked.split()[1], 16) & (1 << (signal.SIGINT - 1)))


def started_over_passing_reports(
    tmp_path: Path, delay: float, ignoring: tuple[int, ...] = ()
) -> subprocess.Popen[str]:
    """Return a run of a slow codec writing every report over a passing one, `delay` seconds
    after it first holds its signals (or has ended)."""
    passing_reports(tmp_path)
    (tmp_path / "slow.py").write_text(SLOW_CODEC)
    judge = utf8cert(tmp_path, "slow:decode", "-q", *report_options(tmp_path), ignoring=ignoring)
    deadline = time.monotonic() + 120
    while not holds_signals(judge.pid) and judge.poll() is None:
        if time.monotonic() >= deadline:
            judge.kill()
            judge.wait()
            raise AssertionError("utf8cert never started")
        time.sleep(0.001)
    time.sleep(delay)
    return judge


def ended_by(judge: subprocess.Popen[str], *signals: int) -> tuple[str, str]:
    """Return the standard output and error of `judge` once `signals` were sent to it, in
    order, and it ended (killed after TIMEOUT seconds)."""
    try:
        for number in signals:
            judge.send_signal(number)
        return judge.communicate(timeout=TIMEOUT)
    finally:
        judge.kill()
        judge.wait()


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/PID/status")
@pytest.mark.parametrize("delay", [0.0, 0.1, 0.3, pytest.param(1.0, marks=pytest.mark.slow), 3.0])
def test_ctrl_c_at_any_moment_exits_130_with_incomplete_reports_and_no_traceback(
    tmp_path: Path, delay: float
) -> None:
    """From the moment utf8cert holds its signals (the first it can act on one), through its
    imports, the vectors' loading and the codec's start, to a run under way: each Ctrl-C ends
    the run with status 130 and INCOMPLETE reports."""
    judge = started_over_passing_reports(tmp_path, delay)
    out, err = ended_by(judge, signal.SIGINT)
    assert judge.returncode == 130, out + err
    assert "Traceback" not in err and len(err.splitlines()) <= 1, err
    assert_no_pass_left(tmp_path)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/PID/status")
@pytest.mark.parametrize("delay", [0.0, pytest.param(3.0, marks=pytest.mark.slow)])
def test_a_sighup_that_nohup_ignores_stays_ignored_and_ctrl_c_still_stops_the_run(
    tmp_path: Path, delay: float
) -> None:
    """Under `nohup` SIGHUP is ignored when utf8cert starts; while it starts (held) and while
    the run is watched alike, it stays so: the SIGHUP sent first is not what stops the run
    (129), the Ctrl-C after it is (130)."""
    judge = started_over_passing_reports(tmp_path, delay, ignoring=(signal.SIGHUP,))
    out, err = ended_by(judge, signal.SIGHUP, signal.SIGINT)
    assert judge.returncode == 130, out + err
    assert "SIGHUP" not in err and "Traceback" not in err, err
    assert_no_pass_left(tmp_path)


def assert_no_report_passes(directory: Path) -> None:
    """Assert that no report path holds a passing report: each is gone or INCOMPLETE."""
    for name in FORMATS.values():
        path = directory / name
        if path.exists():
            assert "INCOMPLETE" in path.read_text(), f"{name} still holds the earlier pass"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/PID/status")
@pytest.mark.parametrize("delay", [0.0, 0.3, pytest.param(1.5, marks=pytest.mark.slow)])
def test_a_sigkill_at_any_moment_leaves_no_passing_report(tmp_path: Path, delay: float) -> None:
    """A SIGKILL cannot be held: the report files are withdrawn before anything else
    (cli/entry.py), so a run killed before its INCOMPLETE reports are written leaves none."""
    judge = started_over_passing_reports(tmp_path, delay)
    try:
        judge.kill()
        judge.communicate(timeout=TIMEOUT)
    finally:
        judge.kill()
        judge.wait()
    assert judge.returncode == -signal.SIGKILL
    assert_no_report_passes(tmp_path)


def test_a_200_mb_vector_file_leaves_an_incomplete_report(tmp_path: Path) -> None:
    passing_reports(tmp_path)
    with (tmp_path / "mine.yaml").open("wb") as huge:  # sparse: its size is what is refused
        huge.truncate(200 * 1024 * 1024)
    judge = utf8cert(tmp_path, "--vectors", "mine.yaml", *report_options(tmp_path))
    _, err = judge.communicate(timeout=TIMEOUT)
    assert judge.returncode == 2 and "Traceback" not in err, err
    [line] = err.splitlines()
    assert "mine.yaml" in line and "MiB" in line
    assert_no_pass_left(tmp_path)
