"""What `pytest -n 2` costs against a serial run of the suite: CPython's codec and the node
program, each run serial and on two xdist workers, in fresh processes as a user runs them.

    python bench/bench_xdist.py [--runs 5] [--no-bytecode-cache]

Each run is `python -m pytest -q --utf8-codec SPEC [-n 2]` with the current interpreter, in an
empty temporary directory whose pyproject.toml has an empty `[tool.pytest.ini_options]` (so no
project configuration applies) and whose .pytest_cache persists between runs, as a user's does.
Python's bytecode cache is on (in a temporary PYTHONPYCACHEPREFIX, so that nothing is written
next to the installed packages) unless --no-bytecode-cache, which runs as this machine does
(PYTHONDONTWRITEBYTECODE: pytest then rewrites the assertions of every module of a plugin's
distribution, hypothesis's and utf8cert's, at each import). Two reference rows: `-n 2` with
`-p no:hypothesispytest`, and `-n 2` with no suite at all (what pytest and two workers cost).
Runs of the rows alternate, after a warm-up of each; prints the medians (wall and CPU, the CPU
time of the process and its children: pytest, the workers, the codec program) as a markdown
table for bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NODE_PROGRAM = Path(__file__).resolve().parents[1] / "examples" / "node" / "textdecoder.js"


def timed(arguments: list[str], cwd: Path, environment: dict[str, str]) -> tuple[float, float]:
    """Return (wall, CPU) seconds of one pytest run; SystemExit if pytest fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    command = [sys.executable, "-m", "pytest", "-q", *arguments]
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=environment)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 5):  # 5: no tests collected (the row with no suite)
        raise SystemExit(f"{' '.join(command)}: exit {result.returncode}\n{result.stdout}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def rows() -> list[tuple[str, list[str]]]:
    """Return the runs to time: a label and pytest's arguments."""
    node = f"cmd:node {NODE_PROGRAM}"
    found = [
        ("codec:utf-8", ["--utf8-codec", "codec:utf-8"]),
        ("codec:utf-8, `-n 2`", ["--utf8-codec", "codec:utf-8", "-n", "2"]),
        (
            "codec:utf-8, `-n 2 -p no:hypothesispytest`",
            ["--utf8-codec", "codec:utf-8", "-n", "2", "-p", "no:hypothesispytest"],
        ),
        ("no suite, `-n 2`", ["-n", "2"]),
    ]
    if shutil.which("node"):
        found += [("node program", ["--utf8-codec", node])]
        found += [("node program, `-n 2`", ["--utf8-codec", node, "-n", "2"])]
    return found


def main() -> int:
    """Time every row, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-bytecode-cache", action="store_true")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary) / "project"
        root.mkdir()
        (root / "pyproject.toml").write_text("[tool.pytest.ini_options]\n", encoding="utf-8")
        environment = dict(os.environ)
        if arguments.no_bytecode_cache:
            environment["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            environment.pop("PYTHONDONTWRITEBYTECODE", None)
            environment["PYTHONPYCACHEPREFIX"] = str(Path(temporary) / "pycache")
        table = rows()
        for _, pytest_arguments in table:  # warm-up: bytecode and pytest's cache written
            timed(pytest_arguments, root, environment)
        times: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in table}
        for _ in range(arguments.runs):
            for label, pytest_arguments in table:
                times[label].append(timed(pytest_arguments, root, environment))
    cache = "off" if arguments.no_bytecode_cache else "on"
    print(f"| `pytest` (bytecode cache {cache}, median of {arguments.runs}) | wall | CPU |")
    print("|---|--:|--:|")
    for label, measured in times.items():
        wall = statistics.median(w for w, _ in measured)
        cpu = statistics.median(c for _, c in measured)
        print(f"| {label} | {wall:.2f} s | {cpu:.2f} s |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
