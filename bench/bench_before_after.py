"""The cost of a change to the check: `utf8cert check` of the same codecs by two installs of
utf8cert, alternately, in the same run (so that both see the same machine load).

    python bench/bench_before_after.py --before /path/to/other/venv/bin/python [--runs 5]
                                       [--where isolated|in-process] [--codec SPEC ...]

Each install is a Python interpreter with utf8cert installed (a virtualenv on a worktree of an
earlier commit: `git worktree add ../before COMMIT`, `python -m venv --system-site-packages
../venv-before`, `../venv-before/bin/pip install --no-deps -e ../before`). The codecs:
CPython's own (`codec:utf-8`, the default) and bench/slow_codec.py's byte-at-a-time pure-Python
codec (or the `--codec` specs given: a codec that differs, for what its report's explanations
cost), each checked at the default depth with its report printed, in a child process
(`--where isolated`, the default of today's check) or in utf8cert's own process (`--where
in-process`, the default before issue 23), each install told so in its own words. Prints the
medians of CPU time (user + system of the check's process and its children: the wall time of a
shared machine grows with the load) and wall time, and the ratio after/before, as a markdown
table for bench/README.md. Exits 1 when a ratio of CPU time exceeds --limit (1.2 by default).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODECS = ("codec:utf-8", "bench.slow_codec:ByteAtATime")
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def placement(python: str, where: str) -> list[str]:
    """Return the options that make `python`'s install run a codec `where` says: `--isolate`
    (every install has it), `--in-process` where the install has that option, else none (an
    install from before isolation was the default runs the codec in process by default)."""
    if where == "isolated":
        return ["--isolate"]
    command = [python, "-m", "utf8cert.harness", "check", "--help"]
    usage = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=ENVIRONMENT)
    return ["--in-process"] if "--in-process" in usage.stdout else []


def timed(python: str, spec: str, options: Sequence[str]) -> tuple[float, float]:
    """Return (CPU seconds, wall seconds) of one `python -m utf8cert.harness check SPEC
    OPTIONS`; fail loudly unless it gives a verdict (exit 0, or 1 for a codec that differs)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = [python, "-m", "utf8cert.harness", "check", spec, *options]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=ENVIRONMENT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{python} check {spec}: exit {done.returncode}\n{done.stderr[-2000:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table; return 1 if a CPU-time ratio is above --limit."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, metavar="PYTHON", help="the earlier install")
    parser.add_argument("--after", default=sys.executable, metavar="PYTHON", help="this one")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--limit", type=float, default=1.2)
    parser.add_argument("--where", choices=("isolated", "in-process"), default="isolated")
    parser.add_argument(
        "--codec",
        action="append",
        metavar="SPEC",
        help=f"a codec to check (repeatable; default: {', '.join(CODECS)})",
    )
    arguments = parser.parse_args(argv)
    options = {
        "before": placement(arguments.before, arguments.where),
        "after": placement(arguments.after, arguments.where),
    }
    print(f"load average before: {os.getloadavg()[0]:.2f}; codecs {arguments.where}")
    print("| codec | before CPU | after CPU | ratio | before wall | after wall |")
    print("|---|--:|--:|--:|--:|--:|")
    within = True
    for spec in arguments.codec or CODECS:
        times: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
        for _ in range(arguments.runs):  # alternately, so that both meet the same load
            times["before"].append(timed(arguments.before, spec, options["before"]))
            times["after"].append(timed(arguments.after, spec, options["after"]))
        cpu = {name: statistics.median(t[0] for t in runs) for name, runs in times.items()}
        wall = {name: statistics.median(t[1] for t in runs) for name, runs in times.items()}
        ratio = cpu["after"] / cpu["before"]
        within = within and ratio <= arguments.limit
        print(
            f"| `{spec}` | {cpu['before']:.2f} s | {cpu['after']:.2f} s | {ratio:.2f} "
            f"| {wall['before']:.2f} s | {wall['after']:.2f} s |"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
