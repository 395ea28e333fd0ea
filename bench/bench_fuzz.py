"""Fuzzing speed: executions per second, time to the first finding, start-up.

    python bench/bench_fuzz.py [--part speed|block|past-seeds|jobs|startup|findings|all]
                               [--seconds 20] [--seeds 3] [--cap 20] [--codec SPEC]

speed: executions per second of `utf8cert fuzz` (its target script: mutator, seeds, dictionary,
length schedule) on a pure-Python byte-at-a-time codec with all five capabilities
(tests/support/hand_rolled.py HandRolled), at max-len 64 and at the default max-len, against the
same-questions minimal target: plain atheris running the same differential target (the same
five questions compared with the reference), with no custom mutator, seeds or dictionary and
libFuzzer's own length control. Targets: >= 2,000 exec/s at default settings; ratio >= 0.6
(issue 22), on this codec and on a second pure-Python one (`--codec adapter:pyyaml-pure`: PyYAML's
pure-Python scanner, instrumented).

block: seconds from the start of fuzzing to the first finding of a campaign at default
settings on broken_codecs Page4096Decoder (the same byte-at-a-time codec, five capabilities,
dropping a character across a 4096-byte page), median of --seeds seeds. Target: <= 10 s.

past-seeds: seconds from the start of fuzzing to the first finding at default settings, one
process, on bugs that no seed shows (checked first): fuzz_codecs Page1000Decoder,
Page8192Decoder and Page30000Decoder (Page4096Decoder's dropped character, at other block
sizes) and TwoByteRunDecoder (overlongs pass after a run of two-byte characters: only mutation
builds that input); median of --seeds seeds, each capped at 60 s, with the size of the
minimized finding (`utf8cert fuzz`, the whole command). Targets: each found within 60 s; the
finding at most about twice the block.

startup: seconds from starting the `utf8cert fuzz` command (bytecode cache on, as on a user's
machine) to libFuzzer's INITED line, after which every execution is a mutated one; median of
five. Target: <= 0.5 s.

findings: seconds from the start of fuzzing (libFuzzer's `INFO: Seed:` line, after imports and
instrumentation; Hypothesis' first example) to the first difference, for each codec of
tests/support/fuzz_codecs.py, median of --seeds seeds: (a) plain atheris on raw bytes (the same
differential target, no mutator, seeds or dictionary, the same -max_len), (b) the campaign
`utf8cert fuzz` runs (its target script: mutator, seeds, dictionary), (c) Hypothesis
`st.binary()` and (d) Hypothesis `utf8_inputs()`, each with `assert_conforms`. Also (b'): the
whole `utf8cert fuzz` command, start to exit, minimization and vector writing included. A run
with nothing found in --cap seconds counts as ">cap" (the cap bounds the whole part: about 8
minutes at the defaults). Targets: (b) fastest on every codec, and >= 10x faster than (a) where
(a) needs more than 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from utf8cert.harness.fuzzing.campaign import (
    DEFAULT_MAX_LEN,
    Campaign,
    default_dictionary,
    libfuzzer_argv,
    seed_corpus,
    write_script,
)
from utf8cert.harness.vectors.load import load_vectors

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
ALL_FIVE = "support.hand_rolled:HandRolled"
"""A pure-Python codec with all five capabilities, decoding a byte at a time (WHATWG steps)."""
CODECS = (
    "AlignedAsciiFastPath",
    "LongInputValidator",
    "BlockBufferedDecoder",
    "ForgetfulIncremental",
    "SurrogateWritingEncoder",
)
Run = tuple[bool, float]
"""(found a difference, seconds)."""

PLAIN = """#!{python}
import sys

from utf8cert.harness.fuzzing.target import import_atheris, load_instrumented

atheris = import_atheris()
codec = load_instrumented(atheris, {spec!r})
from utf8cert.harness.fuzzing.differential import DifferentialTarget

target = DifferentialTarget(codec)


def test_one_input(data: bytes) -> None:
    target(data)


atheris.Setup(sys.argv, test_one_input)
atheris.Fuzz()
"""

HYPOTHESIS = """
import json, time
from hypothesis import HealthCheck, Phase, given, seed, settings, strategies as st
from utf8cert.harness.fuzzing.conformance import assert_conforms
from utf8cert.harness.fuzzing.strategies import utf8_inputs

class OutOfTime(BaseException):
    pass

started = None

@seed({seed})
@settings(phases=[Phase.generate], database=None, deadline=None, max_examples=10**9,
          suppress_health_check=list(HealthCheck))
@given({strategy})
def test(data):
    global started
    started = started or time.monotonic()
    if time.monotonic() - started > {cap}:
        raise OutOfTime
    assert_conforms({spec!r}, data)

