"""The pytest plugin of bench/tier_cost.py: one JSON line per item (node id, CPU-s, wall-s) into
the directory TIER_COST_RECORDS names, from each process of the session; nothing without it.
An item's CPU is its process's cgroup's where TIER_COST_CGROUP names the session's, else the
process's own and its reaped children's (bench/tier_cost.py)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Generator
from functools import partial
from pathlib import Path

import pytest

from bench.tier_cost import (
    CGROUP_VARIABLE,
    RECORDS_VARIABLE,
    cgroup_seconds,
    cpu_seconds,
    own_cgroup,
)

_meter: Callable[[], float] = cpu_seconds
"""How this process reads the CPU seconds spent so far."""


def pytest_configure(config: pytest.Config) -> None:
    """Move this process into a cgroup of its own inside the session's, where there is one."""
    global _meter
    session = os.environ.get(CGROUP_VARIABLE)
    if session:
        own = own_cgroup(Path(session))
        _meter = partial(cgroup_seconds, own)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    """Return nothing; record the CPU and wall seconds of the item's setup, call and teardown."""
    directory = os.environ.get(RECORDS_VARIABLE)
    cpu, wall = _meter(), time.monotonic()
    yield
    if directory:
        record = {
            "node": item.nodeid,
            "cpu": round(_meter() - cpu, 3),
            "wall": round(time.monotonic() - wall, 3),
        }
        with (Path(directory) / f"{os.getpid()}.jsonl").open("a") as records:
            records.write(json.dumps(record) + "\n")
