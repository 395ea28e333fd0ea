"""Shrink an input while a difference stays: the shortest, most ASCII input that still shows it
(triage.py minimizes each finding before it is saved)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from utf8cert.harness.fuzzing.kinds import error_spans
from utf8cert.reference import sequence_at

MAX_TRIES: Final = 2000
"""Probes a minimization may spend; a 64 KiB input needs about a thousand."""
MAX_SECONDS: Final = 20.0
"""CPU seconds of this process a minimization may spend (it stops with the smallest input found
so far): its effort, the same on a machine loaded tenfold, where a wall-clock budget gave a
larger finding."""
MAX_WALL_SECONDS: Final = 120.0
"""Wall seconds it may take at most: a codec slow to answer spends time that is not this
process's."""
CHARACTERWISE: Final = 1024
"""Inputs up to this size are also minimized one character at a time."""


def minimize(
    data: bytes,
    keeps: Callable[[bytes], bool],
    *,
    max_tries: int = MAX_TRIES,
    max_seconds: float = MAX_SECONDS,
    max_wall_seconds: float = MAX_WALL_SECONDS,
) -> bytes:
    """Return the shortest, most ASCII version of `data` found for which `keeps` stays True.

    First whole slices are deleted (halves, then quarters, down to single bytes), then whole
    characters (in inputs up to CHARACTERWISE bytes), then each ill-formed sequence is
    overwritten with ASCII "a" (the stray errors), then slices are overwritten so too (both keep
    offsets: a bug at byte 4096 stays at 4096). Stops after `max_tries` calls of
    `keeps`, `max_seconds` of this process's CPU or `max_wall_seconds`; `data` itself if
    nothing helps.
    """
    tries, deadline = 0, time.process_time() + max_seconds
    wall_deadline = time.monotonic() + max_wall_seconds

    def attempt(candidate: bytes) -> bool:
        nonlocal tries
        if tries >= max_tries or time.process_time() > deadline:
            return False
        if time.monotonic() > wall_deadline:
            return False
        tries += 1
        return keeps(candidate)

    for edit in (_deleted, _overwritten):
        size = max(1, len(data) // 2)
        while size >= 1:
            start = 0
            while start < len(data):
                candidate = edit(data, start, size)
                if candidate != data and attempt(candidate):
                    data = candidate  # keep `start`: the next slice has moved into its place
                    if edit is _overwritten:
                        start += size
                else:
                    start += size
            size //= 2
        if edit is _deleted:
            if len(data) <= CHARACTERWISE:
                data = _delete_characters(data, attempt)
            data = _quiet_errors(data, attempt)
    return data


def _quiet_errors(data: bytes, attempt: Callable[[bytes], bool]) -> bytes:
    """Return `data` with each ill-formed unit whose overwriting with ASCII `attempt` accepts
    overwritten (offsets kept): the stray errors beside the one that matters, one try each."""
    for start, end, _ in reversed(error_spans(data)):
        candidate = data[:start] + b"a" * (end - start) + data[end:]
        if attempt(candidate):
            data = candidate
    return data


def _delete_characters(data: bytes, attempt: Callable[[bytes], bool]) -> bytes:
    """Return `data` less each character (or maximal subpart) whose deletion `attempt` accepts."""
    start = 0
    while start < len(data):
        length, _ = sequence_at(data, start)
        candidate = data[:start] + data[start + length :]
        if attempt(candidate):
            data = candidate
        else:
            start += length
    return data


def _deleted(data: bytes, start: int, size: int) -> bytes:
    return data[:start] + data[start + size :]


def _overwritten(data: bytes, start: int, size: int) -> bytes:
    return data[:start] + b"a" * len(data[start : start + size]) + data[start + size :]
