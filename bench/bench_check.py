"""Speed of certification: `utf8cert check` and the pytest plugin against CPython's codec.

    python bench/bench_check.py [--runs 5]

cli: wall time of `utf8cert check` (all built-in vectors, all variants, every capability of
codec:utf-8), as a user runs it: a fresh process, report printed, the codec in its child
process (the default). Target: under 2 s. Beside it, `--in-process` (the codec trusted).
plugin: wall time of `pytest --utf8-codec codec:utf-8` in an empty directory (one item per vector
and capability). Target: at most 3x the cli's time.
Also, in one process: importing, loading the vectors, and the check itself, to see where the
time goes. Prints the medians of --runs runs, wall and CPU time (on a machine shared with other
work the wall time grows; CPU time is what an idle machine takes), as markdown tables for
bench/README.md. Exits 1 if a target is missed (judged on CPU time). The commands run with
Python's bytecode cache on, as on a user's machine, whatever PYTHONDONTWRITEBYTECODE says here.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The commands run as on a user's machine, where Python caches compiled modules (this machine
sets PYTHONDONTWRITEBYTECODE, which would add the compiling of every module to every run)."""
CLI_TARGET = 2.0
PLUGIN_RATIO_TARGET = 3.0

PHASES = """
import time
start = time.process_time()
from utf8cert.harness.check.run import run_check
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors
imported = time.process_time()
vectors = load_vectors()
loaded = time.process_time()
report = run_check(load_codec("codec:utf-8"), vectors)
checked = time.process_time()
assert report.conformant, report.verdict()
calls = sum(report.checked.values())
print(imported - start, loaded - imported, checked - loaded, len(vectors), calls)
"""


def timed(command: Sequence[str], cwd: Path, ok: Sequence[int] = (0,)) -> tuple[float, float]:
    """Return (wall, CPU) seconds `command` takes; fail loudly if it exits with a status not in
    `ok`. CPU time (user + system of the child) is what the wall time would be on an idle
    machine; on a loaded one the wall time is longer."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=ENVIRONMENT)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in ok:
        raise SystemExit(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu


def median_timed(
    command: Sequence[str], cwd: Path, runs: int, ok: Sequence[int] = (0,)
) -> tuple[float, float]:
    """Return the median (wall, CPU) of `runs` runs, after one warm-up run (pyc files)."""
    timed(command, cwd, ok)
    samples = [timed(command, cwd, ok) for _ in range(runs)]
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


def phases(runs: int) -> tuple[float, float, float, int, int]:
    """Return the median (import, load, check) seconds, the vector count and vectors x caps."""
    samples = []
    for _ in range(runs):
        command = [sys.executable, "-c", PHASES]
        run = subprocess.run(command, check=True, capture_output=True, text=True, env=ENVIRONMENT)
        output = run.stdout.split()
        samples.append([float(value) for value in output[:3]] + [int(v) for v in output[3:]])
    columns = list(zip(*samples, strict=True))
    imported, loaded, checked = (statistics.median(column) for column in columns[:3])
    return imported, loaded, checked, int(columns[3][0]), int(columns[4][0])


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures and the README table; return 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (median)")
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as empty:
        directory = Path(empty)
        pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        cli = median_timed(["utf8cert", "check", "codec:utf-8"], directory, arguments.runs)
        fast = ["utf8cert", "check", "codec:utf-8", "--in-process"]
        in_process = median_timed(fast, directory, arguments.runs)
        plugin = median_timed([*pytest, "--utf8-codec", "codec:utf-8"], directory, arguments.runs)
        # pytest exits 5 when it collects nothing: its own start-up and shut-down time.
        bare = median_timed([*pytest, "--co"], directory, arguments.runs, ok=(5,))
    imported, loaded, checked, vectors, calls = phases(arguments.runs)
    wall_ratio, cpu_ratio = plugin[0] / cli[0], plugin[1] / cli[1]
    rows = [
        (
            "`utf8cert check` (isolated, the default)",
            cli,
            f"< {CLI_TARGET:g} s",
            cli[1] < CLI_TARGET,
        ),
        ("`utf8cert check --in-process`", in_process, "", None),
        ("`pytest --utf8-codec codec:utf-8`", plugin, "", None),
        ("of which: pytest with no tests", bare, "", None),
    ]
    print(f"{vectors} vectors, {calls} vector x capability pairs, {arguments.runs} runs each")
    print()
    print("| measure | wall (median) | CPU (median) | target | met (CPU) |")
    print("|---|--:|--:|---|---|")
    for name, (wall_time, cpu_time), target, met in rows:
        verdict = "" if met is None else "yes" if met else "NO"
        print(f"| {name} | {wall_time:.2f} s | {cpu_time:.2f} s | {target} | {verdict} |")
    ratio_met = cpu_ratio <= PLUGIN_RATIO_TARGET
    print(
        f"| plugin / cli | {wall_ratio:.2f}x | {cpu_ratio:.2f}x | <= {PLUGIN_RATIO_TARGET:g}x "
        f"| {'yes' if ratio_met else 'NO'} |"
    )
    print()
    print("| in one process (CPU) | seconds |")
    print("|---|--:|")
    print(f"| importing utf8cert | {imported:.2f} |")
    print(f"| loading the vectors | {loaded:.2f} |")
    print(f"| checking every vector, variant and capability | {checked:.2f} |")
    return 0 if cli[1] < CLI_TARGET and ratio_met else 1


if __name__ == "__main__":
    sys.exit(main())
