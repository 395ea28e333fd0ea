"""Fuzzing speed per CPU-second: `utf8cert fuzz`'s campaign against a plain atheris harness
asking the same questions, on a clean codec and on one with a `should`-level deviation below
--fail-on (a known deviation must cost the campaign nothing).

    python bench/bench_fuzz_cpu.py [--seconds 20] [--rounds 3] [--codec SPEC ...]

Each round runs the plain harness (bench_fuzz.py's PLAIN: the same differential target, atheris'
own mutator, no seeds or dictionary) and the campaign's target script (mutator, seeds,
dictionary, length schedule) for --seconds each, one after the other, and counts executions
(libFuzzer's final stats, the campaign's seed pass included) per CPU-second of the process
(user + system, from the kernel's accounting of the child): on a machine other processes load,
wall-clock rates measure the load, CPU time the work. Prints the median of the rounds per codec
and the ratio campaign/plain, as a markdown table for bench/README.md. Target: >= 0.8.

Codecs (tests/): support.hand_rolled:HandRolled, correct, all five capabilities, byte at a time;
support.broken_codecs:OneFffdPerByte, the same with one U+FFFD per byte of a maximal subpart, a
`should` deviation (Unicode §3.9's practice), no finding at --fail-on must.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: bench/ is on the path, the repository is not
    sys.path.insert(0, str(ROOT))

from bench.bench_fuzz import PLAIN, campaign_argv, environment, script  # noqa: E402
from utf8cert.harness.fuzzing.campaign import DEFAULT_MAX_LEN  # noqa: E402

CODECS = ("support.hand_rolled:HandRolled", "support.broken_codecs:OneFffdPerByte")


def executions_per_cpu_second(argv: Sequence[str], directory: Path) -> float:
    """Run one libFuzzer process to its end; return its executions per CPU-second."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        argv, cwd=directory, env=environment(), capture_output=True, text=True, errors="replace"
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    output = done.stdout + done.stderr
    executed = [line for line in output.splitlines() if "number_of_executed_units" in line]
    if done.returncode != 0 or not executed:
        raise RuntimeError(f"{argv[0]}: exit {done.returncode}\n{output[-2000:]}")
    return int(executed[-1].split(":")[-1]) / cpu


def measure(spec: str, seconds: int, rounds: int) -> tuple[float, float]:
    """Return the medians of executions per CPU-second of the plain harness and the campaign
    on `spec`, alternating runs."""
    plain, ours = [], []
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        minimal = script(scratch, "minimal_fuzzer.py", PLAIN.replace("{spec!r}", repr(spec)))
        flags = [f"-max_len={DEFAULT_MAX_LEN}", f"-max_total_time={seconds}", "-seed=1"]
        for number in range(rounds):
            argv = [str(minimal), *flags, "-print_final_stats=1"]
            plain.append(executions_per_cpu_second(argv, scratch))
            work = scratch / f"campaign-{number}"
            work.mkdir()
            argv = campaign_argv(work, spec, seconds, DEFAULT_MAX_LEN, 1)
            ours.append(executions_per_cpu_second(argv, work))
    return statistics.median(plain), statistics.median(ours)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--codec", action="append", help="a codec spec (repeatable)")
    arguments = parser.parse_args()
    print(
        f"\nexecutions per CPU-second, {arguments.seconds} s a run, median of "
        f"{arguments.rounds} alternating rounds, seed 1, max-len {DEFAULT_MAX_LEN}\n"
    )
    print("| codec | plain atheris, same questions | utf8cert fuzz | ratio |")
    print("|---|--:|--:|--:|")
    for spec in arguments.codec or CODECS:
        plain, ours = measure(spec, arguments.seconds, arguments.rounds)
        print(f"| {spec} | {plain:,.0f} | {ours:,.0f} | {ours / plain:.2f} |", flush=True)


if __name__ == "__main__":
    main()
