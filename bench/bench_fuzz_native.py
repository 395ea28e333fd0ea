"""Native coverage: how much of a C codec a campaign reaches when libFuzzer sees the codec's own
branches (`native:LIB.so` built with -fsanitize=fuzzer-no-link,address) against when it does not.

    python bench/bench_fuzz_native.py [--seconds 60] [--seeds 1]

Two codecs: examples/c/utf8_codec.c (the template), and utf8proc 2.8.0 built from Debian's source
(scripts/fetch-utf8proc-source puts it under utf8cert's cache) through harness/world/programs/
c_utf8proc.c, mode utf8proc-map (utf8proc_map with UTF8PROC_STABLE: its decoder, its property
lookups and its encoder). Each is built three ways and fuzzed for --seconds, seed 1 (and more
with --seeds N):

- `cmd:` program, gcc -O2: how C codecs were fuzzed before (a pipe, the reference's coverage
  alone);
- `native:` library with -fsanitize=address only: in process, no coverage of its own;
- `native:` library with -fsanitize=fuzzer-no-link,address: in process, its branches guide.

Coverage reached is measured the same way for all three: the campaign's corpus (the inputs
libFuzzer kept), its seeds and straddles are replayed through the fully instrumented library
(`-runs=0 -print_coverage=1`), and the edges libFuzzer reports covered in the codec's C
functions are summed. Prints a markdown table for bench/README.md.
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: bench/ is on the path, the repository is not
    sys.path.insert(0, str(ROOT))

from utf8cert.harness.codec.cache import cache_root  # noqa: E402
from utf8cert.harness.fuzzing.corpus import default_seeds  # noqa: E402

TEMPLATE = ROOT / "examples" / "c" / "utf8_codec.c"
C_UTF8PROC = ROOT / "harness" / "world" / "programs" / "c_utf8proc.c"
UTF8PROC = cache_root() / "sources" / "utf8proc-2.8.0"
NATIVE = ("-shared", "-fPIC", "-g", "-O1", "-DUTF8CERT_SHARED")
EDGES = re.compile(r"^(?:UN)?COVERED_FUNC: hits: \d+ edges: (\d+)/(\d+) \S+ (\S+):\d+")
FEATURES = re.compile(r"DONE +cov: (\d+) ft: (\d+)")


@dataclass(frozen=True)
class Codec:
    """A codec's sources, the flags they build with, and the argument its spec gives."""

    name: str
    sources: tuple[Path, ...]
    flags: tuple[str, ...] = ()
    argument: str = ""


def codecs() -> list[Codec]:
    """Return the template, and utf8proc when its source is there."""
    found = [Codec("examples/c", (TEMPLATE,))]
    if (UTF8PROC / "utf8proc.c").is_file():
        flags = (f"-I{UTF8PROC}", "-DUTF8PROC_STATIC")
        sources = (C_UTF8PROC, UTF8PROC / "utf8proc.c")
        found.append(Codec("utf8proc 2.8.0", sources, flags, "utf8proc-map"))
    else:
        missing = f"no utf8proc source at {UTF8PROC}: run scripts/fetch-utf8proc-source"
        print(missing, file=sys.stderr)
    return found


def build(codec: Codec, directory: Path) -> dict[str, str]:
    """Return the three specs of `codec`, built into `directory`."""
    sources = [str(source) for source in codec.sources]
    argument = f" {codec.argument}" if codec.argument else ""
    program, plain, native = (directory / name for name in ("program", "asan.so", "native.so"))
    guided = "-fsanitize=fuzzer-no-link,address"
    commands = [
        ["gcc", "-O2", "-o", str(program), *codec.flags, *sources],
        ["clang", *NATIVE, "-fsanitize=address", "-o", str(plain), *codec.flags, *sources],
        ["clang", *NATIVE, guided, "-o", str(native), *codec.flags, *sources],
    ]
    for command in commands:
        subprocess.run(command, check=True, capture_output=True)
    return {
        "cmd: program (gcc)": f"cmd:{program}{argument}",
        "native:, ASan only": f"native:{plain}{argument}",
        "native:, fuzzer-no-link + ASan": f"native:{native}{argument}",
    }


