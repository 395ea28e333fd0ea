"""Runs every test that waits on a child process N times in a row beside busy processes.

    python bench/bench_child_tests.py find            # which tests start a child process
    python bench/bench_child_tests.py sweep --runs 20 --busy 2 [--workers 2]

`find` runs the default test suite once with this file loaded as a pytest plugin that notes
each test during which `subprocess.Popen` was called (a codec program, an isolated codec, the
CLI run as a program, a fuzzing campaign), and writes their node ids to
bench/child_tests.txt. `sweep` runs just those tests `--runs` times, each run on `--workers`
pytest-xdist workers (2: both cores) with `--busy` processes spinning beside it, as a loaded CI
machine would have them (more workers than cores load it more, and a run ends sooner), and
prints, per test that ever failed, how many runs it failed, and the time of each run.
A test is flaky, not slow, if it fails under load: the goal is no failure in any run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / "bench" / "child_tests.txt"
LOG_VARIABLE = "UTF8CERT_CHILD_LOG"
ONLY_VARIABLE = "UTF8CERT_CHILD_ONLY"

# --- the pytest plugin (loaded with -p bench_child_tests) -----------------------------------

_current: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """Wrap subprocess.Popen so that a call notes the running test in the log file."""
    log = os.environ.get(LOG_VARIABLE)
    if not log:
        return
    original = subprocess.Popen.__init__

    def noting(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
        if _current:
            with open(log, "a", encoding="utf-8") as file:
                file.write(_current[-1] + "\n")
        original(self, *args, **kwargs)

    subprocess.Popen.__init__ = noting  # type: ignore[method-assign]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Keep the running test's node id where the Popen wrapper finds it."""
    _current.append(item.nodeid)
    try:
        yield
    finally:
        _current.pop()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With UTF8CERT_CHILD_ONLY set, keep only the tests that file lists."""
    only = os.environ.get(ONLY_VARIABLE)
    if not only:
        return
    wanted = set(Path(only).read_text(encoding="utf-8").splitlines())
    kept = [item for item in items if item.nodeid in wanted]
    config.hook.pytest_deselected(items=[item for item in items if item.nodeid not in wanted])
    items[:] = kept


# --- the command ------------------------------------------------------------------------------


def _pytest(arguments: list[str], environment: dict[str, str]) -> int:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "bench_child_tests", *arguments]
    env = {**os.environ, **environment}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "bench"), env.get("PYTHONPATH")]))
    # The tests run `utf8cert` as a command: the one installed beside this Python, as if its
    # environment were activated.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


def find() -> None:
    """Run the default suite once and write the tests that started a child process."""
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "log"
        log.touch()
        _pytest(["-n", "2"], {LOG_VARIABLE: str(log)})
        found = sorted(set(log.read_text(encoding="utf-8").splitlines()))
    LIST.write_text("".join(f"{nodeid}\n" for nodeid in found), encoding="utf-8")
    print(f"{len(found)} tests start a child process: {LIST.relative_to(ROOT)}")


def _failures(junit: Path) -> list[str]:
    failed = []
    for case in ElementTree.parse(junit).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(f"{case.get('classname')}::{case.get('name')}")
    return failed


def sweep(runs: int, busy: int, workers: int) -> int:
    """Run the listed tests `runs` times on `workers` workers beside `busy` spinning processes;
    return 1 if any failed."""
    nodeids = LIST.read_text(encoding="utf-8").splitlines()
    files = sorted({nodeid.split("::")[0] for nodeid in nodeids})
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)]
    failed: Counter[str] = Counter()
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for run in range(1, runs + 1):
                junit = Path(scratch) / f"run{run}.xml"
                started = time.monotonic()
                status = _pytest(
                    ["-n", str(workers), f"--junitxml={junit}", *files],
                    {ONLY_VARIABLE: str(LIST)},
                )
                names = _failures(junit) if junit.exists() else ["(no report)"]
                failed.update(names)
                seconds = time.monotonic() - started
                print(f"run {run}/{runs}: exit {status}, {len(names)} failed, {seconds:.0f} s")
                sys.stdout.flush()
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    print(f"{len(nodeids)} tests x {runs} runs on {workers} workers beside {busy} busy processes")
    for name, count in failed.most_common():
        print(f"  failed {count} of {runs}: {name}")
    return 1 if failed else 0


def main() -> int:
    """Parse the command line and run `find` or `sweep`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("find")
    sweeping = commands.add_parser("sweep")
    sweeping.add_argument("--runs", type=int, default=20)
    sweeping.add_argument("--busy", type=int, default=2)
    sweeping.add_argument("--workers", type=int, default=2)
    arguments = parser.parse_args()
    if arguments.command == "find":
        find()
        return 0
    return sweep(arguments.runs, arguments.busy, arguments.workers)


if __name__ == "__main__":
    sys.exit(main())
