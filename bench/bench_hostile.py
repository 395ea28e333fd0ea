"""How long a check of a codec that hangs takes: the circuit breaker and the timeout at work.

    python bench/bench_hostile.py [--timeout S ...]

Times `utf8cert check` as a user runs it on a codec that hangs on every input holding byte C0
(21 built-in vectors; correct otherwise, CPython's codec): the Python codec
tests/support/hostile_codecs.py:HangOnC0 under `--isolate`, and the five-capability protocol program
`python tests/support/hostile_programs.py hang` (which imports nothing of utf8cert, so it starts as
a
small native program would). Each is timed at the default settings, then with each `--timeout`
given. Target at the default settings: 120 s each (wall time: a hang costs time, not CPU; the
first hang waits the whole 10 s `--timeout`, since a slow codec is not a hung one, and the
questions that hang after it are skipped after their paced second: codec/pace.py). Each run must
exit 1, its one behaviour the hang.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
RUNS = [
    (
        "support.hostile_codecs:HangOnC0 --isolate",
        ["support.hostile_codecs:HangOnC0", "--isolate"],
        120.0,
    ),
    (
        '"cmd:python tests/support/hostile_programs.py hang"',
        [f"cmd:{sys.executable} {TESTS / 'support' / 'hostile_programs.py'} hang"],
        120.0,
    ),
]


def timed(command: Sequence[str]) -> tuple[float, float, str]:
    """Return (wall, CPU of the children, verdict line) of `utf8cert check` run as `command`;
    fail loudly unless it exits 1 (the hang found)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    environment = dict(os.environ, PYTHONPATH=str(TESTS))
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=environment)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if result.returncode != 1:
        raise SystemExit(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr}")
    return elapsed, cpu, result.stdout.strip().splitlines()[-1]


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures as a markdown table; return 1 if a target at the defaults is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--timeout", action="append", default=[], metavar="S", help="time with --timeout S too"
    )
    parser.add_argument(
        "--no-default", action="store_true", help="skip the default settings (minutes today)"
    )
    arguments = parser.parse_args(argv)
    settings = ([] if arguments.no_default else [None]) + [float(s) for s in arguments.timeout]
    print("| codec | settings | wall | CPU | target (wall) |")
    print("|---|---|--:|--:|---|")
    met = True
    for shown, words, target in RUNS:
        for timeout in settings:
            extra = [] if timeout is None else ["--timeout", f"{timeout:g}"]
            wall, cpu, _ = timed(["utf8cert", "check", *words, "-q", *extra])
            verdict = ""
            if timeout is None:
                verdict = f"≤ {target:g} s: {'met' if wall <= target else 'NOT met'}"
                met = met and wall <= target
            setting = "default" if timeout is None else f"--timeout {timeout:g}"
            print(f"| `{shown}` | {setting} | {wall:.1f} s | {cpu:.1f} s | {verdict} |")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
