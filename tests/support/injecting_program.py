"""A protocol program whose text tries to reach what people read: ESC sequences, a line that
is a GitHub workflow command and HTML, in its stderr, its refusal messages and its crash.
`python injecting_program.py` decodes as CPython does and dies on any input holding C0."""

from __future__ import annotations

import os
import sys

FORGED = "::error file=forged.py,line=1::forged annotation"
"""A workflow command a CI log must never run."""


def main() -> None:
    print("utf8cert-protocol 1 decode", flush=True)
    print(f"\x1b[31mred\x1b[0m\n{FORGED}", file=sys.stderr, flush=True)
    for line in sys.stdin:
        _, field = line.split()
        data = bytes.fromhex("" if field == "-" else field)
        if b"\xc0" in data:
            print(f"\x1b[2J<script>alert(1)</script>\x85{FORGED}", file=sys.stderr, flush=True)
            os._exit(3)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            # A refusal at the wrong offset, so that its message is shown.
            print(f"refused {error.start + 1} \x1b[1mbad\x1b[0m\r{FORGED}", flush=True)
            continue
        print("ok " + ("".join(f"{ord(char):08x}" for char in text) or "-"), flush=True)


if __name__ == "__main__":
    main()
