"""Time per configuration of the matrix: the configurations issue 43 added against the others,
from one run (so both are measured under the same load).

    scripts/build-matrix 2> matrix.log      # or: utf8cert matrix --json m.json 2> matrix.log
    python bench/bench_world_configs.py matrix.log

Reads the per-adapter lines `utf8cert matrix` writes on stderr (`NAME: verdict (S s)`), and
prints the mean and median seconds a configuration for the older ones and the new ones, and
their ratio. Target (issue 43): the new ones within 1.2 times the older ones' mean. Exits 1 when
it is missed, 2 when the log has no timed line of either set.
"""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

NEW = frozenset(
    {
        "protobuf", "pydantic-core-json", "ormsgpack", "duckdb-decode", "selectolax-lexbor",
        "jansson", "json-c", "json-c-validate-utf8", "yajl", "cjson",
        "fribidi-charset-to-unicode", "fribidi-unicode-to-charset", "harfbuzz-buffer-add-utf8",
        "cmark", "cmark-validate-utf8", "cmark-gfm", "cmark-gfm-validate-utf8",
        "bson-utf8-validate", "bson-utf8-escape-for-json", "libcbor",
        "npm-msgpackr", "npm-notepack", "npm-bson", "npm-ws", "npm-utf-8-validate",
        "jvm-jackson-core", "jvm-jsoup", "jvm-msgpack-java", "jvm-guava-utf8",
        "go-decode-last-rune", "go-xml-unmarshal", "go-xml-escape-text",
        "rust-utf8-chunks", "rust-read-to-string",
    }
)  # fmt: skip
"""The configurations issue 43 added (34, in six ecosystems)."""
TARGET = 1.2
TIMED = re.compile(r"([\w.-]+): (.*) \(([\d.]+) s\)")


def main(log: Path) -> int:
    """Return 0 when the new configurations' mean is within TARGET times the others', else 1."""
    seconds: dict[str, float] = {}
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        found = TIMED.fullmatch(line.strip())
        if found and not found.group(2).startswith("skipped"):
            seconds[found.group(1)] = float(found.group(3))
    new = [s for name, s in seconds.items() if name in NEW]
    old = [s for name, s in seconds.items() if name not in NEW]
    if not new or not old:
        print(f"{log}: no timed line of the new or of the older configurations")
        return 2
    ratio = statistics.mean(new) / statistics.mean(old)
    print("| configurations | count | mean s | median s |\n|---|--:|--:|--:|")
    for label, values in (("older", old), ("issue 43", new)):
        print(f"| {label} | {len(values)} | {statistics.mean(values):.1f} | "
              f"{statistics.median(values):.1f} |")  # fmt: skip
    print(f"\nnew / older mean: {ratio:.2f} (target at most {TARGET})")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python bench/bench_world_configs.py MATRIX_LOG", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(Path(sys.argv[1])))
