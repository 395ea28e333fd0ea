"""A soak run of isolation (issue 13): 10,000 calls of a Python codec in a child process that
dies of SIGSEGV on 1% of them. Each death is a crash of that call alone and the next call gets a
fresh child; utf8cert never holds more than one child, and its own file descriptors and memory
do not grow with the calls."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from utf8cert.harness.codec import children
from utf8cert.harness.codec.interface import Failed, Returned
from utf8cert.harness.codec.spec import load_codec

TESTS = Path(__file__).resolve().parents[1]
CALLS = 10_000
EVERY = 100
"""One call in EVERY holds byte C0, on which the codec dies."""
SAMPLE = 500
"""Calls between two looks at the processes, file descriptors and memory (each look just after
a call that was answered, so that a child is running)."""


def resident_mib() -> float:
    """Return this process's resident memory, in MiB (Linux /proc)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def child_processes() -> list[int]:
    """Return the pids of this process's children (Linux /proc), zombies not yet reaped too."""
    me, found = str(os.getpid()), []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if fields[1] == me:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.exhaustive
@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads Linux /proc")
def test_ten_thousand_isolated_calls_with_one_in_a_hundred_crashing_stay_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(TESTS))  # the child imports hostile_codecs from there
    before = set(child_processes())
    codec = load_codec("support.hostile_codecs:SegfaultOnC0", isolate=True)
    crashes: list[tuple[int, object]] = []
    samples: list[tuple[int, int, int, float]] = []
    try:
        for call in range(CALLS):
            data = b"\xc0\x80" if call % EVERY == EVERY - 1 else f"call {call} \u00e9".encode()
            outcome = codec.decode(data)
            if b"\xc0" in data or outcome != Returned(data.decode()):
                crashes.append((call, outcome))
            if call % SAMPLE == 0:
                started = set(child_processes()) - before
                live = len(children.live_children())
                samples.append((len(started), live, open_descriptors(), resident_mib()))
    finally:
        codec.close()
    killed = Failed("crash", "the program was killed by SIGSEGV")
    assert crashes == [(call, killed) for call in range(EVERY - 1, CALLS, EVERY)]
    assert {(started, live) for started, live, _, _ in samples} == {(1, 1)}  # one child at a time
    descriptors = [count for _, _, count, _ in samples]
    assert max(descriptors) - descriptors[0] <= 4  # no pipe of a dead child kept open
    memory = [mib for _, _, _, mib in samples]
    assert max(memory) - memory[1] < 32  # after warming up, nothing grows with the calls