try:
    test()
    found = False
except OutOfTime:
    found = False
except AssertionError:
    found = True
print(json.dumps({{"found": found, "seconds": time.monotonic() - started}}))
"""


def environment() -> dict[str, str]:
    """Return the environment of the runs: tests/ importable, hashing fixed, Python's bytecode
    cache on (as on a user's machine; this one sets PYTHONDONTWRITEBYTECODE)."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path, PYTHONHASHSEED="0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def script(directory: Path, name: str, text: str) -> Path:
    """Write an executable target script, its shebang this interpreter; return its path."""
    path = directory / name
    path.write_text(text.replace("{python}", sys.executable), encoding="utf-8")
    path.chmod(0o755)
    return path


def timed_run(argv: Sequence[str], directory: Path, cap: float) -> tuple[bool, float, str]:
    """Run a libFuzzer process in `directory` (its crash files go there); return (stopped on a
    finding, seconds from its `INFO: Seed:` line to its end, its output). It is stopped after
    `cap` seconds of fuzzing, counted as no finding."""
    process = subprocess.Popen(
        argv,
        cwd=directory,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=environment(),
        text=True,
        errors="replace",
    )
    assert process.stdout is not None
    lines, started = [], time.monotonic()
    for line in process.stdout:
        lines.append(line)
        if line.startswith("INFO: Seed:"):
            started = time.monotonic()
    status = process.wait()
    seconds = time.monotonic() - started
    return status != 0 and seconds < cap, seconds, "".join(lines)


def executions_per_second(output: str) -> float:
    """Return libFuzzer's final executions per second (its -print_final_stats lines)."""
    rate = re.search(r"stat::average_exec_per_sec:\s+(\d+)", output)
    if rate is None:
        raise RuntimeError("no final stats in the output:\n" + output[-2000:])
    return float(rate.group(1))


def campaign_argv(work: Path, spec: str, seconds: int, max_len: int, seed: int) -> list[str]:
    """Return the command line of the campaign `utf8cert fuzz` would run (its target script)."""
    campaign = Campaign(
        spec=spec,
        artifacts=work,
        max_len=max_len,
        max_time=seconds,
        seed=seed,
        dictionary=default_dictionary(),
    )
    seed_corpus(campaign, load_vectors())
    write_script(campaign)
    return [*libfuzzer_argv(campaign), "-print_final_stats=1"]


def speed(seconds: int, spec: str = ALL_FIVE) -> None:
    """Print executions per second of utf8cert's campaign and of the same-questions minimal
    target on `spec` (default a pure-Python byte-at-a-time codec with five capabilities)."""
    print(f"\nexecutions per second on {spec}, {seconds} s each, seed 1\n")
    print("| max-len | minimal target, same questions | utf8cert fuzz | ratio |")
    print("|--:|--:|--:|--:|")
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        minimal = script(scratch, "minimal_fuzzer.py", PLAIN.replace("{spec!r}", repr(spec)))
        for max_len in (64, DEFAULT_MAX_LEN):
            flags = [f"-max_len={max_len}", f"-max_total_time={seconds}", "-seed=1"]
            argv = [str(minimal), *flags, "-print_final_stats=1"]
            theirs = executions_per_second(timed_run(argv, scratch, seconds + 60)[2])
            work = Path(tempfile.mkdtemp(dir=scratch))
            argv = campaign_argv(work, spec, seconds, max_len, 1)
            found, _, output = timed_run(argv, work, seconds + 60)
            if found:
                raise RuntimeError(f"the campaign found a difference in {spec}")
            ours = executions_per_second(output)
            print(f"| {max_len} | {theirs:,.0f} | {ours:,.0f} | {ours / theirs:.2f} |", flush=True)


def block(seeds: int, cap: int) -> None:
    """Print the seconds to the first finding on a 4096-byte page bug, at default settings."""
    spec = "support.broken_codecs:Page4096Decoder"
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as scratch_name:
        for seed in range(1, seeds + 1):
            work = Path(tempfile.mkdtemp(dir=scratch_name))
            argv = campaign_argv(work, spec, cap, DEFAULT_MAX_LEN, seed)
            found, seconds, _ = timed_run(argv, work, cap)
            runs.append((found, seconds))
    shown = ", ".join(f"{seconds:.2f}" if found else f">{cap}" for found, seconds in runs)
    print(f"\n{spec}, default settings: first finding after {shown} s (median {median(runs, cap)})")


PAST_SEEDS = (
    ("Page1000Decoder", 1000),
    ("Page8192Decoder", 8192),
    ("Page30000Decoder", 30000),
    ("TwoByteRunDecoder", 0),
)
PAST_SEEDS_CAP = 60


def seeds_showing(spec: str, max_len: int) -> int:
    """Return how many seeds of a default campaign (built-in and straddling) show a difference."""
    sys.path.insert(0, str(TESTS))
    from utf8cert.harness.fuzzing.corpus import seed_inputs, straddling_seeds
    from utf8cert.harness.fuzzing.differential import DifferentialTarget
    from utf8cert.harness.world.spec import load_codec

    target = DifferentialTarget(load_codec(spec))
    seeds = [*seed_inputs(load_vectors()), *straddling_seeds(max_len).values()]
    return sum(1 for data in seeds if target.differences(data))


def past_seeds(seeds: int) -> None:
    """Print the seconds to the first finding, and the finding's size, on bugs no seed shows."""
    print(f"\nbugs no seed shows, default settings, one process, cap {PAST_SEEDS_CAP} s\n")
    print(
        "| codec (tests/support/fuzz_codecs.py) | block | first finding (s), per seed | median | "
        "minimized finding (bytes) |"
    )
    print("|---|--:|---|--:|---|")
    with tempfile.TemporaryDirectory() as scratch_name:
        for name, size in PAST_SEEDS:
            spec = f"support.fuzz_codecs:{name}"
            if seeds_showing(spec, DEFAULT_MAX_LEN):
                raise RuntimeError(f"a seed shows the bug of {spec}")
            runs: list[Run] = []
            for seed in range(1, seeds + 1):
                work = Path(tempfile.mkdtemp(dir=scratch_name))
                argv = campaign_argv(work, spec, PAST_SEEDS_CAP, DEFAULT_MAX_LEN, seed)
                found, seconds, _ = timed_run(argv, work, PAST_SEEDS_CAP)
                runs.append((found, seconds))
            shown = ", ".join(f"{s:.1f}" if found else f">{PAST_SEEDS_CAP}" for found, s in runs)
            work = Path(tempfile.mkdtemp(dir=scratch_name)) / "artifacts"
            command_run(spec, 1, PAST_SEEDS_CAP, work)
            sizes = sorted(path.stat().st_size for path in work.glob("*.bin"))
            print(
                f"| {name} | {size or '—'} | {shown} | {median(runs, PAST_SEEDS_CAP)} | "
                f"{', '.join(map(str, sizes)) or 'none'} |",
                flush=True,
            )


def jobs(seconds: int) -> None:
    """Print executions per wall second of `utf8cert fuzz` with one and with two processes."""
    print(f"\nutf8cert fuzz {ALL_FIVE} --max-time {seconds}: executions per wall second\n")
    print("| --jobs | executions | wall (s) | per wall second |")
    print("|--:|--:|--:|--:|")
    rates = {}
    with tempfile.TemporaryDirectory() as scratch_name:
        for count in (1, 2):
            work = Path(scratch_name) / f"jobs{count}"
            command = [sys.executable, "-m", "utf8cert.harness", "fuzz", ALL_FIVE]
            flags = ["--jobs", str(count), "--max-time", str(seconds), "--seed", "1"]
            started = time.monotonic()
            done = subprocess.run(
                [*command, *flags, "--artifacts", str(work)],
                capture_output=True,
                text=True,
                env=environment(),
            )
            wall = time.monotonic() - started
            counted = re.search(r"^([\d,]+) executions in", done.stdout + done.stderr, re.M)
            if counted is None:
                raise RuntimeError("no summary line:\n" + (done.stdout + done.stderr)[-2000:])
            executions = int(counted.group(1).replace(",", ""))
            rates[count] = executions / wall
            print(f"| {count} | {executions:,} | {wall:.1f} | {rates[count]:,.0f} |", flush=True)
    print(f"\n--jobs 2 / --jobs 1: {rates[2] / rates[1]:.2f}")


def startup(times: int = 5) -> None:
    """Print the seconds from starting `utf8cert fuzz` to libFuzzer's INITED line."""
    measured = []
    with tempfile.TemporaryDirectory() as scratch_name:
        for attempt in range(times):
            artifacts = Path(scratch_name) / f"run{attempt}"
            command = [sys.executable, "-m", "utf8cert.harness", "fuzz", "codec:utf-8"]
            started = time.monotonic()
            process = subprocess.Popen(
                [*command, "--artifacts", str(artifacts), "--max-time", "30", "--seed", "1"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=environment(),
            )
            log = artifacts / "libfuzzer.log"
            while process.poll() is None:
                if log.exists() and "INITED" in log.read_text():
                    measured.append(time.monotonic() - started)
                    break
                time.sleep(0.002)
            process.terminate()
            process.wait()
    shown = ", ".join(f"{seconds:.3f}" for seconds in measured)
    print(f"\nstart-up to the first mutated execution: {shown} s")
    print(f"(median {statistics.median(measured):.3f} s)")


def hypothesis_run(spec: str, seed: int, cap: int, strategy: str = "st.binary()") -> Run:
    """Return (found, seconds) of Hypothesis `strategy` on one codec and seed."""
    code = HYPOTHESIS.format(spec=spec, seed=seed, cap=cap, strategy=strategy)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment()
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return bool(result["found"]), float(result["seconds"])


def command_run(spec: str, seed: int, cap: int, work: Path) -> Run:
    """Return (found, seconds) of the whole `utf8cert fuzz` command, start to exit."""
    started = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "utf8cert.harness",
            "fuzz",
            spec,
            "--artifacts",
            str(work),
            "--seed",
            str(seed),
            "--max-time",
            str(cap),
        ],
        capture_output=True,
        text=True,
        env=environment(),
        cwd=work.parent,
    )
    return done.returncode == 1, time.monotonic() - started


