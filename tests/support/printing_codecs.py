"""Codecs that write to standard output in utf8cert's own process: a report there must stay
the report (harness/codec/stdout.py). Each decodes as CPython does."""

from __future__ import annotations

import os
import sys

FORGED = '{"forged": "json"}'


class Printing:
    """Prints a forged document at construction and on every input holding C0, through
    `print` and through the file descriptor itself."""

    def __init__(self) -> None:
        print(FORGED)

    def decode(self, data: bytes) -> str:
        if b"\xc0" in data:
            print(FORGED)
            os.write(1, FORGED.encode() + b"\n")
        return data.decode("utf-8")


class ClosingStdout:
    """Closes standard output (the descriptor and sys.stdout) the first time it is asked."""

    def decode(self, data: bytes) -> str:
        if not sys.stdout.closed:
            sys.stdout.close()
            os.close(1)
        return data.decode("utf-8")
