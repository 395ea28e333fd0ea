"""Same verdicts before and after a change: `utf8cert check --json` of many codecs, compared.

    python bench/bench_same_verdicts.py record BEFORE_DIR [--utf8cert PATH] [--only NAME ...]
    python bench/bench_same_verdicts.py record AFTER_DIR [--utf8cert PATH] [--only NAME ...]
    python bench/bench_same_verdicts.py compare BEFORE_DIR AFTER_DIR

`record` runs every check of RUNS (shipped adapters whose library this machine has, the hand-made
broken, lying and hostile codecs of tests/, dialect profiles and single inputs) with the given
`utf8cert` (default: the one on PATH) and writes each JSON report to the directory. `compare`
reads two such directories and prints, per run, `same` or the fields that differ, after removing
what changes from run to run (the date); exit 1 if any run differs or is missing. A run whose
library is missing here is skipped by both sides alike (its report says `unavailable`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

RUNS: dict[str, list[str]] = {
    # Shipped adapters (Python, C through ctypes, and programs in other languages).
    "cpython-strict": ["adapter:cpython-strict"],
    "cpython-replace": ["adapter:cpython-replace"],
    "cpython-surrogateescape": ["adapter:cpython-surrogateescape"],
    "cpython-surrogatepass": ["adapter:cpython-surrogatepass"],
    "cpython-utf-8-sig": ["adapter:cpython-utf-8-sig"],
    "cpython-incremental": ["adapter:cpython-incremental"],
    "json": ["adapter:json"],
    "pyyaml-libyaml": ["adapter:pyyaml-libyaml"],
    "pyyaml-pure": ["adapter:pyyaml-pure"],
    "glibc-iconv": ["adapter:glibc-iconv"],
    "glibc-mbrtowc": ["adapter:glibc-mbrtowc"],
    "glibc-wcrtomb": ["adapter:glibc-wcrtomb"],
    "sqlite": ["adapter:sqlite"],
    "sqlite-encode": ["adapter:sqlite-encode"],
    "sqlite3-text": ["adapter:sqlite3-text"],
    "pyexpat": ["adapter:pyexpat"],
    "node-textdecoder": ["adapter:node-textdecoder"],
    "node-textdecoder-stream": ["adapter:node-textdecoder-stream"],
    "node-string-decoder": ["adapter:node-string-decoder"],
    "java-readutf": ["adapter:java-readutf"],
    "java-charsetdecoder-report": ["adapter:java-charsetdecoder-report"],
    "perl-utf8-lax": ["adapter:perl-utf8-lax"],
    "codec-utf-8": ["codec:utf-8"],
    # Another encoding: every ill-formed byte read as a character, on every long input too.
    "codec-latin-1": ["codec:latin-1", "--in-process"],
    # Dialect profiles: the expectation reread by each.
    "surrogatepass-as-profile": [
        *("adapter:cpython-surrogatepass", "--profile", "python-surrogatepass")
    ],
    "java-readutf-as-java": ["adapter:java-readutf", "--profile", "java-modified"],
    "utf-8-as-rfc2279": ["codec:utf-8", "--profile", "rfc2279", "--in-process"],
    "utf-8-as-cesu-8": ["codec:utf-8", "--profile", "cesu-8", "--in-process"],
    "utf-8-as-wtf-8": ["codec:utf-8", "--profile", "wtf-8", "--in-process"],
    "sig-as-whatwg": ["adapter:cpython-utf-8-sig", "--profile", "whatwg"],
    # Hand-made broken, lying and hostile codecs (tests/).
    "naive-bit": ["support.broken_codecs:NaiveBitDecoder", "--in-process"],
    "cesu-8-decoder": ["support.broken_codecs:Cesu8Decoder", "--in-process"],
    "merges-into-fffd": ["support.broken_codecs:MergesIntoFffd", "--in-process"],
    "late-error": ["support.broken_codecs:LateErrorDecoder", "--in-process"],
    "one-byte-errors": ["support.broken_codecs:OneByteErrors", "--in-process"],
    "chunk-boundary": ["support.broken_codecs:ChunkBoundaryDecoder", "--in-process"],
    "lookahead": ["support.broken_codecs:LookaheadDecoder", "--in-process"],
    "cesu-encoder": ["support.lying_codecs:CesuEncoder", "--in-process"],
    "crash-on-c0": ["support.hostile_codecs:CrashOnC0"],
    # One input (`--input HEX`): an encoded surrogate, a value above U+10FFFF, a cut sequence.
    "input-surrogate": ["adapter:cpython-surrogatepass", "--input", "41eda080f4908080e282"],
    "input-rfc2279": ["codec:utf-8", "--profile", "rfc2279", "--input", "f8888080804142e2"],
    "input-late": [
        "support.broken_codecs:LateErrorDecoder",
        "--in-process",
        "--input",
        "e282ac41c0af",
    ],
}

VOLATILE = ("date",)
"""Top-level fields that change from run to run whatever the code does."""
TIMED = ("asked_in_all_cut_short",)
"""Coverage fields that depend on the machine's load: the questions asked again at the end stop
at a time budget (check/recheck.py), and this field counts them when they did."""


def record(directory: Path, utf8cert: str, only: list[str] | None = None) -> None:
    """Write the JSON report of every run in RUNS (or those named in `only`) to `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, "PYTHONPATH": str(TESTS)}
    for name, arguments in RUNS.items():
        if only and name not in only:
            continue
        output = directory / f"{name}.json"
        start = time.perf_counter()
        command = [utf8cert, "check", *arguments, "--json", str(output), "-q"]
        result = subprocess.run(command, capture_output=True, text=True, env=environment)
        (directory / f"{name}.exit").write_text(f"{result.returncode}\n{result.stdout}")
        took = time.perf_counter() - start
        print(f"{name}: exit {result.returncode} in {took:.1f} s", flush=True)


def normalized(report: dict[str, Any]) -> dict[str, Any]:
    """Return the report without what changes from run to run."""
    kept = {key: value for key, value in report.items() if key not in VOLATILE}
    kept["coverage"] = {
        capability: {key: value for key, value in counts.items() if key not in TIMED}
        for capability, counts in report.get("coverage", {}).items()
    }
    return kept


def compare(before: Path, after: Path) -> int:
    """Print per run whether the two reports agree; return the number of runs that differ."""
    differing = 0
    for name in RUNS:
        paths = [before / f"{name}.json", after / f"{name}.json"]
        records = [side / f"{name}.exit" for side in (before, after)]
        if not all(record.exists() for record in records):
            print(f"{name}: NOT RECORDED on both sides")
            differing += 1
            continue
        exits = [record.read_text() for record in records]
        if not all(path.exists() for path in paths):
            same = exits[0] == exits[1]
            print(f"{name}: no report ({'same exit' if same else 'exits differ'})")
            differing += not same
            continue
        old, new = (normalized(json.loads(path.read_text())) for path in paths)
        fields = sorted(key for key in old.keys() | new.keys() if old.get(key) != new.get(key))
        if exits[0] != exits[1]:
            fields.append("exit status")
        if fields:
            differing += 1
            print(f"{name}: DIFFERS in {', '.join(fields)}")
        else:
            verdict = old["summary"]["verdict"]
            shown = verdict if len(verdict) <= 90 else verdict[:89] + "…"
            print(f"{name}: same ({len(old['differences'])} differences; {shown})")
    return differing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    recording = commands.add_parser("record")
    recording.add_argument("directory", type=Path)
    recording.add_argument("--utf8cert", default=shutil.which("utf8cert") or "utf8cert")
    recording.add_argument("--only", action="append", help="record only this run (repeatable)")
    comparing = commands.add_parser("compare")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    arguments = parser.parse_args(argv)
    if arguments.command == "record":
        record(arguments.directory, arguments.utf8cert, arguments.only)
        return 0
    differing = compare(arguments.before, arguments.after)
    print(f"{len(RUNS) - differing} of {len(RUNS)} runs the same")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
