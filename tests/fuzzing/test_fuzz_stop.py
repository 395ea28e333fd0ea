"""How `utf8cert fuzz` stops and what it says: a signal while findings are made stops at once
and names what is kept on disk; flags that would make the campaign something else are usage
errors, a --max-len that rules out a block boundary a one-line note; the progress comes from the
campaign's own records (never from text the codec can print) and carries the clock time;
--quiet and --json as for `check`. Campaigns are bounded by --runs and a seed, not by time."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
TIMEOUT = 300


def environment(**extra: str) -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    return dict(os.environ, PYTHONPATH=path, **extra)


def fuzz(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    artifacts = str(tmp_path / "artifacts")
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "fuzz", *arguments, "--artifacts", artifacts],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def test_a_signal_while_the_finding_is_minimized_stops_it_and_says_what_is_kept(
    tmp_path: Path,
) -> None:
    mark, artifacts = tmp_path / "minimizing", tmp_path / "artifacts"
    command = [
        sys.executable,
        "-m",
        "utf8cert.harness",
        "fuzz",
        "support.fuzz_codecs:HangsWhenMinimized",
    ]
    command += ["--artifacts", str(artifacts), "--seed", "1", "--runs", "100000"]
    with subprocess.Popen(
        command,
        cwd=tmp_path,
        # The mark reaches the codec in its sandbox: named to pass, its directory writable.
        env=environment(
            FUZZ_CODECS_MARK=str(mark),
            UTF8CERT_SANDBOX_ENV="FUZZ_CODECS_MARK",
            UTF8CERT_SANDBOX_WRITABLE=str(tmp_path),
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        deadline = time.monotonic() + TIMEOUT
        while not (mark.exists() and mark.read_text()):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the finding was never minimized"
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 128 + signal.SIGTERM, out + err
    assert "Traceback" not in err
    assert len(list((artifacts / "pending").glob("*.bin"))) == 1  # kept, as the message says
    assert not list(artifacts.glob("*.yaml"))
    assert (
        "stopped by SIGTERM while making findings: no finding made; "
        f"1 input(s) kept under {artifacts} for the next campaign there"
    ) in err


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("-merge=1", "with -merge libFuzzer does not fuzz"),
        ("-minimize_crash=1", "with -minimize_crash libFuzzer does not fuzz"),
        ("-max_len=64", "use --max-len"),
        ("-artifact_prefix=/tmp/x/", "use --artifacts"),
        ("-fork=2", "use --jobs"),
    ],
)
def test_libfuzzer_flags_that_would_change_the_campaign_are_usage_errors(
    tmp_path: Path, flag: str, message: str
) -> None:
    # Before: `-- -merge=1` ran a merge, and the summary said "corpus 0 inputs", 0 findings.
    done = fuzz(tmp_path, "codec:utf-8", "--runs", "10", "--", flag)
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.strip().splitlines()
    assert message in line and flag in line


@pytest.mark.slow
def test_a_max_len_below_a_block_boundary_is_a_one_line_note(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "codec:utf-8", "--runs", "10", "--max-len", "64", "--seed", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    notes = [line for line in done.stderr.splitlines() if "note:" in line]
    assert notes == [
        "utf8cert fuzz: note: --max-len 64 rules out the 64-, 4096- and 65536-byte block "
        "boundaries: no input crosses them (the default, 66048, crosses each)"
    ]
    wide = fuzz(tmp_path / "wide", "codec:utf-8", "--runs", "10", "--seed", "1")
    assert "note:" not in wide.stderr


def test_progress_and_summary_ignore_status_lines_the_codec_prints(tmp_path: Path) -> None:
    # Before: the codec's "#999999999 … exec/s: 123456789" became the progress line.
    done = fuzz(
        tmp_path,
        "support.fuzz_codecs:PrintsStatusLines",
        "--runs",
        "3000",
        "--seed",
        "1",
        "--json",
        "-",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["executions"] >= 3000 and report["executions"] < 10_000
    assert report["corpus"] < 77777 and report["stop"] == "runs"
    assert "999,999,999" not in done.stderr and "77777" not in done.stderr
    *_, summary, boundary = done.stderr.strip().splitlines()
    assert summary.startswith(f"{report['executions']:,} executions")
    assert boundary == f"boundary: {report['boundary']}"


@pytest.mark.slow
def test_quiet_prints_the_summary_line_alone_and_json_says_the_campaign(tmp_path: Path) -> None:
    spec = "support.fuzz_codecs:SurrogateWritingEncoder"
    quiet = fuzz(tmp_path, spec, "--runs", "3000", "--seed", "1", "--quiet")
    assert quiet.returncode == 1, quiet.stdout + quiet.stderr
    [summary, boundary] = quiet.stdout.splitlines()  # the boundary is named even so
    assert " 1 finding(s)" in summary and quiet.stderr == ""
    assert boundary.startswith("boundary: ")
    report_file = tmp_path / "report.json"
    done = fuzz(
        tmp_path / "json", spec, "--runs", "3000", "--seed", "1", "--json", str(report_file)
    )
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(report_file.read_text())
    [finding] = report["findings"]
    assert report["utf8cert-fuzz"] == 1 and report["codec"] == spec
    assert report["stop"] == "finding" and report["exit_status"] == 1
    assert finding["behaviour"] == "encode: encoded a surrogate"
    assert Path(finding["vector_file"]).is_file()
    assert bytes.fromhex(finding["input"]) == Path(finding["input_file"]).read_bytes()
    assert finding["reproduce"].startswith(f"utf8cert check {spec} --input ")
    assert isinstance(report["seconds"], float) and report["executions"] > 0


@pytest.mark.slow
def test_progress_lines_carry_the_clock_time(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "support.fuzz_codecs:Conformant", "--max-time", "7", "--seed", "1")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = re.findall(r"^(\d\d):(\d\d):(\d\d) \d+ s: [\d,]+ execs, ", done.stderr, re.MULTILINE)
    assert lines, done.stderr
    assert all(int(h) < 24 and int(m) < 60 and int(s) < 61 for h, m, s in lines)


def test_a_json_path_that_cannot_be_written_is_refused_before_the_campaign(tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    done = fuzz(tmp_path, "codec:utf-8", "--runs", "10", "--json", str(tmp_path / "link"))
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert "--json" in line and "symbolic link" in line
    assert not (tmp_path / "artifacts" / "libfuzzer.log").exists()


def descendants(pid: int) -> list[int]:
    """Return the pids of every process below `pid` (started by any of its threads, and by
    theirs); empty once `pid` has ended."""
    found = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            listed = children.read_text().split()
        except OSError:  # the thread ended meanwhile
            continue
        for child in map(int, listed):
            found += [child, *descendants(child)]
    return found


def campaign_processes(pid: int, artifacts: Path) -> list[int]:
    """Return the processes below `pid` running the campaign's script, which lives under
    `artifacts`: its first argument, not anywhere in the command line, for a child forked but
    not yet started shows the command line of `pid` (`--artifacts` too), and under load the
    SIGINT meant for the campaign reached utf8cert as it started the codec's process, long
    before the campaign. In the sandbox, the script itself (the program bubblewrap runs), not
    bubblewrap: a signal while bubblewrap still sets the sandbox up is another moment than the
    one meant here (the script importing the codec), and one that ends bubblewrap alone left
    the script to run to --max-time (docs/versions.md, "Test tiers")."""
    found = []
    for child in descendants(pid):
        try:
            arguments = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if arguments[0].endswith(b"bwrap"):
            continue
        if len(arguments) > 1 and arguments[1].startswith(f"{artifacts}/".encode()):
            found.append(child)
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_a_signal_before_libfuzzer_listens_is_an_interrupted_campaign(tmp_path: Path) -> None:
    """A SIGINT while the campaign's process still imports the codec (libFuzzer has not set its
    handlers yet, so the SIGTERM passed on ends it) stops the campaign: not 'libFuzzer stopped
    with status -15' (exit 2), and, since nothing was fuzzed, 130 rather than a verdict of 0
    findings."""
    (tmp_path / "slow_start.py").write_text(
        "import sys, time\n"
        "if 'artifacts' in sys.argv[0]:  # the campaign's script: sleep before libFuzzer starts\n"
        "    time.sleep(600)  # past TIMEOUT: a SIGINT that did not end it fails the test\n"
        "def decode(data: bytes) -> str:\n"
        "    return data.decode('utf-8')\n"
    )
    artifacts = tmp_path / "artifacts"
    command = [sys.executable, "-m", "utf8cert.harness", "fuzz", "slow_start:decode", "-q"]
    command += ["--max-time", "200", "--artifacts", str(artifacts)]
    with subprocess.Popen(
        command, cwd=tmp_path, env=environment(), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    ) as process:  # fmt: skip
        deadline = time.monotonic() + TIMEOUT
        while not campaign_processes(process.pid, artifacts):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the campaign never started"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 130, err
    assert "libFuzzer stopped" not in err and "Traceback" not in err
