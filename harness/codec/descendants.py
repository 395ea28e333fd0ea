"""Every process a program started, wherever it went: found by a mark in its environment and by
its parent, and ended. The process-only fallback: a program in the OS sandbox (sandbox.py) is not
marked, since its PID namespace ends with it, and everything it started with it.

A kill of a program's process group misses what left the group (`setsid`, `setpgid`, a daemon's
double fork). So utf8cert marks each program it starts with an environment variable (MARK, its
value naming utf8cert's pid and the program) that the program's descendants inherit, and on
Linux becomes a child subreaper (PR_SET_CHILD_SUBREAPER), so that an orphaned descendant is
adopted by utf8cert instead of init, where utf8cert can reap it. `end(mark)` kills every process
that carries the mark or descends from one that does; `end_all()` those of every program.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import signal
import sys
import time
from pathlib import Path
from typing import Final

MARK: Final = "UTF8CERT_PROGRAM"
"""The environment variable each program started (and what it starts) carries."""

PR_SET_CHILD_SUBREAPER: Final = 36
"""prctl(2) option: orphaned descendants are re-parented to this process, not to init."""

ROUNDS: Final = 20
"""How many times the processes are listed again for ones started while the others died."""

PROC = Path("/proc")
_numbers = itertools.count(1)
_subreaper = False


def new_mark() -> str:
    """Return the value of MARK for a program about to be started (unique in this process)."""
    become_subreaper()
    return f"{os.getpid()}.{next(_numbers)}"


def become_subreaper() -> None:
    """Make this process the one that adopts its orphaned descendants (Linux; once)."""
    global _subreaper
    if _subreaper or sys.platform != "linux":
        return
    _subreaper = True
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _marked(pid: int, wanted: bytes, whole: bool) -> bool:
    """Return whether process `pid` carries the MARK entry `wanted` (`whole`), or one starting
    with it."""
    try:
        environment = (PROC / str(pid) / "environ").read_bytes().split(b"\0")
    except OSError:
        return False  # gone, a zombie, or another user's
    if whole:
        return wanted in environment
    return any(entry.startswith(wanted) for entry in environment)


def _stat(path: Path) -> list[str]:
    """Return the fields of a /proc/PID/stat file after the command name (state, parent, …);
    OSError when the process is gone."""
    # the command name (in parentheses) may hold spaces: the fields follow the last ')'
    return path.read_text().rpartition(")")[2].split()


def _parents() -> dict[int, int]:
    """Return the parent of every process there is, by pid ({} without /proc)."""
    found = {}
    for stat in PROC.glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            found[int(stat.parent.name)] = int(_stat(stat)[1])
    return found


def _doomed(wanted: bytes, whole: bool) -> set[int]:
    """Return the processes that carry a mark starting with `wanted` or descend from one that
    does (this process excluded)."""
    parents = _parents()
    doomed = {pid for pid in parents if _marked(pid, wanted, whole)}
    doomed.discard(os.getpid())
    while True:
        more = {pid for pid, parent in parents.items() if parent in doomed} - doomed
        if not more:
            return doomed
        doomed |= more


def end(mark: str | None, owned: set[int] | frozenset[int] = frozenset()) -> int:
    """Return how many processes were killed: those carrying `mark` (None: any mark of this
    process) and those descending from them; each is reaped if it became a child of this
    process, except the `owned` pids, whose subprocess.Popen must see their status itself.
    Processes started while the others die are found on the next round."""
    if not PROC.is_dir():
        return 0
    wanted = f"{MARK}={os.getpid()}." if mark is None else f"{MARK}={mark}"
    killed: set[int] = set()
    for _ in range(ROUNDS):
        doomed = _doomed(wanted.encode(), whole=mark is not None) - killed
        if not doomed:
            break
        for pid in doomed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed |= doomed
    reap(killed - set(owned))
    return len(killed)


def reap(pids: set[int], patience: float = 2.0) -> None:
    """Wait up to `patience` seconds in all for `pids` to die, reaping those that are children
    of this process (adopted ones are). One that is another's child is waited for until it is
    gone or a zombie: a SIGKILL takes effect when the process next runs, which on a loaded
    machine is later, and until then it still runs whatever it started next."""
    deadline = time.monotonic() + patience
    waiting = set(pids)
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not ours: its own parent reaps it, or it was reaped
                done = _dead(pid)
            if done:
                waiting.discard(pid)
        if waiting:
            time.sleep(0.01)


def _dead(pid: int) -> bool:
    """Return whether process `pid` has ended: gone, or a zombie waiting for its parent."""
    try:
        state = _stat(PROC / str(pid) / "stat")[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")
