"""Fuzzing speed per CPU-second with the judge out of the codec's reach, against the campaign
that trusts the codec (`--in-process`, the judge in the codec's process: the path before).

    python bench/bench_fuzz_judge.py [--runs 10000] [--rounds 2] [--codec SPEC]

Each round runs `utf8cert fuzz SPEC --runs N --seed 1` twice in fresh processes, --in-process
then judged apart (the codec's process in the OS sandbox, its answers judged in utf8cert's own),
and divides the executions the campaign reports (its JSON) by the CPU time of the whole command:
utf8cert's process (the judge), the libFuzzer process (the codec), bubblewrap, and the sandboxed
child the judge asks. The CPU time is read from a cgroup (v1 cpuacct) the command starts in,
which every process it starts stays in: the kernel's accounting of waited-for children
(getrusage) misses the codec's process, which bubblewrap's PID namespace does not reap into
it. Where no cgroup can be made (not root) it falls back to getrusage and says so.
Prints the median of the rounds and the ratio apart/in-process. Target (issue 39): >= 0.8.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def _cgroup(name: str) -> Path | None:
    """Return a fresh cpuacct cgroup, None where one cannot be made."""
    group = CPUACCT / name
    try:
        group.mkdir()
    except OSError:
        return None
    return group


def executions_per_cpu_second(spec: str, runs: int, in_process: bool, scratch: Path) -> float:
    """Run one campaign to its end; return its executions per CPU-second of every process."""
    report = scratch / "campaign.json"
    argv = [sys.executable, "-m", "utf8cert.harness", "fuzz", spec, "--runs", str(runs)]
    argv += ["--seed", "1", "--quiet", "--artifacts", str(scratch / "artifacts")]
    argv += ["--json", str(report)] + (["--in-process"] if in_process else [])
    path = os.pathsep.join(filter(None, [str(ROOT / "tests"), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path)
    group = _cgroup(f"bench-fuzz-judge-{os.getpid()}")

    def enter() -> None:
        if group is not None:
            (group / "tasks").write_text(str(os.getpid()))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        argv, cwd=scratch, env=env, capture_output=True, text=True, preexec_fn=enter
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"exit {done.returncode}: {done.stdout[-1000:]}{done.stderr[-1000:]}")
    if group is None:
        print("(no cgroup: CPU from getrusage, which misses the sandboxed process)")
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    else:
        cpu = int((group / "cpuacct.usage").read_text()) / 1e9
        group.rmdir()
    executions = json.loads(report.read_text())["executions"]
    return float(executions) / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--codec", default="support.hand_rolled:HandRolled")
    arguments = parser.parse_args()
    trusted: list[float] = []
    apart: list[float] = []
    for number in range(arguments.rounds):
        for in_process, figures in ((True, trusted), (False, apart)):
            with tempfile.TemporaryDirectory() as scratch:
                rate = executions_per_cpu_second(
                    arguments.codec, arguments.runs, in_process, Path(scratch)
                )
            figures.append(rate)
            side = "in-process" if in_process else "judged apart"
            print(f"round {number + 1}, {side}: {rate:,.0f} executions per CPU-second")
    before, after = statistics.median(trusted), statistics.median(apart)
    print("| codec | --in-process (before) | judged apart (after) | ratio |")
    print("|---|--:|--:|--:|")
    print(f"| {arguments.codec} | {before:,.0f} | {after:,.0f} | {after / before:.2f} |")


if __name__ == "__main__":
    main()
