"""What grouping into behaviours and the report formats cost: `utf8cert check` of CPython's codec,
timed in this checkout and in another installation of utf8cert (e.g. main's, before them).

    python bench/bench_reports.py --baseline-python /tmp/mainvenv/bin/python [--runs 7]

Each run is a fresh process running the command as a user does (`python -m utf8cert.harness
check SPEC`, report printed into a pipe); its CPU time (user + system) is what the wall time
would be on an idle machine. Runs of the two installations alternate, so that a change in the
machine's load touches both alike. Measured: codec:utf-8 with the default report (the target:
at most 1.10 times the baseline), the same writing every format this checkout has (JSON,
Markdown, JUnit XML, HTML), and codec:utf-8:surrogatepass (2494 differences to group) with the
default report. Prints the medians and ratios as a markdown table for bench/README.md; exits 1
if the target is missed.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

TARGET = 1.10
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""Run as on a user's machine, where Python caches compiled modules."""


def cpu_seconds(python: str, arguments: Sequence[str], cwd: Path) -> float:
    """Return the CPU seconds (user + system) of one `utf8cert check` run under `python`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [python, "-m", "utf8cert.harness", "check", *arguments]
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=ENVIRONMENT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def compare(
    baseline: str, here: Sequence[str], there: Sequence[str], runs: int, cwd: Path
) -> tuple[float, float]:
    """Return the medians (baseline, this checkout) of `runs` alternating runs, after a warm-up."""
    cpu_seconds(baseline, there, cwd)
    cpu_seconds(sys.executable, here, cwd)
    before: list[float] = []
    after: list[float] = []
    for _ in range(runs):
        before.append(cpu_seconds(baseline, there, cwd))
        after.append(cpu_seconds(sys.executable, here, cwd))
    return statistics.median(before), statistics.median(after)


def main() -> int:
    """Time the runs, print the table, return 1 if the default report misses TARGET."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-python", required=True, metavar="PYTHON")
    parser.add_argument("--runs", type=int, default=7)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        cwd = Path(temporary)
        formats = ["--json", "r.json", "--markdown", "r.md"]
        rows = [
            ("codec:utf-8, default report", ["codec:utf-8"], ["codec:utf-8"]),
            (
                "codec:utf-8, every format written",
                ["codec:utf-8", *formats, "--junit-xml", "r.xml", "--html", "r.html"],
                ["codec:utf-8", *formats],
            ),
            (
                "codec:utf-8:surrogatepass, default report",
                ["codec:utf-8:surrogatepass"],
                ["codec:utf-8:surrogatepass"],
            ),
        ]
        results = [
            (name, *compare(arguments.baseline_python, here, there, arguments.runs, cwd))
            for name, here, there in rows
        ]
    print(
        f"| `utf8cert check` (CPU, median of {arguments.runs}) | baseline | this checkout | ratio |"
    )
    print("|---|--:|--:|--:|")
    for name, before, after in results:
        print(f"| {name} | {before:.2f} s | {after:.2f} s | {after / before:.3f} |")
    ratio = results[0][2] / results[0][1]
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
