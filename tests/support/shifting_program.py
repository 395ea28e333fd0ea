"""A protocol program that announces another handshake each time it is started again:
`python shifting_program.py MARK` offers decode and replace the first time (MARK does not
exist yet; it is made), decode alone after. It decodes as CPython does and dies on any input
holding C0, so that utf8cert starts it again."""

from __future__ import annotations

import os
import sys


def main() -> None:
    mark = sys.argv[1]
    first = not os.path.exists(mark)
    open(mark, "a").close()
    print(f"utf8cert-protocol 1 {'decode replace' if first else 'decode'}", flush=True)
    for line in sys.stdin:
        operation, field = line.split()
        data = bytes.fromhex("" if field == "-" else field)
        if b"\xc0" in data:
            os._exit(1)
        errors = "strict" if operation == "decode" else "replace"
        try:
            text = data.decode("utf-8", errors)
        except UnicodeDecodeError as error:
            print(f"refused {error.start} invalid", flush=True)
            continue
        print("ok " + ("".join(f"{ord(char):08x}" for char in text) or "-"), flush=True)


if __name__ == "__main__":
    main()