def median(runs: list[Run], cap: int) -> str:
    """Return the median time, '>cap' when it falls on a run that found nothing."""
    values = sorted(seconds if found else float("inf") for found, seconds in runs)
    middle = statistics.median_low(values)
    return f">{cap}" if middle == float("inf") else f"{middle:.2f}"


def ratio(slow: str, fast: str) -> str:
    """Return slow / fast, as '>N' when the slow one gave up."""
    if fast.startswith(">"):
        return "—"
    bound = ">" if slow.startswith(">") else ""
    return f"{bound}{float(slow.lstrip('>')) / max(float(fast), 0.01):.0f}"


def findings(seeds: int, cap: int) -> None:
    """Print the median time to first finding of each method on each broken codec."""
    print(f"\nseconds to first finding, median of {seeds} seeds (cap {cap} s)\n")
    print(
        "| codec | (a) plain atheris | (b) utf8cert fuzz | (c) Hypothesis binary() "
        "| (d) Hypothesis utf8_inputs() | a/b "
        "| (b') whole command |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|")
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        for name in CODECS:
            spec = f"support.fuzz_codecs:{name}"
            plain = script(
                scratch, f"plain_{name}_fuzzer.py", PLAIN.replace("{spec!r}", repr(spec))
            )
            runs: dict[str, list[Run]] = {"a": [], "b": [], "c": [], "d": [], "command": []}
            for seed in range(1, seeds + 1):
                flags = [f"-seed={seed}", f"-max_total_time={cap}", f"-max_len={DEFAULT_MAX_LEN}"]
                found, seconds, _ = timed_run([str(plain), *flags], scratch, cap)
                runs["a"].append((found, seconds))
                work = Path(tempfile.mkdtemp(dir=scratch))
                argv = campaign_argv(work, spec, cap, DEFAULT_MAX_LEN, seed)
                found, seconds, _ = timed_run(argv, work, cap)
                runs["b"].append((found, seconds))
                runs["c"].append(hypothesis_run(spec, seed, cap))
                runs["d"].append(hypothesis_run(spec, seed, cap, "utf8_inputs()"))
                work = Path(tempfile.mkdtemp(dir=scratch))
                runs["command"].append(command_run(spec, seed, cap, work / "artifacts"))
            a, b, c, d, command = (
                median(runs[key], cap) for key in ("a", "b", "c", "d", "command")
            )
            print(f"| {name} | {a} | {b} | {c} | {d} | {ratio(a, b)} | {command} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parts = ("speed", "block", "past-seeds", "jobs", "startup", "findings")
    parser.add_argument("--part", choices=(*parts, "all"), default="all")
    parser.add_argument("--seconds", type=int, default=20, help="length of each speed run")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument(
        "--codec", default=ALL_FIVE, help=f"the codec of the speed part (default {ALL_FIVE})"
    )
    parser.add_argument("--cap", type=int, default=20, help="seconds before a run gives up")
    arguments = parser.parse_args()
    if arguments.part in ("speed", "all"):
        speed(arguments.seconds, arguments.codec)
    if arguments.part in ("block", "all"):
        block(arguments.seeds, arguments.cap)
    if arguments.part in ("past-seeds", "all"):
        past_seeds(arguments.seeds)
    if arguments.part in ("jobs", "all"):
        jobs(arguments.seconds * 3)
    if arguments.part in ("startup", "all"):
        startup()
    if arguments.part in ("findings", "all"):
        findings(arguments.seeds, arguments.cap)


if __name__ == "__main__":
    main()
