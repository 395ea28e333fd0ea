"""What a test tier costs, test by test: CPU seconds (the test process's and its children's) and
wall seconds of every item, summed by folder and by file.

    python bench/tier_cost.py [--top N] [PYTEST ARGUMENTS...]

runs `python -m pytest -p bench.tier_cost_plugin ARGUMENTS` (the default tier when none are
given, on pyproject's workers), then prints the totals. CPU is what carries over between
machines: under load a test that computes takes several times its CPU in wall time, while a test
that waits (a time limit, a hang) takes wall time and no CPU (issue 41: the default tier's budget
is 600 CPU-s and 5 minutes wall on an idle 2-core machine).

Each process of the session (each xdist worker) reads getrusage(RUSAGE_SELF) and
getrusage(RUSAGE_CHILDREN) around each item's setup, call and teardown and appends one JSON line
per item to a file in a temporary directory; a child process's CPU is counted when the test
reaps it (subprocess.run, communicate, wait), which is how the tests end theirs. Module- and
session-scoped fixtures are charged to the item that first needs them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
RECORDS_VARIABLE: Final = "TIER_COST_RECORDS"
"""The directory each process of the session writes its items' costs into."""


def cpu_seconds() -> float:
    """Return the user + system CPU seconds of this process and of the children it has reaped."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def machine_cpu_seconds() -> float:
    """Return the CPU seconds the whole machine has spent busy since boot (/proc/stat; 0.0 where
    there is none). A codec sandboxed by bubblewrap runs as its grandchild, which getrusage does
    not count once bubblewrap is killed rather than waited for: on an idle machine this delta is
    the session's whole cost."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def read_records(directory: Path) -> Iterator[dict[str, object]]:
    """Return every item's record the session's processes wrote (none for an empty directory)."""
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            yield json.loads(line)


def summary(records: list[dict[str, object]], top: int) -> str:
    """Return the totals by folder and by file, and the `top` costliest items, as text."""
    cpu: defaultdict[str, float] = defaultdict(float)
    wall: defaultdict[str, float] = defaultdict(float)
    items: Counter[str] = Counter()
    for record in records:
        node = str(record["node"])
        file = node.split("::")[0]
        folder = file.rsplit("/", 1)[0] if "/" in file.removeprefix("tests/") else "tests"
        for key in (folder, file):
            cpu[key] += float(str(record["cpu"]))
            wall[key] += float(str(record["wall"]))
            items[key] += 1
    lines = [f"{len(records)} items, {sum(float(str(r['cpu'])) for r in records):.0f} CPU-s"]
    lines.append(f"{'CPU-s':>8} {'wall-s':>8} {'items':>6}  folder or file")
    folders = sorted((key for key in cpu if not key.endswith(".py")), key=lambda k: -cpu[k])
    files = sorted((key for key in cpu if key.endswith(".py")), key=lambda k: -cpu[k])
    for group in (folders, files[:top]):
        lines.extend(f"{cpu[k]:8.1f} {wall[k]:8.1f} {items[k]:6d}  {k}" for k in group)
        lines.append("")
    lines.append(f"the {top} costliest items (CPU-s, wall-s):")
    costliest = sorted(records, key=lambda r: -float(str(r["cpu"])))[:top]
    lines.extend(
        f"{float(str(r['cpu'])):8.1f} {float(str(r['wall'])):8.1f}  {r['node']}" for r in costliest
    )
    return "\n".join(lines)


def main() -> int:
    """Return pytest's exit status, after printing the session's costs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=40, help="files and items listed (40)")
    options, arguments = parser.parse_known_args()
    with tempfile.TemporaryDirectory(prefix="tier-cost-") as records:
        environment = dict(os.environ, **{RECORDS_VARIABLE: records})
        environment["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(ROOT), environment.get("PYTHONPATH")])
        )
        command = [sys.executable, "-m", "pytest", "-p", "bench.tier_cost_plugin", *arguments]
        started, before, machine = time.monotonic(), cpu_seconds(), machine_cpu_seconds()
        status = subprocess.run(command, cwd=ROOT, env=environment, check=False).returncode
        elapsed, spent = time.monotonic() - started, cpu_seconds() - before
        busy = machine_cpu_seconds() - machine
        print(summary(list(read_records(Path(records))), options.top))
        # The items' sum leaves out each worker's start-up and collection.
        print(f"session: {spent:.0f} CPU-s, {elapsed:.0f} s wall; pytest exit status {status}")
        print(f"machine: {busy:.0f} CPU-s busy meanwhile (the session's whole cost when idle)")
    return status


if __name__ == "__main__":
    sys.exit(main())
