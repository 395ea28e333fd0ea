"""How fast a check goes through the line protocol, one request at a time and pipelined.

    python bench/bench_protocol.py [--node-program PATH] [--runs 3]

First times `utf8cert check "cmd:node PATH"` (default: examples/node/textdecoder.js) as a user
runs it, wall and CPU time (the command's and its children's). Then records the requests that
check puts to the program, vector by vector, and replays them through `ProcessCodec`: asked one
by one (as `utf8cert check` asks today), pipelined a vector at a time (`ask_all` of each
vector's requests), and pipelined all at once; the same for CPython's codec served by
`python -m utf8cert.harness.codec.serve` in protocol version 1 and 2 (what `--isolate` runs).
Each replay's answers must be those asked one by one. Medians of `--runs` runs, wall time.
Target (issue 12): the Node check in at most 5 s.
"""

from __future__ import annotations

import argparse
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from utf8cert.harness.check.run import run_check
from utf8cert.harness.codec.interface import Outcome
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.codec.protocol import AskingCodec, Request
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors

ROOT = Path(__file__).resolve().parent.parent
NODE_PROGRAM = ROOT / "examples" / "node" / "textdecoder.js"
SERVER = f"{shlex.quote(sys.executable)} -m utf8cert.harness.codec.serve"
TARGET = 5.0


def timed_check(spec: str) -> tuple[float, float]:
    """Return (wall, CPU) seconds of `utf8cert check SPEC` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(["utf8cert", "check", spec, "-q"], cwd=ROOT, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"utf8cert check {spec}: exit {done.returncode}\n{done.stderr.decode()}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


class Recording(AskingCodec):
    """A program under check that keeps every request asked of it, one list per vector."""

    def __init__(self, codec: ProcessCodec) -> None:
        self.codec = codec
        self.spec, self.description = codec.spec, codec.description
        self.capabilities = codec.capabilities
        self.batches: list[list[Request]] = [[]]

    def ask(self, request: Request) -> Outcome:
        self.batches[-1].append(request)
        return self.codec.ask(request)

    def close(self) -> None:
        self.codec.close()


def recorded(spec: str) -> list[list[Request]]:
    """Return the requests a check of `spec` puts to the program, one list per vector."""
    codec = load_codec(spec)
    assert isinstance(codec, ProcessCodec)
    recording = Recording(codec)
    try:
        run_check(recording, load_vectors(), progress=lambda _, __: recording.batches.append([]))
    finally:
        recording.close()
    return [batch for batch in recording.batches if batch]


Way = Callable[[ProcessCodec, list[list[Request]]], list[Outcome]]


def one_by_one(codec: ProcessCodec, batches: list[list[Request]]) -> list[Outcome]:
    return [codec.ask(request) for batch in batches for request in batch]


def by_vector(codec: ProcessCodec, batches: list[list[Request]]) -> list[Outcome]:
    return [outcome for batch in batches for outcome in codec.ask_all(batch)]


def all_at_once(codec: ProcessCodec, batches: list[list[Request]]) -> list[Outcome]:
    return codec.ask_all([request for batch in batches for request in batch])


WAYS: dict[str, Way] = {
    "one by one": one_by_one,
    "pipelined, a vector at a time": by_vector,
    "pipelined, all at once": all_at_once,
}


def replay(spec: str, batches: list[list[Request]], runs: int) -> dict[str, float]:
    """Return the median wall seconds of each way of asking, having checked their answers."""
    figures: dict[str, float] = {}
    expected: list[Outcome] | None = None
    for name, way in WAYS.items():
        times = []
        for _ in range(runs):
            codec = load_codec(spec)
            assert isinstance(codec, ProcessCodec)
            start = time.perf_counter()
            outcomes = way(codec, batches)
            times.append(time.perf_counter() - start)
            codec.close()
            expected = outcomes if expected is None else expected
            if outcomes != expected:
                raise SystemExit(f"{spec}: {name} answered otherwise than one by one")
        figures[name] = statistics.median(times)
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures as markdown tables; return 1 if the target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node-program", type=Path, default=NODE_PROGRAM)
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args(argv)
    met = True
    program = arguments.node_program.resolve()
    shown = program.relative_to(ROOT) if program.is_relative_to(ROOT) else program
    node = f"cmd:node {shlex.quote(str(shown))}"
    programs = [f"cmd:{SERVER} --protocol 1", f"cmd:{SERVER} --protocol 2"]
    if shutil.which("node"):
        walls, cpus = zip(*(timed_check(node) for _ in range(arguments.runs)), strict=True)
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        met = cpu <= TARGET
        print("| `utf8cert check` | wall | CPU | target (CPU) |")
        print("|---|--:|--:|---|")
        verdict = "met" if met else "NOT met"
        print(f"| `{node}` | {wall:.1f} s | {cpu:.1f} s | ≤ {TARGET:g} s: {verdict} |")
        print()
        programs.insert(0, node)
    print("| program | requests | " + " | ".join(WAYS) + " |")
    print("|---|--:|" + "--:|" * len(WAYS))
    for spec in programs:
        batches = recorded(spec)
        figures = replay(spec, batches, arguments.runs)
        count = sum(map(len, batches))
        cells = " | ".join(f"{seconds:.2f} s" for seconds in figures.values())
        print(f"| `{spec.replace(SERVER, 'serve')}` | {count:,} | {cells} |")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
