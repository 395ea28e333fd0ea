"""A program speaking utf8cert's line protocol (harness/PROTOCOL.md) with all five capabilities,
correct (CPython's UTF-8 codec) until a decoding request holds byte C0, then faulty one way:

    python tests/support/hostile_programs.py hang|exit|segfault|deaf

- hang: never answers (sleeps, so that a hang costs no CPU on a loaded machine);
- exit: exits with status 3 without answering;
- segfault: dies of SIGSEGV without answering;
- deaf: never reads its input after the handshake (it hangs before it can see any question).

It imports nothing of utf8cert, so that it starts as fast as a small native program would.
With HOSTILE_MARK set to a file name, it appends its pid there as it goes wrong.
"""

from __future__ import annotations

import codecs
import os
import signal
import sys
import time

HANDSHAKE = "utf8cert-protocol 1 decode replace validate encode incremental"
TRIGGER = 0xC0


def fault(mode: str) -> None:
    """Go wrong the way `mode` names."""
    path = os.environ.get("HOSTILE_MARK")
    if path:
        with open(path, "a", encoding="ascii") as file:
            file.write(f"{os.getpid()}\n")
    if mode == "exit":
        os._exit(3)
    if mode == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    while True:
        time.sleep(60)


def points(text: str) -> str:
    """Return `text` as the protocol's code points (eight hex digits each), '-' if empty."""
    return "".join(f"{ord(c):08x}" for c in text) or "-"


def field_bytes(field: str) -> bytes:
    """Return the bytes of a protocol bytes field."""
    return b"" if field == "-" else bytes.fromhex(field)


def answer(mode: str, line: str) -> str:
    """Return the answer line to one request line (faulting on C0)."""
    name, *fields = line.split(" ")
    if name == "encode":
        hexes = "" if fields[0] == "-" else fields[0]
        values = [int(hexes[i : i + 8], 16) for i in range(0, len(hexes), 8)]
        try:
            return "ok " + ("".join(map(chr, values)).encode("utf-8").hex() or "-")
        except (UnicodeEncodeError, ValueError, OverflowError) as error:
            return f"refused - {type(error).__name__}"
    if name == "incremental":
        chunks = [field_bytes(field) for field in fields[1:]]
    else:
        chunks = [field_bytes(fields[0])]
    if any(TRIGGER in chunk for chunk in chunks):
        fault(mode)
    data = b"".join(chunks)
    if name == "replace":
        return "ok " + points(data.decode("utf-8", "replace"))
    try:
        if name == "incremental":
            decoder = codecs.getincrementaldecoder("utf-8")()
            text = "".join(decoder.decode(chunk) for chunk in chunks) + decoder.decode(b"", True)
        else:
            text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        if name == "validate":
            return "ok false"
        return f"refused - {error.reason}"
    return "ok true" if name == "validate" else "ok " + points(text)


def main() -> None:
    """Write the handshake, then one answer a request until stdin closes."""
    mode = sys.argv[1]
    print(HANDSHAKE, flush=True)
    if mode == "deaf":
        fault(mode)
    for line in sys.stdin:
        print(answer(mode, line.rstrip("\n")), flush=True)


if __name__ == "__main__":
    main()
