"""What coverage accounting and fingerprinting cost: the check of CPython's codec, timed in this
checkout and in another installation of utf8cert (e.g. main's, before they existed).

    python bench/bench_verdicts.py --baseline-python /tmp/mainvenv/bin/python [--runs 7]

Each run is a fresh process that loads the vectors and then times `run_check(codec:utf-8)` alone
(CPU time), so imports and loading do not blur the difference. Runs of the two alternate, so
that a change in the machine's load touches both alike. Prints the medians and the fastest runs
(on a loaded machine CPU time grows too: caches are shared) and their ratios as a markdown table
for bench/README.md. Target: the ratio of the medians at most 1.10; exits 1 if it is missed.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

TARGET = 1.10

CHECK = """
import time
from utf8cert.harness.check.run import run_check
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
vectors = load_vectors()
codec = load_codec("codec:utf-8")
start = time.process_time()
report = run_check(codec, vectors)
print(time.process_time() - start)
assert report.conformant, report.verdict()
"""


def check_seconds(python: str) -> float:
    """Return the CPU seconds of one check of CPython's codec under `python`."""
    result = subprocess.run([python, "-c", CHECK], capture_output=True, text=True, check=True)
    return float(result.stdout.split()[-1])


def main() -> int:
    """Time both, print the table, return 1 if the ratio is above TARGET."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-python", required=True, metavar="PYTHON")
    parser.add_argument("--runs", type=int, default=7)
    arguments = parser.parse_args()
    here: list[float] = []
    there: list[float] = []
    check_seconds(sys.executable)  # warm-up: bytecode caches
    check_seconds(arguments.baseline_python)
    for _ in range(arguments.runs):
        here.append(check_seconds(sys.executable))
        there.append(check_seconds(arguments.baseline_python))
    print("| check of codec:utf-8 (CPU) | baseline | this checkout | ratio | target |")
    print("|---|--:|--:|--:|--:|")
    ratios = {}
    for name, pick in (("median", statistics.median), ("fastest", min)):
        ratios[name] = pick(here) / pick(there)
        print(
            f"| run_check, {name} of {arguments.runs} | {pick(there):.3f} s | "
            f"{pick(here):.3f} s | {ratios[name]:.3f} | ≤ {TARGET:.2f} |"
        )
    return 0 if ratios["median"] <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
