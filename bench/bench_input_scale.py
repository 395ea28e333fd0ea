"""Memory and time of checking one large input: `utf8cert check --input-file FILE`.

    python bench/bench_input_scale.py [--mb 100] [--modes api,cli] [--text astral|bmp|ascii]
                                      [--spec codec:utf-8]

Two inputs of --mb megabytes (10**6 bytes) of text (LINES): well-formed, and the same with one
FF byte about 100 bytes before the end. Each is checked in a fresh process, and its peak resident
set (the child's own ru_maxrss, from os.wait4) and times are reported, with the peak divided by
the input's size:

  api      check_one_input(codec, data): the check alone, as the fuzzer's reproducer runs it
  cli      utf8cert check SPEC --input-file FILE: the check and the report printed
  argument utf8cert's main(["check", SPEC, "--input", HEX]) in one process: the only way to give
           an input before --input-file existed (its hex argument is counted in the peak)

A fresh interpreter with utf8cert imported holds about 20 MB: at small sizes that dominates the
ratio, so the figures that matter are at 100 MB. Prints a markdown table for bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINES = {
    "astral": "The quick brown fox jumps over the lazy dog; naïve café, 東京, Ελληνικά, 😀\n",
    "bmp": "The quick brown fox jumps over the lazy dog; naïve café, 東京, Ελληνικά, ☺\n",
    "ascii": "The quick brown fox jumps over the lazy dog; naive cafe, Tokyo, Ellinika, :)\n",
}
"""Lines of text, repeated: mostly ASCII, with 2-, 3- and 4-byte characters (astral, the
default: one emoji makes Python store the decoded text in 4 bytes per character, the most a str
takes), with no character beyond the BMP (2 bytes per character), or ASCII alone (1)."""

API = """
import sys, time
from utf8cert.harness.check.run import check_one_input
from utf8cert.harness.world.spec import load_codec
data = open(sys.argv[1], "rb").read()
start = time.perf_counter()
report = check_one_input(load_codec(sys.argv[2]), data)
print(time.perf_counter() - start, len(report.differences), file=sys.stderr)
"""

ARGUMENT = """
import sys
from utf8cert.harness.cli.main import main
data = open(sys.argv[1], "rb").read()
sys.exit(main(["check", sys.argv[2], "--input", data.hex()]))
"""


def make_inputs(directory: Path, megabytes: float, text: str) -> dict[str, Path]:
    """Write the well-formed and the one-bad-byte input; return their paths by name."""
    size, line = int(megabytes * 1_000_000), LINES[text].encode()
    data = bytearray((line * (size // len(line) + 1))[: size // len(line) * len(line)])
    valid = directory / "valid.bin"
    valid.write_bytes(data)
    position = data.rindex(b" ", 0, len(data) - 100)  # an ASCII byte: only it becomes bad
    data[position] = 0xFF
    bad = directory / "bad.bin"
    bad.write_bytes(data)
    return {"valid": valid, "one bad byte": bad}


def measured(command: list[str]) -> tuple[float, float, int, int]:
    """Return (wall seconds, CPU seconds, peak RSS in bytes, exit status) of one child."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    assert child.stderr is not None
    error = child.stderr.read().decode(errors="replace")
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"{command[:4]} exited {child.returncode}: {error[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, child.returncode


def command(mode: str, path: Path, spec: str) -> list[str]:
    """Return the command line of one mode on one input."""
    if mode == "api":
        return [sys.executable, "-c", API, str(path), spec]
    if mode == "argument":
        return [sys.executable, "-c", ARGUMENT, str(path), spec]
    return [sys.executable, "-m", "utf8cert.harness", "check", spec, "--input-file", str(path)]


def main() -> int:
    """Measure every mode on both inputs and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100.0, help="input size in MB (default 100)")
    parser.add_argument("--modes", default="api,cli", help="api, cli, argument (comma-separated)")
    parser.add_argument("--spec", default="codec:utf-8", help="the codec (default codec:utf-8)")
    parser.add_argument("--text", choices=list(LINES), default="astral", help="see LINES")
    arguments = parser.parse_args()
    heading = f"input ({arguments.mb:g} MB, {arguments.text})"
    print(f"| {heading} | mode | peak RSS | peak / input | wall | CPU | exit |")
    print("|---|---|--:|--:|--:|--:|--:|")
    with tempfile.TemporaryDirectory() as directory:
        inputs = make_inputs(Path(directory), arguments.mb, arguments.text)
        for name, path in inputs.items():
            size = path.stat().st_size
            for mode in arguments.modes.split(","):
                wall, cpu, peak, status = measured(command(mode, path, arguments.spec))
                print(
                    f"| {name} | {mode} | {peak / 1e6:,.0f} MB | {peak / size:.1f}x "
                    f"| {wall:.1f} s | {cpu:.1f} s | {status} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
