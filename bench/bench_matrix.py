"""Speed of the conformance matrix: `utf8cert matrix` over every adapter, or `--python`.

    python bench/bench_matrix.py [--runs 3] [--python]

Times `utf8cert matrix [--python] --json FILE` in a fresh process, as a user runs it (every
available adapter checked on every built-in vector, variant and capability it offers, two at a
time on a 2-core machine), and prints the medians of --runs runs, wall and CPU time (user +
system of the child and its workers), the load average before and after, then each adapter's
own seconds from the last run, as markdown for bench/README.md. Targets: every adapter within
180 s wall on an idle 2-core machine (judged on wall time: the workers run side by side, so CPU
time is not what a user waits); the Python adapters within 60 s CPU. Exits 1 if it is missed.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PYTHON_TARGET = 60.0
"""Seconds of CPU for the Python adapters."""
ALL_TARGET = 180.0
"""Seconds of wall time for every adapter, on an idle 2-core machine."""


def run_once(output: Path, python: bool) -> tuple[float, float, str]:
    """Return (wall, CPU, stderr) of one `utf8cert matrix` run; raise if it fails."""
    command = [sys.executable, "-m", "utf8cert.harness", "matrix", "--json", str(output)]
    if python:
        command.append("--python")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"matrix failed ({result.returncode}): {result.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, result.stderr


def main() -> int:
    """Return 0 when the median CPU time is within the target, else 1; print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python", action="store_true", help="only the Python adapters")
    arguments = parser.parse_args()
    walls, cpus = [], []
    stderr = ""
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as directory:
        for _ in range(arguments.runs):
            wall, cpu, stderr = run_once(Path(directory) / "matrix.json", arguments.python)
            walls.append(wall)
            cpus.append(cpu)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    judged, target = (cpu, PYTHON_TARGET) if arguments.python else (wall, ALL_TARGET)
    met = "yes" if judged <= target else "no"
    measure = "utf8cert matrix --python" if arguments.python else "utf8cert matrix"
    load = f"load {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    print(f"{len(stderr.splitlines())} adapters, {arguments.runs} runs, {load}\n")
    basis = "CPU" if arguments.python else "wall"
    print(f"| measure | wall (median) | CPU (median) | target | met ({basis}) |")
    print("|---|--:|--:|---|---|")
    print(f"| `{measure}` | {wall:.1f} s | {cpu:.1f} s | <= {target:.0f} s | {met} |")
    print("\n| adapter | seconds (wall, last run) | verdict or reason skipped |\n|---|--:|---|")
    for line in stderr.splitlines():
        found = re.fullmatch(r"([\w.-]+): (.*) \(([\d.]+) s\)", line)
        if found:
            name, state, seconds = found.groups()
            print(f"| {name} | {seconds} | {state} |")
    return 0 if judged <= target else 1


if __name__ == "__main__":
    sys.exit(main())
