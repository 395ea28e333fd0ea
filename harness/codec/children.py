"""Child processes that cannot outlive utf8cert: their own process group, a memory limit, and
death with the parent.

Every program utf8cert starts (a `cmd:` program, a Python codec under `--isolate`) is started by
`spawn`: in the OS sandbox where there is one (sandbox.py: its PID namespace ends with it, and
all it started), in a session of its own, so that a kill reaches whatever it started, and,
outside a sandbox, marked, so that what leaves that session is found and ended too
(descendants.py); on Linux with
PR_SET_PDEATHSIG, so that the kernel kills it when utf8cert dies, even by SIGKILL; with its
private writable memory limited (`memory_mb`), so that a runaway allocation fails inside the
child instead of taking the machine. `kill_all` kills every child still alive: the command line
calls it from its SIGTERM, SIGINT and SIGHUP handlers.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import re
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Final

from utf8cert.harness.codec import descendants, sandbox
from utf8cert.harness.codec.child_environment import passed

DEFAULT_MEMORY_MB: Final = 2048
"""The memory a child may allocate, in MiB, unless told otherwise (None or 0: no limit)."""

SANDBOX_GRACE: Final = 5.0
"""Seconds bubblewrap gets to exit once its sandbox's first process is killed."""

PROCESSES: Final = 512
"""How many processes and threads a child may start beyond what the machine runs when it starts
(a JVM starts some 30 threads, a build tool more; a fork bomb stops there). The kernel does not
count the tasks of root (docs/sandbox.md)."""

PR_SET_PDEATHSIG: Final = 1
"""prctl(2) option: the signal the kernel sends a process when the thread that made it dies."""

# RLIMIT_DATA counts what a program allocates (private writable mappings, Linux >= 4.7), not the
# address space it merely reserves: the JVM reserves 4 GiB it never touches, and an RLIMIT_AS
# of 2 GiB stops it from starting. Elsewhere RLIMIT_AS is the limit there is.
LIMIT: Final = resource.RLIMIT_DATA if sys.platform == "linux" else resource.RLIMIT_AS

OUT_OF_MEMORY: Final = re.compile(
    r"MemoryError|out ?of ?memory|bad_alloc|allocation failed|memory allocation of"
    r"|cannot allocate memory|insufficient memory|failed to allocate|heap limit"
    r"|no space left on device|file too large",
    re.IGNORECASE,
)
"""What runtimes print when an allocation fails: Python, C++, V8, Rust, the JVM, glibc; and
when a file outgrows the temporary file system or file size, sized by the memory limit."""

_live: dict[int, subprocess.Popen[bytes]] = {}
"""Every child started and not yet reaped, by pid. No lock: a signal handler reads it, and each
single dict operation is atomic under the GIL."""
_marks: dict[int, str] = {}
"""The descendants.MARK of each child started outside a sandbox, by pid."""
_sandboxed: dict[int, int | None] = {}
"""Each child started in a sandbox (sandbox.py), by pid: the pid of the program it runs, once
looked up (None until then)."""
_confined: dict[int, sandbox.Confined] = {}
"""Each child confined by Landlock (sandbox.py), by pid: its scratch directory is removed with
it."""
_first: dict[int, int] = {}
"""The first process of each sandbox's PID namespace (bubblewrap's init), by the child's pid,
looked up with the program's: bubblewrap exits as soon as its init reports the program's
status, before the kernel has emptied the namespace, so it is the init's end that is awaited."""


def death_signal(signum: int = signal.SIGKILL) -> Callable[[], None] | None:
    """Return a function asking the kernel to send the caller `signum` when its parent dies
    (None where prctl does not exist). Resolved in the parent, before any fork: a child forked
    from a process with threads must only make the call."""
    if sys.platform != "linux":
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    return lambda: prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)


_ask_for_death_signal = death_signal()


