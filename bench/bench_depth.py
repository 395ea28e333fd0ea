"""What a check feeds a codec at each depth, and how long slow codecs take.

    python bench/bench_depth.py [--full]

Prints, for the built-in vectors and every capability, the calls, bytes and code points a check
feeds the codec at `--depth default` and `--depth full` (harness/check/schedule.py works them
out; tests/check/test_schedule.py confirms it with a counting codec), then times
`utf8cert check` as a user runs it on a pure-Python byte-at-a-time decoder (bench/slow_codec.py)
and on `cmd:node examples/node/textdecoder.js`, wall and CPU time (on a shared machine the wall time
grows; CPU time is what an idle machine takes). With `--full`, the full depth is timed too
(minutes). Targets: the slow codec in at most 15 s, the Node program in at most 5 s (CPU).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from utf8cert.harness.check.schedule import DEPTHS, workload
from utf8cert.harness.codec.interface import CAPABILITIES, Capability
from utf8cert.harness.vectors.load import load_vectors

ROOT = Path(__file__).resolve().parent.parent
SLOW = "bench.slow_codec:ByteAtATime"
NODE = "cmd:node examples/node/textdecoder.js"
SLOW_TARGET, NODE_TARGET = 15.0, 5.0


def timed(command: Sequence[str]) -> tuple[float, float, int]:
    """Return (wall, CPU of the children, exit status) of running `command` in the repository;
    fail loudly unless it exits 0."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if result.returncode != 0:  # both codecs timed are conformant: any other exit is a bug
        raise SystemExit(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr}")
    return elapsed, cpu, result.returncode


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures as markdown tables; return 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="time the full depth too (slow)")
    arguments = parser.parse_args(argv)
    vectors = load_vectors()
    everything: tuple[Capability, ...] = CAPABILITIES
    print("| depth | calls | bytes fed | code points fed |")
    print("|---|--:|--:|--:|")
    for depth in DEPTHS:
        fed = workload(vectors, depth, everything)
        print(f"| {depth} | {fed.calls:,} | {fed.bytes:,} | {fed.code_points:,} |")
    print()
    print("| `utf8cert check` | depth | wall | CPU | target (CPU) |")
    print("|---|---|--:|--:|---|")
    met = True
    runs = [(SLOW, SLOW_TARGET)] + ([(NODE, NODE_TARGET)] if shutil.which("node") else [])
    for spec, target in runs:
        for depth in DEPTHS if arguments.full else DEPTHS[:1]:
            wall, cpu, _ = timed(["utf8cert", "check", spec, "--depth", depth])
            verdict = ""
            if depth == "default":
                verdict = f"≤ {target:g} s: {'met' if cpu <= target else 'NOT met'}"
                met = met and cpu <= target
            print(f"| `{spec}` | {depth} | {wall:.1f} s | {cpu:.1f} s | {verdict} |")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
