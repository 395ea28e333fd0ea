#!/usr/bin/env python3
"""Fuzz target (ClusterFuzzLite, OSS-Fuzz): CPython's UTF-8 codec against the utf8cert reference.

Every input goes to every capability of the codec; a difference raises, with the input and both
answers, which the service records as a crash. Run by hand: `fuzz/utf8_fuzzer.py -runs=10000`.
"""

import sys

import atheris  # noqa: F401  # imported by name so that PyInstaller packages it

from utf8cert.harness.fuzzing.target import run


def main() -> None:
    run("codec:utf-8", sys.argv)


if __name__ == "__main__":
    main()