def _preparation(
    memory_mb: int | None, confined: sandbox.Confined | None = None
) -> Callable[[], None]:
    """Return what the child runs between fork and exec: the death signal, the memory limit,
    a bound on the processes it may start, and, where Landlock confines it, a file size within
    its memory limit and the confinement itself, last.

    Only async-signal-safe work happens there (system calls, no imports, no locks).
    """
    parent = os.getpid()
    limit = memory_mb * 1024 * 1024 if memory_mb else None
    processes = _process_bound()
    ask = _ask_for_death_signal

    def prepare() -> None:
        if ask is not None:
            ask()
            if os.getppid() != parent:  # utf8cert died before the request took effect
                os._exit(1)
        if limit is not None:
            _lower(LIMIT, limit)
            if confined is not None:  # no /tmp of its own: its files are limited one by one
                _lower(resource.RLIMIT_FSIZE, limit)
        if processes is not None:
            _lower(resource.RLIMIT_NPROC, processes)
        if confined is not None:
            confined.prepare()

    return prepare


def _lower(which: int, limit: int) -> None:
    """Lower the soft limit `which` to `limit` (never above its hard limit)."""
    _, hard = resource.getrlimit(which)
    resource.setrlimit(which, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))


def _process_bound() -> int | None:
    """Return the RLIMIT_NPROC a child gets: the tasks the machine runs now and PROCESSES more
    (the limit counts every task of the user, whom the child shares with utf8cert: so a fork
    bomb stops after PROCESSES); None where it cannot be read (no /proc)."""
    try:
        with open("/proc/loadavg", encoding="ascii") as load:
            running = int(load.read().split()[3].partition("/")[2])
    except (OSError, ValueError, IndexError):
        return None
    return running + PROCESSES


def spawn(
    argv: Sequence[str], env: dict[str, str] | None, memory_mb: int | None
) -> subprocess.Popen[bytes]:
    """Return the started program, its stdin, stdout and stderr pipes to this process; raise
    OSError if it cannot be started, sandbox.SandboxError if it must be sandboxed and cannot.

    It runs in the OS sandbox where there is one (sandbox.py), in a session (and process group)
    of its own, dies with this process on Linux, and may allocate at most `memory_mb` MiB (None
    or 0: no limit). The kernel's death signal is tied to the thread that starts the child:
    start children from a thread that lives as long as they should (utf8cert starts them from
    the thread that asks the codec).
    """
    # Only what the codec's runtime needs, and what the user named: no secret of the judge's.
    given = os.environ if env is None else env
    environment = passed(given, sandbox.policy().environment)
    sandboxed = sandbox.wrap(argv, environment, memory_mb)
    confined = sandbox.confine(argv, environment) if sandboxed is None else None
    if sandboxed is None:  # no PID namespace: what leaves the session is found by its mark
        if not _marks:  # the first such child: what any of them leaves ends with utf8cert
            atexit.register(end_descendants)
        mark = descendants.new_mark()
        environment[descendants.MARK] = mark
    if confined is not None:
        environment.update(confined.environment)
    try:
        process = subprocess.Popen(
            list(argv) if sandboxed is None else sandboxed,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment,
            cwd=None if _working_directory_exists() else os.sep,  # Python cannot start in none
            start_new_session=True,  # so a kill reaches what a wrapper script started, too
            preexec_fn=_preparation(memory_mb, confined),
        )
    except BaseException:
        if confined is not None:
            confined.ended()
        raise
    finally:
        if confined is not None:
            confined.started()
    _live[process.pid] = process
    if confined is not None:
        _confined[process.pid] = confined
    if sandboxed is None:
        _marks[process.pid] = mark
    else:  # its PID namespace ends with it, and everything the program started in it
        _sandboxed[process.pid] = None
    return process


def boundary_of(process: subprocess.Popen[bytes]) -> str:
    """Return the boundary the program `process` runs behind, as the reports name it."""
    return sandbox.BUBBLEWRAP if process.pid in _sandboxed else sandbox.boundary()


