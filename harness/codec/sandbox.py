"""The operating system's boundary around a codec under test, in layers, the first that can be
made here (docs/sandbox.md):

1. bubblewrap (bubblewrap.py): namespaces, an empty root showing only what the codec needs;
2. where user namespaces are refused, Landlock with a seccomp filter (landlock.py): the same
   view to read, nothing to write but its own scratch directory, no TCP, no signal to utf8cert;
3. else the process boundary alone, which every report and the verdict say is not a security
   boundary.

What a codec truly needs to write is named with `--sandbox-writable PATH` (`configure`).

`wrap(argv, env)` puts bubblewrap around a program, `confine(argv, env)` prepares Landlock
where there is no bubblewrap (children.spawn calls both, and so do a fuzz campaign's workers:
fuzzing/workers.py); `boundary()` names the boundary a child started now gets, for the
reports.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from utf8cert.harness.codec import bubblewrap, landlock, view

BUBBLEWRAP: Final = "OS sandbox (bubblewrap)"
"""The boundary of a child in a bubblewrap sandbox, as the reports name it."""
LANDLOCK: Final = "OS sandbox (Landlock and seccomp, without namespaces"
"""The boundary of a child confined by Landlock where bubblewrap cannot start, as the reports
begin it: they add what it holds and what not (landlock.held), and why there is no bubblewrap."""
PROCESS_ONLY: Final = "process only, not a security boundary"
"""The boundary of a child where no sandbox could be made (the reports add why): it keeps out
crashes, hangs and floods, not a codec that attacks its judge."""
IN_PROCESS: Final = "none (the codec runs in utf8cert's own process: trusted)"
"""The boundary of an in-process codec."""

PRIVATE_TMP: Final = bubblewrap.PRIVATE_TMP
WRITABLE_VARIABLE: Final = "UTF8CERT_SANDBOX_WRITABLE"
"""The environment variable naming more paths a codec may write (os.pathsep between them)."""

PR_SET_DUMPABLE: Final = 4
"""prctl(2) option: 0 makes /proc/<pid>/mem and ptrace refuse a process of the same user."""

_bwrap = bubblewrap.bwrap
_bundled_bwrap = bubblewrap.bundled_bwrap


class SandboxError(Exception):
    """No sandbox can be made where one is required, or a writable path is unusable; str() is
    one line saying why."""


@dataclass(frozen=True)
class Policy:
    """What the command line asked of the sandbox."""

    writable: tuple[str, ...] = ()
    """Absolute paths the codec may write (bound read-write into the sandbox)."""
    required: bool = False
    """Whether a child that cannot be sandboxed is an error instead of a process-only run."""
    environment: tuple[str, ...] = ()
    """Names of variables of utf8cert's environment the codec's child gets besides those its
    runtime needs (`--sandbox-env`: child_environment.py)."""


_policy = Policy()


def configure(
    writable: Sequence[str] = (), required: bool = False, environment: Sequence[str] = ()
) -> None:
    """Set the policy of every child started from now on; SandboxError if a writable path does
    not exist, if a variable name to pass is not one, or if a sandbox is `required` and none
    can be made here."""
    paths = []
    for path in writable:
        absolute = os.path.abspath(path)
        if not os.path.exists(absolute):
            raise SandboxError(f"--sandbox-writable {path}: no such file or directory")
        paths.append(absolute)
    for name in environment:
        if not name or "=" in name or "\0" in name:
            raise SandboxError(f"--sandbox-env {name!r}: not the name of a variable")
    global _policy
    _policy = Policy(tuple(paths), required, tuple(environment))
    if required and (why := unavailable()) is not None:
        raise SandboxError(f"no OS sandbox here, and one is required: {why}")


def policy() -> Policy:
    """Return the policy children are started with."""
    return _policy


def bubblewrap_unavailable() -> str | None:
    """Return None when bubblewrap can sandbox a child here, else why not in a few words."""
    if sys.platform != "linux":
        return f"bubblewrap needs Linux, not {sys.platform}"
    return bubblewrap.unavailable()


def landlock_unavailable() -> str | None:
    """Return None when Landlock can confine a child here, else why not in a few words."""
    if sys.platform != "linux":
        return f"Landlock needs Linux, not {sys.platform}"
    return landlock.unavailable()


def unavailable() -> str | None:
    """Return None when children can be put in an OS sandbox here (bubblewrap, or else
    Landlock), else why neither can be in a few words."""
    why = bubblewrap_unavailable()
    if why is None:
        return None
    also = landlock_unavailable()
    return None if also is None else f"{why}; {also}"


def boundary() -> str:
    """Return the boundary a child started now gets: BUBBLEWRAP, LANDLOCK and why there is no
    bubblewrap, or PROCESS_ONLY and why there is neither."""
    why = bubblewrap_unavailable()
    if why is None:
        return BUBBLEWRAP
    also = landlock_unavailable()
    if also is None:
        return f"{LANDLOCK}: {landlock.held()}; no bubblewrap: {why})"
    return f"{PROCESS_ONLY} (no OS sandbox: {why}; {also})"


def verdict_clause(held: str) -> str | None:
    """Return what the verdict line adds about the boundary `held`: that a certificate made
    without a sandbox is not a security boundary, or that Landlock's leaves other processes
    visible; None for bubblewrap and a trusted in-process codec."""
    if held.startswith(PROCESS_ONLY):
        return "checked outside an OS sandbox: not a security boundary"
    if held.startswith(LANDLOCK):
        return "checked under Landlock and seccomp, without namespaces"
    return None


def held_by(codec: object) -> str:
    """Return the boundary that kept `codec` from the judge: a program's (its `boundary`, set
    when it started), or IN_PROCESS for a codec with none."""
    held = getattr(codec, "boundary", "")
    return held if isinstance(held, str) and held else IN_PROCESS


def wrap(
    argv: Sequence[str], env: Mapping[str, str], memory_mb: int | None = None
) -> list[str] | None:
    """Return the command that runs `argv` in bubblewrap, or None where it cannot start (the
    program then runs as it is, confined by Landlock where `confine` can); SandboxError when
    the policy requires a sandbox and there is none, OSError when the program cannot be found
    or run (as starting it would).

    The child is shown read-only only what view.py lists (the system, the interpreter, the
    codec's code and libraries), with a private /tmp of at most `memory_mb` MiB."""
    why = bubblewrap_unavailable()
    if why is not None:
        if _policy.required and (neither := unavailable()) is not None:
            raise SandboxError(f"no OS sandbox here, and one is required: {neither}")
        return None
    _runnable(argv, env)
    return bubblewrap.command(argv, env, _here(), writable(), memory_mb)


@dataclass
class Confined:
    """A child to be confined by Landlock: what it runs before exec, its scratch directory."""

    prepare: Callable[[], None]
    """Run between fork and exec: the ruleset enforced, the seccomp filter installed."""
    scratch: str
    """Its own empty directory, writable (HOME and TMPDIR point there); removed with it."""
    descriptor: int
    """The ruleset, in utf8cert: closed once the child is started (`started`)."""
    environment: dict[str, str] = field(default_factory=dict)
    """What the child's environment gets: HOME and TMPDIR."""

    def started(self) -> None:
        """Close utf8cert's copy of the ruleset (the child has its own)."""
        landlock.close(self.descriptor)

    def ended(self) -> None:
        """Remove the scratch directory and what the child left there."""
        shutil.rmtree(self.scratch, ignore_errors=True)


def confine(
    argv: Sequence[str], env: Mapping[str, str], also_writable: Sequence[str] = ()
) -> Confined | None:
    """Return how to confine `argv` by Landlock, None where bubblewrap sandboxes it (`wrap`)
    or Landlock cannot (process only); OSError when the kernel refuses the ruleset.
    `also_writable`: paths this program writes besides the policy's (a fuzz campaign's corpus
    and crash directories, which libFuzzer writes)."""
    if bubblewrap_unavailable() is None or landlock_unavailable() is not None:
        return None
    scratch = tempfile.mkdtemp(prefix="utf8cert-codec-")
    try:
        readable = view.readable(argv, env, _here())
        descriptor = landlock.ruleset(readable, [scratch, *writable(), *also_writable])
    except OSError:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    prepare = landlock.confinement(descriptor)
    return Confined(prepare, scratch, descriptor, {"HOME": scratch, "TMPDIR": scratch})


def _here() -> str:
    """Return the working directory, / where it was deleted (children.spawn starts there)."""
    try:
        return os.getcwd()
    except OSError:
        return os.sep


def _runnable(argv: Sequence[str], env: Mapping[str, str]) -> None:
    """Raise the OSError starting `argv` outside the sandbox would raise when its program cannot
    be found or run, so that a missing program is said as it is without a sandbox, not as
    bubblewrap's failure to run it."""
    if not argv or shutil.which(argv[0], path=env.get("PATH")) is not None:
        return
    missing = os.sep not in argv[0] or not os.path.exists(argv[0])
    number = errno.ENOENT if missing else errno.EACCES
    raise OSError(number, os.strerror(number), argv[0])


def writable() -> list[str]:
    """Return the paths a sandboxed codec may write: `--sandbox-writable`'s, then the existing
    ones of WRITABLE_VARIABLE (utf8cert's environment, which no codec can change)."""
    given = os.environ.get(WRITABLE_VARIABLE, "").split(os.pathsep)
    more = [os.path.abspath(path) for path in given if path and os.path.exists(path)]
    return list(dict.fromkeys([*_policy.writable, *more]))


def innermost(pid: int, depth: int = 2) -> int:
    """Return the pid of the program a sandbox `pid` runs (bwrap -> its init -> the program;
    `depth` 1: the init), `pid` itself when the chain cannot be followed (no /proc, or it has
    ended)."""
    found = pid
    for _ in range(depth):
        try:
            words = Path(f"/proc/{found}/task/{found}/children").read_text().split()
        except OSError:
            return pid
        if len(words) != 1:
            return pid
        found = int(words[0])
    return found


def end_unstarted(pid: int) -> bool:
    """Return True if the sandbox `pid` was still being set up (its program not started) and
    is now killed with everything it started; False if its program runs (or it has ended),
    nothing done.

    A signal to bubblewrap while it sets the sandbox up ends bubblewrap alone: the namespace's
    first process ignores what its parent's group is sent (a PID namespace's init takes only
    the signals it handles, and SIGKILL), and --die-with-parent does not hold at that moment,
    so the program started later and ran to its end. bubblewrap is stopped first, so that it
    starts nothing while its children are listed; SIGKILL to the namespace's init ends the
    namespace."""
    try:
        os.kill(pid, signal.SIGSTOP)
    except (ProcessLookupError, PermissionError):
        return False
    if innermost(pid) != pid:  # the program started meanwhile: it takes the signal itself
        os.kill(pid, signal.SIGCONT)
        return False
    try:
        started = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        started = []
    for child in map(int, started):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
    return True


def protect_judge() -> bool:
    """Return whether this process is now non-dumpable (Linux): no process of the same user
    opens its /proc/<pid>/mem or attaches to it, even outside the sandbox; defence in depth."""
    if sys.platform != "linux":
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    return bool(prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0)


def signal_status(status: int) -> int:
    """Return the exit status of a sandboxed program as subprocess gives it (negative: the
    signal that killed it): bubblewrap exits with 128 + N when its program was killed by
    signal N."""
    return -(status - 128) if 128 < status < 128 + 65 else status