def campaign(spec: str, artifacts: Path, seconds: int, seed: int) -> int:
    """Run one campaign; return its executions."""
    report = artifacts.with_suffix(".json")
    command = [sys.executable, "-m", "utf8cert.harness", "fuzz", spec, "--artifacts"]
    command += [str(artifacts), "--max-time", str(seconds), "--seed", str(seed), "-q"]
    done = subprocess.run([*command, "--json", str(report)], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"{spec}: exit {done.returncode}: {done.stderr[-2000:]}")
    return int(json.loads(report.read_text())["executions"])


@dataclass(frozen=True)
class Reached:
    """What a set of inputs covers of the fully instrumented build."""

    covered: int
    """Edges of the codec's C functions covered."""
    total: int
    """Edges of the codec's C functions."""
    features: int
    """libFuzzer's features (edges and their hit-count buckets, the reference's Python branches
    and the codec's C ones together): how varied the inputs are."""


def reached(replayer: Path, folders: list[Path]) -> Reached:
    """Return what the inputs of `folders` cover, replayed through the campaign script
    `replayer` of the fully instrumented build (-runs=0: the inputs alone, no mutation)."""
    command = [str(replayer), *map(str, folders), "-runs=0", "-print_coverage=1"]
    done = subprocess.run([*command, "-max_len=66048"], capture_output=True, text=True)
    covered = total = features = 0
    for line in (done.stdout + done.stderr).splitlines():
        match = EDGES.match(line)
        if match and match[3].endswith((".c", ".h")):
            covered, total = covered + int(match[1]), total + int(match[2])
        done_line = FEATURES.search(line)
        if done_line:
            features = int(done_line[2])
    if total == 0:
        raise RuntimeError(f"no coverage from {replayer}: {done.stderr[-2000:]}")
    return Reached(covered, total, features)


def campaign_inputs(artifacts: Path) -> list[Path]:
    """Return the folders of what a campaign ran on and kept: its corpus, seeds, straddles."""
    return [
        artifacts / "corpus",
        default_seeds() or ROOT / "corpus" / "seeds",
        artifacts / "straddles",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--seeds", type=int, default=1)
    arguments = parser.parse_args()
    print(f"{arguments.seconds} s a campaign, seeds 1..{arguments.seeds} (medians), load", end="")
    print(f" {os.getloadavg()[0]:.2f} at the start")
    print("| codec | built as | executions | codec edges reached (of all) | features |")
    print("|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        for number, codec in enumerate(codecs()):
            directory = scratch / str(number)
            directory.mkdir()
            specs = build(codec, directory)
            replayer: Path | None = None
            rows = []
            for variant, (label, spec) in enumerate(reversed(specs.items())):
                runs, found = [], []
                for seed in range(1, arguments.seeds + 1):
                    artifacts = directory / f"artifacts-{variant}-{seed}"
                    runs.append(campaign(spec, artifacts, arguments.seconds, seed))
                    # The fully instrumented build's script replays every campaign's inputs.
                    replayer = replayer or artifacts / "utf8cert_fuzzer.py"
                    found.append(reached(replayer, campaign_inputs(artifacts)))
                edges = statistics.median(item.covered for item in found)
                features = statistics.median(item.features for item in found)
                rows.append((label, statistics.median(runs), edges, found[0].total, features))
            assert replayer is not None
            alone = reached(replayer, campaign_inputs(directory / "artifacts-0-1")[1:])
            rows.append(("(the seeds alone)", 0, alone.covered, alone.total, alone.features))
            for label, runs_median, edges, total, features in reversed(rows):
                shown = f"{runs_median:,.0f}" if runs_median else "-"
                print(
                    f"| {codec.name} | {label} | {shown} | {edges:.0f} / {total} | {features:.0f} |"
                )
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