def program_pid(process: subprocess.Popen[bytes]) -> int:
    """Return the pid of the program `process` runs: its own, or in a sandbox the program's
    (whose memory is the program's, not bubblewrap's)."""
    if process.pid not in _sandboxed:
        return process.pid
    inner = _sandboxed[process.pid]
    if inner is None:
        first = sandbox.innermost(process.pid, depth=1)
        inner = sandbox.innermost(process.pid)
        if inner != process.pid:
            _sandboxed[process.pid] = inner
            _first[process.pid] = first
    return inner


def exit_status(process: subprocess.Popen[bytes], status: int | None) -> int | None:
    """Return the exit status of the program `process` runs (negative: the signal that killed
    it), from `status`, that of `process` itself (None: still running)."""
    if status is None or process.pid not in _sandboxed:
        return status
    return sandbox.signal_status(status)


def _working_directory_exists() -> bool:
    try:
        os.getcwd()
    except OSError:  # deleted
        return False
    return True


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """Send SIGKILL to the program's process group (to the program alone if that fails);
    safe from any thread and in a signal handler: it neither waits nor closes."""
    if process.returncode is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            process.kill()


def stop(process: subprocess.Popen[bytes]) -> None:
    """Kill the program, everything in its process group and every process it started
    wherever it went (descendants.py), reap it, close its pipes."""
    mark = _marks.pop(process.pid, None)
    if mark is not None:  # first, while the program's descendants are still its descendants
        descendants.end(mark, owned=set(_live))
    first = _first.pop(process.pid, None)
    if process.pid in _sandboxed and process.returncode is None:
        first = first or sandbox.innermost(process.pid, depth=1)
        _end_sandbox(process)
    kill_group(process)
    process.wait()
    if first is not None and first != process.pid:  # the namespace is empty once it has ended
        descendants.reap({first}, SANDBOX_GRACE)
    _live.pop(process.pid, None)
    _sandboxed.pop(process.pid, None)
    confined = _confined.pop(process.pid, None)
    if confined is not None:
        confined.ended()
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def _end_sandbox(process: subprocess.Popen[bytes]) -> None:
    """Kill the program in the sandbox, then if need be the first process of the sandbox's PID
    namespace, and wait (briefly) for bubblewrap to exit (stop() then awaits the end of that
    first process: the kernel empties a PID namespace before its first process is gone).

    The program first: the first process reaps it, so that the program's CPU time is counted
    to the process that reaps the first one, as a killed program's is outside a sandbox."""
    for target in (program_pid(process), sandbox.innermost(process.pid, depth=1)):
        if target == process.pid:
            continue
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(target, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=SANDBOX_GRACE)
            return


def _remove_scratch() -> None:
    """Remove the scratch directories of the confined children still known (a run stopped
    before it could stop them)."""
    for confined in list(_confined.values()):
        confined.ended()


atexit.register(_remove_scratch)


def live_children() -> list[int]:
    """Return the pids of the children started and not yet reaped ([] when none)."""
    return list(_live)


def kill_all() -> int:
    """Return how many children were killed: every child still alive, with its process group.

    Safe in a signal handler: it sends signals and reaps without waiting; the pipes are closed
    by the codec that owns them, or when the interpreter exits.
    """
    children = list(_live.values())
    for process in children:
        kill_group(process)
    end_descendants()
    for process in children:
        process.poll()
    return len(children)


def end_descendants() -> None:
    """Kill every process a child started, wherever it went, and every child (left to their
    subprocess.Popen to reap): at exit, and when the command line is stopped."""
    descendants.end(None, owned=set(_live))


def out_of_memory(stderr_tail: str, status: int | None) -> str | None:
    """Return the line in which a program that ended with `status` (None: unknown) said that
    an allocation failed (the last line of `stderr_tail` with the words of OUT_OF_MEMORY), or
    None when it did not say so.

    A SIGKILL from the kernel's out-of-memory killer says nothing: that remains a crash.
    """
    if status == 0:
        return None
    lines = [line.strip() for line in stderr_tail.split("\n")]
    return next((line for line in reversed(lines) if OUT_OF_MEMORY.search(line)), None)
