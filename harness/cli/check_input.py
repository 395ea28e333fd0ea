"""What one `utf8cert check` run is asked to check: one input (--input HEX, --input -,
--input-file FILE) instead of the vectors, or only the vectors of the ids given (--vector)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace

from utf8cert.harness.vectors.model import VectorSet
from utf8cert.harness.vectors.named_file import read_named


def parse_hex(text: str) -> bytes:
    """Return the bytes of a hex string (spaces and colons allowed); UsageFailure if not hex."""
    from utf8cert.harness.cli.main import UsageFailure

    digits = "".join(text.replace(":", " ").split())
    try:
        return bytes.fromhex(digits)
    except ValueError:
        raise UsageFailure(f"--input {text!r}: not a hex byte string (e.g. e282ac)") from None


def read_input(arguments: argparse.Namespace) -> tuple[bytes, str | None] | None:
    """Return the one input asked for and where it came from (None for --input HEX): the
    bytes of --input-file FILE, of standard input for `--input -`, or of --input HEX; None
    when none is asked for. UsageFailure (one line) for a file that cannot be read or bad hex."""
    from utf8cert.harness.cli.main import UsageFailure

    one_input = arguments.input_file is not None or arguments.input is not None
    for option, given in (("--vectors", arguments.vectors), ("--vector", arguments.vector)):
        if one_input and given:
            # One input is checked alone: vectors would be silently ignored.
            raise UsageFailure(f"{option} has no effect on a check of one input (--input)")
    if arguments.input_file is not None:
        try:
            # any size, but a regular file: a FIFO or a device would never end
            return read_named(arguments.input_file, bounded=False), arguments.input_file
        except OSError as error:
            problem = error.strerror or str(error)
            raise UsageFailure(f"--input-file {arguments.input_file}: {problem}") from None
    if arguments.input == "-":
        return sys.stdin.buffer.read(), "-"
    return None if arguments.input is None else (parse_hex(arguments.input), None)


def only_vectors(vectors: VectorSet, ids: Sequence[str]) -> VectorSet:
    """Return the vectors whose ids are given (all of them for no ids); UsageFailure naming an
    id that no vector has."""
    from utf8cert.harness.cli.main import UsageFailure

    if not ids:
        return vectors
    unknown = sorted(set(ids) - {vector.id for vector in vectors})
    if unknown:
        raise UsageFailure(f"--vector {unknown[0]}: no such vector (built-in or in --vectors)")
    # The files that hold an asked vector, whether or not the others were read (load.py
    # reads only those when no file of the user's is given): the suite asked is the same.
    asked = (
        replace(file, vectors=tuple(v for v in file.vectors if v.id in ids))
        for file in vectors.files
    )
    return VectorSet(tuple(file for file in asked if file.vectors))
