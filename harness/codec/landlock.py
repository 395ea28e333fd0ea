"""The sandbox that needs no namespace: Landlock (Linux >= 5.13) with a seccomp filter, applied
in a codec's child between fork and exec, where bubblewrap cannot start (a kernel or a
distribution that refuses unprivileged user namespaces). What the child may read is the view of
view.py, what it may write its own scratch directory (HOME and TMPDIR) and the paths named with
`--sandbox-writable`; it may not trace a process outside its domain (utf8cert), connect or bind
a TCP port (Landlock ABI 4), signal a process outside its domain or use an abstract socket
(ABI 6); seccomp.py takes away other sockets than local ones, io_uring and the keyrings. It
does not hide the processes of the machine (no PID namespace: /proc lists them, without their
memory or environment) nor give the child a /tmp of its own in memory (docs/sandbox.md).

    unavailable() -> None | why           whether this kernel has Landlock
    ruleset(readable, writable) -> fd     what the child may read and write
    confinement(fd)                       the function the child runs before exec
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import stat
from collections.abc import Callable, Iterable
from typing import Final

from utf8cert.harness.codec import seccomp, view

CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
"""The system calls' numbers, the same on every architecture (the kernel's common table)."""
CREATE_RULESET_VERSION: Final = 1
RULE_PATH_BENEATH: Final = 1

# Access rights to files (linux/landlock.h), by the ABI version that brought them.
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
DIRECTORY_CHANGES: Final = sum(1 << bit for bit in range(4, 13))  # remove, make (ABI 1)
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15  # ABI 2, 3, 5
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6

SCOPED_ABI: Final = 6
"""The first version that keeps the child's signals from utf8cert (before it, a codec could stop
or kill its judge: no certificate, never a forged one; `held` says so)."""
FILE_RIGHTS: Final = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
"""The rights that make sense on a file (the others are about directories)."""
READING: Final = EXECUTE | READ_FILE | READ_DIR
DEVICES: Final = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")
"""The device files a program may open (for writing too: they hold nothing)."""
O_PATH: Final = getattr(os, "O_PATH", 0)


class _RulesetAttributes(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


_libc = ctypes.CDLL(None, use_errno=True)
_syscall = _libc.syscall
_abi: int | None = None


def abi() -> int:
    """Return this kernel's Landlock ABI version (0 where it has none, or it is disabled)."""
    global _abi
    if _abi is None:
        found = _syscall(CREATE_RULESET, None, ctypes.c_size_t(0), CREATE_RULESET_VERSION)
        _abi = max(int(found), 0)
    return _abi


def unavailable() -> str | None:
    """Return None when Landlock can hold a codec here, else why not in a few words."""
    version = abi()
    if version == 0:
        return "no Landlock in this kernel (Linux >= 5.13 with Landlock enabled)"
    if seccomp.machine() is None:
        return "no seccomp filter written for this machine"
    return None


def held() -> str:
    """Return what this kernel's Landlock holds, in the boundary's words."""
    if abi() >= SCOPED_ABI:
        return "files, network and signals held; other processes visible"
    return (
        f"files and network held; signals not held (Landlock ABI {abi()}); other processes visible"
    )


def _handled_files(version: int) -> int:
    """Return the rights to files Landlock `version` knows, all of them handled (refused but
    where a rule allows them)."""
    rights = EXECUTE | WRITE_FILE | READ_FILE | READ_DIR | DIRECTORY_CHANGES
    for right, since in ((REFER, 2), (TRUNCATE, 3), (IOCTL_DEV, 5)):
        rights |= right if version >= since else 0
    return rights


def _add(ruleset: int, path: str, rights: int) -> None:
    """Allow `rights` beneath `path` (those that make sense for it and the kernel knows);
    nothing if it is gone."""
    rights &= _handled_files(abi())
    try:
        descriptor = os.open(path, O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not stat.S_ISDIR(os.fstat(descriptor).st_mode):
            rights &= FILE_RIGHTS
        rule = _PathBeneath(rights, descriptor)
        if _syscall(ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), 0) != 0:
            number = ctypes.get_errno()
            raise OSError(number, f"landlock_add_rule: {os.strerror(number)}", path)
    finally:
        os.close(descriptor)


def ruleset(readable: Iterable[str], writable: Iterable[str]) -> int:
    """Return a Landlock ruleset's descriptor (close-on-exec): `readable` (view.py's, /etc
    without its secrets) may be read and run, `writable` written too, DEVICES opened, /proc
    read; nothing else, no TCP, no signal or abstract socket outside. OSError if the kernel
    refuses."""
    version = abi()
    handled = _handled_files(version)
    attributes = _RulesetAttributes(
        handled,
        NET_BIND_TCP | NET_CONNECT_TCP if version >= 4 else 0,  # seccomp holds it before
        SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= SCOPED_ABI else 0,
    )
    descriptor = int(
        _syscall(CREATE_RULESET, ctypes.byref(attributes), ctypes.sizeof(attributes), 0)
    )
    if descriptor < 0:
        number = ctypes.get_errno()
        raise OSError(number, f"landlock_create_ruleset: {os.strerror(number)}")
    try:
        for path in readable:
            if path == view.ETC:
                for entry in view.etc_without_secrets():
                    _add(descriptor, entry, READING)
            else:
                _add(descriptor, path, READING)
        _add(descriptor, "/proc", READING)
        for device in DEVICES:
            _add(descriptor, device, READ_FILE | WRITE_FILE | TRUNCATE | IOCTL_DEV)
        for path in writable:
            _add(descriptor, path, handled)
    except OSError:
        os.close(descriptor)
        raise
    return descriptor


def confinement(descriptor: int) -> Callable[[], None]:
    """Return what the child runs between fork and exec: no new privileges, the ruleset
    `descriptor` enforced, the seccomp filter installed; the child exits with status 126 if
    any fails (it must never run the codec unconfined). Only system calls happen there."""
    install = seccomp.installer(seccomp.program(seccomp.CODEC_DENIED))
    restrict = _syscall

    def confine() -> None:
        if install() != 0 or restrict(RESTRICT_SELF, descriptor, 0) != 0:
            os._exit(126)

    return confine


def close(descriptor: int) -> None:
    """Close a ruleset's descriptor in utf8cert once the child has it."""
    with contextlib.suppress(OSError):
        os.close(descriptor)
