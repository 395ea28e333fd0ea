"""Time and memory of loading a vector file of many vectors: `load_vectors([FILE])`.

    python bench/bench_vector_load.py [--vectors 200000,50000,10000]

For each count, a YAML file of that many decode vectors (each on one line in flow style, about
120 bytes of YAML a vector) is written and loaded in a fresh process with the built-in vectors;
its wall time, CPU time (what an idle machine takes) and peak resident set (the child's own
rusage, from os.wait4) are reported, with the time per vector, to show whether loading is
linear. Prints a markdown table for bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOAD = """
import sys
from utf8cert.harness.vectors.load import load_vectors
vectors = load_vectors([sys.argv[1]])
"""


def write_file(path: Path, count: int) -> None:
    """Write a valid vector file of `count` decode vectors, two bytes each (41, then 00..7F)."""
    lines = [
        'schema_version: "1.0"',
        "theme: many",
        "description: Many vectors, for the loading benchmark.",
        "sources: [RFC 3629 §3]",
        "notes: {}",
        "decode:",
    ]
    for index in range(count):
        byte = index % 128
        lines.append(
            f"  - {{id: many-{index}, description: d, source: RFC 3629, flags: [],"
            f' bytes: "41 {byte:02X}", valid: true, scalars: [U+0041, U+{byte:04X}]}}'
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def measure(path: Path) -> tuple[float, float, float]:
    """Return the wall seconds, CPU seconds and peak MiB of loading `path` in a fresh process."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", LOAD, str(path)])
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"loading {path} failed with status {status}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    """Print one table row per vector count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", default="200000,50000,10000")
    counts = [int(count) for count in parser.parse_args().vectors.split(",")]
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| vectors | file MB | wall s | CPU s | µs a vector (wall) | peak MiB |")
    print("|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        for count in counts:
            path = Path(scratch) / f"many-{count}.yaml"
            write_file(path, count)
            seconds, cpu, peak = measure(path)
            size = path.stat().st_size / 1e6
            per = seconds / count * 1e6
            row = f"| {count:,} | {size:.1f} | {seconds:.1f} | {cpu:.1f} | {per:.0f} | {peak:.0f} |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
