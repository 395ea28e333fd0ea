"""What asking a decoder again costs (issue 40): CPU seconds of the default `utf8cert check`,
before and after, in the same conditions.

    python bench/bench_reuse_cost.py --before /path/to/old/venv/bin/utf8cert [--runs 3] SPEC...

Each SPEC (default: codec:utf-8 and the cmd: program of adapter:node-textdecoder-fatal) is
checked by the `--before` command and by this checkout (`python -m utf8cert.harness`), turn
about, `--runs` times each; the CPU time counted is the run's and its children's (the codec's
child process, the program), which is what an idle machine takes, unlike wall time on a shared
one. Prints the medians as a markdown table and the ratio; exits 1 when a ratio passes
`--limit` (default 1.3, the issue's bound).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys

DEFAULT_SPECS = ("codec:utf-8", "adapter:node-textdecoder-fatal")


def cpu_seconds(command: list[str]) -> float:
    """Return the user + system CPU seconds of `command` and its children (its exit status is
    the verdict's, not a failure of the bench)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(arguments: list[str] | None = None) -> int:
    """Return 0 when every ratio is within the limit, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the utf8cert command to compare with")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=float, default=1.3)
    parser.add_argument("specs", nargs="*", default=list(DEFAULT_SPECS))
    options = parser.parse_args(arguments)
    after = [sys.executable, "-m", "utf8cert.harness"]
    print("| spec | before (CPU s) | after (CPU s) | ratio |\n|---|---|---|---|")
    worst = 0.0
    for spec in options.specs:
        times: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(options.runs):
            times["before"].append(cpu_seconds([options.before, "check", spec]))
            times["after"].append(cpu_seconds([*after, "check", spec]))
        old, new = statistics.median(times["before"]), statistics.median(times["after"])
        ratio = new / old if old else float("inf")
        worst = max(worst, ratio)
        print(f"| {spec} | {old:.2f} | {new:.2f} | {ratio:.2f} |")
    print(f"\nworst ratio {worst:.2f} (limit {options.limit}); pid {os.getpid()}")
    return 0 if worst <= options.limit else 1


if __name__ == "__main__":
    sys.exit(main())
