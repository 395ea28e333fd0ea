"""Speed of the conformance matrix over every Python adapter: `utf8cert matrix --python`.

    python bench/bench_matrix.py [--runs 3]

Times `utf8cert matrix --python --json FILE` in a fresh process, as a user runs it (every
available Python adapter checked on every built-in vector, variant and capability it offers),
and prints the medians of --runs runs, wall and CPU time (user + system of the child: what the
wall time would be on an idle machine), then each adapter's own seconds from the last run, as
markdown for bench/README.md. Target: at most 60 s. Exits 1 if it is missed (judged on CPU time).
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET = 60.0


def run_once(output: Path) -> tuple[float, float, str]:
    """Return (wall, CPU, stderr) of one `utf8cert matrix --python` run; raise if it fails."""
    command = [
        sys.executable,
        "-m",
        "utf8cert.harness",
        "matrix",
        "--python",
        "--json",
        str(output),
    ]
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
    runs = parser.parse_args().runs
    walls, cpus = [], []
    stderr = ""
    with tempfile.TemporaryDirectory() as directory:
        for _ in range(runs):
            wall, cpu, stderr = run_once(Path(directory) / "matrix.json")
            walls.append(wall)
            cpus.append(cpu)
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    met = "yes" if cpu <= TARGET else "no"
    print("| measure | wall (median) | CPU (median) | target | met (CPU) |")
    print("|---|--:|--:|---|---|")
    print(
        f"| `utf8cert matrix --python` | {wall:.1f} s | {cpu:.1f} s | <= {TARGET:.0f} s | {met} |"
    )
    print("\n| adapter | seconds (wall, last run) | verdict or reason skipped |\n|---|--:|---|")
    for line in stderr.splitlines():
        found = re.fullmatch(r"([\w.-]+): (.*) \(([\d.]+) s\)", line)
        if found:
            name, state, seconds = found.groups()
            print(f"| {name} | {seconds} | {state} |")
    return 0 if cpu <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
