"""What a test tier costs, test by test: CPU seconds (the test process's and its children's) and
wall seconds of every item, summed by folder and by file.

    python bench/tier_cost.py [--top N] [PYTEST ARGUMENTS...]

runs `python -m pytest -p bench.tier_cost_plugin ARGUMENTS` (the default tier when none are
given, on pyproject's workers), then prints the totals. CPU is what carries over between
machines: under load a test that computes takes several times its CPU in wall time, while a test
that waits (a time limit, a hang) takes wall time and no CPU (issue 41: the default tier's budget
is 600 CPU-s and 5 minutes wall on an idle 2-core machine).

Where the machine lets this process make a cpuacct cgroup (cgroup v1, as root), the session
runs in one, and each of its processes (each xdist worker) moves into a cgroup of its own inside
it: an item's CPU is then its process's cgroup's, over its setup, call and teardown, every
process it started included (a codec that bubblewrap sandboxes runs as a grandchild that no
getrusage counts once bubblewrap is killed rather than waited for), and the session's is the
whole cgroup's, start-up and collection included. Elsewhere each process reads
getrusage(RUSAGE_SELF) and getrusage(RUSAGE_CHILDREN) around each item (a child's CPU counted
when the test reaps it), and the whole machine's busy CPU meanwhile (/proc/stat) stands in for
the session's on an idle machine. Module- and session-scoped fixtures are charged to the item
that first needs them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
RECORDS_VARIABLE: Final = "TIER_COST_RECORDS"
"""The directory each process of the session writes its items' costs into."""
CGROUP_VARIABLE: Final = "TIER_COST_CGROUP"
"""The session's cgroup, inside which each of its processes makes its own (unset: none)."""
CPUACCT: Final = Path("/sys/fs/cgroup/cpuacct")
"""Where cgroup v1 mounts its CPU accounting controller."""


def cpu_seconds() -> float:
    """Return the user + system CPU seconds of this process and of the children it has reaped."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def cgroup_seconds(cgroup: Path) -> float:
    """Return the CPU seconds of every process that ran in `cgroup` or in a cgroup inside it."""
    return int((cgroup / "cpuacct.usage").read_text()) / 1e9


def session_cgroup() -> Path | None:
    """Return a new cpuacct cgroup for the session, None where this process cannot make one."""
    cgroup = CPUACCT / f"tier-cost-{os.getpid()}"
    try:
        cgroup.mkdir()
    except OSError:
        return None
    try:
        cgroup_seconds(cgroup)
    except OSError:  # made, but it counts nothing here: not left behind
        remove_cgroup(cgroup)
        return None
    return cgroup


def own_cgroup(session: Path) -> Path:
    """Return a cgroup inside `session` that this process (all its threads) has moved into, so
    that every process it starts from now on is counted there; OSError where it cannot."""
    own = session / f"process-{os.getpid()}"
    own.mkdir(exist_ok=True)
    (own / "cgroup.procs").write_text(str(os.getpid()))
    return own


def remove_cgroup(cgroup: Path) -> None:
    """Remove `cgroup` and the cgroups inside it, once their processes have ended (one still
    running keeps its cgroup, and the session's, in place)."""
    for inner in cgroup.glob("process-*"):
        with contextlib.suppress(OSError):
            inner.rmdir()
    with contextlib.suppress(OSError):
        cgroup.rmdir()


def machine_cpu_seconds() -> float:
    """Return the CPU seconds the whole machine has spent busy since boot (/proc/stat; 0.0 where
    there is none). A codec sandboxed by bubblewrap runs as its grandchild, which getrusage does
    not count once bubblewrap is killed rather than waited for: on an idle machine this delta is
    the session's whole cost."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def read_records(directory: Path) -> Iterator[dict[str, object]]:
    """Return every item's record the session's processes wrote (none for an empty directory)."""
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            yield json.loads(line)


def summary(records: list[dict[str, object]], top: int) -> str:
    """Return the totals by folder and by file, and the `top` costliest items, as text."""
    cpu: defaultdict[str, float] = defaultdict(float)
    wall: defaultdict[str, float] = defaultdict(float)
    items: Counter[str] = Counter()
    for record in records:
        node = str(record["node"])
        file = node.split("::")[0]
        folder = file.rsplit("/", 1)[0] if "/" in file.removeprefix("tests/") else "tests"
        for key in (folder, file):
            cpu[key] += float(str(record["cpu"]))
            wall[key] += float(str(record["wall"]))
            items[key] += 1
    lines = [f"{len(records)} items, {sum(float(str(r['cpu'])) for r in records):.0f} CPU-s"]
    lines.append(f"{'CPU-s':>8} {'wall-s':>8} {'items':>6}  folder or file")
    folders = sorted((key for key in cpu if not key.endswith(".py")), key=lambda k: -cpu[k])
    files = sorted((key for key in cpu if key.endswith(".py")), key=lambda k: -cpu[k])
    for group in (folders, files[:top]):
        lines.extend(f"{cpu[k]:8.1f} {wall[k]:8.1f} {items[k]:6d}  {k}" for k in group)
        lines.append("")
    lines.append(f"the {top} costliest items (CPU-s, wall-s):")
    costliest = sorted(records, key=lambda r: -float(str(r["cpu"])))[:top]
    lines.extend(
        f"{float(str(r['cpu'])):8.1f} {float(str(r['wall'])):8.1f}  {r['node']}" for r in costliest
    )
    return "\n".join(lines)


def main() -> int:
    """Return pytest's exit status, after printing the session's costs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=40, help="files and items listed (40)")
    options, arguments = parser.parse_known_args()
    with tempfile.TemporaryDirectory(prefix="tier-cost-") as records:
        environment = dict(os.environ, **{RECORDS_VARIABLE: records})
        environment["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(ROOT), environment.get("PYTHONPATH")])
        )
        command = [sys.executable, "-m", "pytest", "-p", "bench.tier_cost_plugin", *arguments]
        cgroup = session_cgroup()
        if cgroup is not None:
            environment[CGROUP_VARIABLE] = str(cgroup)
            joining = 'echo $$ > "$0/cgroup.procs" && exec "$@"'  # the shell joins, then is pytest
            command = ["sh", "-c", joining, str(cgroup), *command]
        started, before, machine = time.monotonic(), cpu_seconds(), machine_cpu_seconds()
        status = subprocess.run(command, cwd=ROOT, env=environment, check=False).returncode
        elapsed, spent = time.monotonic() - started, cpu_seconds() - before
        busy = machine_cpu_seconds() - machine
        print(summary(list(read_records(Path(records))), options.top))
        # The items' sum leaves out each worker's start-up and collection.
        print(f"session: {spent:.0f} CPU-s, {elapsed:.0f} s wall; pytest exit status {status}")
        if cgroup is not None:
            whole = cgroup_seconds(cgroup)
            remove_cgroup(cgroup)
            print(f"cgroup: {whole:.0f} CPU-s, every process of the session (the items by cgroup)")
        else:
            print(f"machine: {busy:.0f} CPU-s busy meanwhile (the session's whole cost when idle)")
    return status


if __name__ == "__main__":
    sys.exit(main())
