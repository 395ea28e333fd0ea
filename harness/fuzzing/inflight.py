"""The input being executed, kept where a sudden death of the fuzzing process cannot lose it.

libFuzzer saves the input that crashed the process when it sees the crash: a signal it handles
(SIGSEGV, SIGABRT), a Python exception, its own timeout. A codec that calls `os._exit`, or a
process killed from outside, leaves nothing. So each execution first writes its input into a
memory-mapped file (a memory copy, no system call: about a microsecond) and marks it done after;
a file still holding an input that is not done, once the process has gone, names the input that
killed it. `rescue` turns such inputs into crash files for triage (triage.py), next to libFuzzer's.
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Final

CRASHES: Final = "libfuzzer"
"""The campaign's crash directory, under its artifacts: libFuzzer's crash-, timeout- and oom-
files, and the in-flight files."""
PREFIX: Final = "inflight-"
"""One file per fuzzing process: `inflight-LABEL`, in the campaign's crash directory."""
LABEL_VARIABLE: Final = "UTF8CERT_FUZZ_LABEL"
"""The label the driver gives a fuzzing process (its pid inside a sandbox's PID namespace is
the same in every sandbox); a process started otherwise is labelled by its pid."""
_HEADER: Final = struct.Struct("<qqqq")
"""The input's length (or DONE), how many inputs this process has been given, on how many of
them the codec differed only at a level that does not fail, and whether libFuzzer has started
mutating (1: its seed pass is over). The campaign's progress is read from here, never from
libFuzzer's status lines: the codec prints to the same stream, and could print those too."""
DONE: Final = -1
SAVED_BY_LIBFUZZER: Final = ("crash-", "timeout-", "oom-", "leak-")
"""The names libFuzzer gives an input it saw take the process down, before its SHA-1."""


class InFlight:
    """A record of the input being executed, in the file `directory`/inflight-PID."""

    def __init__(self, directory: Path, max_len: int) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        label = os.environ.get(LABEL_VARIABLE, "") or str(os.getpid())
        self.path = directory / f"{PREFIX}{label}"
        self.capacity = max_len
        self.executions = 0
        self.lesser = 0
        self.mutating = 0
        with self.path.open("wb") as file:
            file.truncate(_HEADER.size + max_len)
        with self.path.open("r+b") as file:
            self._map = mmap.mmap(file.fileno(), 0)
        self.done()

    def start(self, data: bytes) -> None:
        """Record `data` as the input being executed (its first `max_len` bytes: libFuzzer
        never gives more)."""
        size = min(len(data), self.capacity)
        self.executions += 1
        self._map[_HEADER.size : _HEADER.size + size] = data[:size]
        _HEADER.pack_into(self._map, 0, size, self.executions, self.lesser, self.mutating)

    def done(self) -> None:
        """Record that no input is being executed."""
        _HEADER.pack_into(self._map, 0, DONE, self.executions, self.lesser, self.mutating)

    def mutated(self) -> None:
        """Record that libFuzzer has asked for a mutation: its seed pass is over."""
        self.mutating = 1


@dataclass
class Tally:
    """What the processes of a campaign did, counted by themselves."""

    executions: int = 0
    """Inputs given (the seed pass included, whatever ended the process)."""
    lesser: int = 0
    """Inputs on which the codec differed only at a level that does not fail."""
    mutating: bool = False
    """Whether a process had started mutating (its seed pass over)."""


def left_behind(path: Path) -> tuple[Tally, bytes | None]:
    """Return what an in-flight file's process counted, and the input it records as being
    executed (None when none is, or the file holds no such record)."""
    content = path.read_bytes()
    if len(content) < _HEADER.size:
        return Tally(), None
    size, executions, lesser, mutating = _HEADER.unpack_from(content)
    tally = Tally(executions, lesser, bool(mutating))
    if size == DONE or not 0 <= size <= len(content) - _HEADER.size:
        return tally, None
    return tally, content[_HEADER.size : _HEADER.size + size]


def running(directory: Path) -> Tally:
    """Return what the processes of a campaign have counted so far, summed from the headers of
    their in-flight files (each read alone: the input after it may be 64 KiB)."""
    tally = Tally()
    for path in directory.glob(f"{PREFIX}*"):
        try:
            with path.open("rb") as file:
                header = file.read(_HEADER.size)
        except OSError:
            continue  # removed meanwhile
        if len(header) < _HEADER.size:
            continue
        _, executions, lesser, mutating = _HEADER.unpack(header)
        tally.executions += executions
        tally.lesser += lesser
        tally.mutating = tally.mutating or bool(mutating)
    return tally


def settle(directory: Path, label: str | int) -> None:
    """Mark the in-flight file of process `label` (ended) as executing nothing: the campaign
    stopped it on purpose, so the input it was running killed nothing. Nothing happens when the
    process left no file."""
    path = directory / f"{PREFIX}{label}"
    with contextlib.suppress(OSError), path.open("r+b") as file:
        header = file.read(_HEADER.size)
        if len(header) == _HEADER.size:
            _, executions, lesser, mutating = _HEADER.unpack(header)
            file.seek(0)
            file.write(_HEADER.pack(DONE, executions, lesser, mutating))


def collect(directory: Path, *, rescue: bool) -> Tally:
    """Remove the in-flight files under `directory` and return what their processes counted,
    summed.

    With `rescue`, each input left in flight becomes a `crash-SHA1` file (unless libFuzzer
    saved it itself, having seen the crash or its own timeout: one input, one finding); without
    (the campaign was stopped on purpose, so the input it was running killed nothing), it is
    dropped.
    """
    tally = Tally()
    for path in sorted(directory.glob(f"{PREFIX}*")):
        counted, data = left_behind(path)
        path.unlink()
        tally.executions += counted.executions
        tally.lesser += counted.lesser
        tally.mutating = tally.mutating or counted.mutating
        if data is None or not rescue:
            continue
        digest = hashlib.sha1(data).hexdigest()
        if not any((directory / f"{kind}{digest}").exists() for kind in SAVED_BY_LIBFUZZER):
            (directory / f"crash-{digest}").write_bytes(data)
    return tally
