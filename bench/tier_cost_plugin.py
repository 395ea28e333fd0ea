"""The pytest plugin of bench/tier_cost.py: one JSON line per item (node id, CPU-s, wall-s) into
the directory TIER_COST_RECORDS names, from each process of the session; nothing without it."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Generator
from pathlib import Path

import pytest

from bench.tier_cost import RECORDS_VARIABLE, cpu_seconds


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    """Return nothing; record the CPU and wall seconds of the item's setup, call and teardown."""
    directory = os.environ.get(RECORDS_VARIABLE)
    cpu, wall = cpu_seconds(), time.monotonic()
    yield
    if directory:
        record = {
            "node": item.nodeid,
            "cpu": round(cpu_seconds() - cpu, 3),
            "wall": round(time.monotonic() - wall, 3),
        }
        with (Path(directory) / f"{os.getpid()}.jsonl").open("a") as records:
            records.write(json.dumps(record) + "\n")
