"""Serving a Python codec over the line protocol on stdin/stdout: the reference program.

    python -m utf8cert.harness.codec.serve [SPEC]

SPEC is any spec `utf8cert check` takes (default: CPython's utf-8 codec). `--isolate` runs
Python codecs through this program; adapter writers can read it next to harness/PROTOCOL.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from typing import BinaryIO

from utf8cert.harness.codec.interface import Codec, Failed, Outcome
from utf8cert.harness.codec.protocol import (
    ProtocolError,
    Request,
    answer_line,
    handshake_line,
    parse_request,
)
from utf8cert.harness.codec.python_codec import describe_exception
from utf8cert.harness.codec.spec import DEFAULT_SPEC, CodecSpecError, load_codec


def outcome_of(codec: Codec, request: Request) -> Outcome:
    """Return what `codec` does with `request`."""
    if request.capability == "decode":
        return codec.decode(request.data)
    if request.capability == "replace":
        return codec.decode_replace(request.data)
    if request.capability == "validate":
        return codec.validate(request.data)
    if request.capability == "encode":
        return codec.encode(request.scalars)
    return codec.decode_chunks(request.chunks, request.final_empty)


def answer(codec: Codec, line: str) -> str:
    """Return the answer line to one request line (a `crash` answer if it is no request)."""
    try:
        request = parse_request(line)
    except ProtocolError as error:
        return answer_line("decode", Failed("crash", str(error)))
    try:
        return answer_line(request.capability, outcome_of(codec, request))
    except Exception as error:  # a codec object whose outcome cannot even be written
        return answer_line(request.capability, Failed("crash", describe_exception(error)))


def serve(codec: Codec, requests: Iterable[bytes], answers: BinaryIO) -> None:
    """Return when `requests` end, having written the handshake and one answer per request."""
    answers.write(f"{handshake_line(codec.capabilities)}\n".encode("ascii"))
    answers.flush()
    for raw in requests:
        line = raw.decode("ascii", "replace").rstrip("\r\n")
        answers.write(f"{answer(codec, line)}\n".encode())
        answers.flush()  # the harness waits for each answer before it sends the next request


def main(argv: list[str] | None = None) -> int:
    """Return 0 when stdin ends, or 2 (one line on stderr) if the spec names no codec."""
    parser = argparse.ArgumentParser(
        prog="python -m utf8cert.harness.codec.serve",
        description="Serve a codec over the utf8cert line protocol on stdin/stdout.",
    )
    parser.add_argument("spec", nargs="?", default=DEFAULT_SPEC, help="codec spec")
    spec = parser.parse_args(argv).spec
    try:
        codec = load_codec(spec)
    except CodecSpecError as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    # Answers go to a copy of stdout; whatever the codec itself prints goes to stderr instead,
    # where it cannot be taken for an answer.
    sys.stdout.flush()
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        serve(codec, sys.stdin.buffer, answers)
    except BrokenPipeError:  # the harness went away: nobody is left to answer
        pass
    finally:
        codec.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
