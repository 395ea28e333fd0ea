"""Serving a Python codec over the line protocol on stdin/stdout: the reference program.

    python -m utf8cert.harness.codec.serve [--protocol 1|2] [SPEC]

SPEC is any spec `utf8cert check` takes but `adapter:NAME`, which the world wing's server
(world/serve.py) takes too (default: CPython's utf-8 codec). `utf8cert check` runs
Python codecs through this program (unless given --in-process); adapter writers can read it next
to harness/PROTOCOL.md. It speaks version 2 (numbered requests) unless told `--protocol 1`, and
exits when stdin closes or when the process that started it is gone. Its answers carry every
optional field the codec's outcome has (an error's end, an incremental decoder's calls, a plain
ValueError: codec/answer_fields.py), so that the check judges them as it does in process.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import BinaryIO

from utf8cert.harness.codec.handshake import handshake_line
from utf8cert.harness.codec.interface import Codec, Failed, declared_mode
from utf8cert.harness.codec.protocol import (
    VERSION,
    VERSIONS,
    ProtocolError,
    answer_line,
    numbered,
    outcome_of,
    parse_request,
    split_id,
)
from utf8cert.harness.codec.raised import describe_exception
from utf8cert.harness.codec.spec import DEFAULT_SPEC, CodecSpecError, load_codec
from utf8cert.harness.codec.strings import string_model


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


def answer_numbered(codec: Codec, line: str) -> str:
    """Return the version 2 answer to one request line: its id, then the answer."""
    identifier, rest = split_id(line)
    if identifier is None:
        return answer_line("decode", Failed("crash", f"a request with no id: {line[:80]!r}"))
    return numbered(identifier, answer(codec, rest))


def serve(
    codec: Codec, requests: Iterable[bytes], answers: BinaryIO, version: int = VERSION
) -> None:
    """Return when `requests` end, having written the handshake and one answer per request."""
    mode = declared_mode(codec)  # a Python codec's own declaration, passed on to the judge
    reuse = callable(getattr(codec, "decode_after", None))  # a PythonCodec can be reused
    restriction = getattr(codec, "restriction", None)  # codec/restrictions.py
    greeting = handshake_line(
        codec.capabilities, version, string_model(codec), mode, reuse, restriction
    )
    answers.write(f"{greeting}\n".encode("ascii"))
    answers.flush()
    respond = answer_numbered if version >= 2 else answer
    for raw in requests:
        line = raw.decode("ascii", "replace").rstrip("\r\n")
        answers.write(f"{respond(codec, line)}\n".encode())
        answers.flush()  # answered now: the harness may be waiting for this one


def exit_with_parent(interval: float = 0.5) -> None:
    """Start a thread that ends this process when the process that started it is gone (it is
    adopted by another): the watchdog where the kernel's death signal does not exist, and for
    a codec that hangs while stdin is never read again."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(3)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def main(
    argv: list[str] | None = None,
    *,
    load: Callable[[str], Codec] = load_codec,
    prog: str = "python -m utf8cert.harness.codec.serve",
) -> int:
    """Return 0 when stdin ends, or 2 (one line on stderr) if the spec names no codec; `load`
    turns the spec into the codec (the world wing passes its own, which knows `adapter:NAME`)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Serve a codec over the utf8cert line protocol on stdin/stdout.",
    )
    parser.add_argument(
        "--protocol",
        type=int,
        choices=VERSIONS,
        default=VERSION,
        help=f"the protocol version to speak (default: {VERSION})",
    )
    parser.add_argument("spec", nargs="?", default=DEFAULT_SPEC, help="codec spec")
    options = parser.parse_args(argv)
    spec = options.spec
    exit_with_parent()
    # Answers go to a copy of stdout; whatever the codec itself prints, from its import on,
    # goes to stderr instead, where it cannot be taken for the handshake or an answer.
    sys.stdout.flush()
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        codec = load(spec)
    except CodecSpecError as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    except BaseException as error:  # KeyboardInterrupt raised by the module: a load error too
        problem = f"cannot load it: {describe_exception(error)}"
        print(f"{parser.prog}: codec spec {spec!r}: {problem}", file=sys.stderr)
        return 2
    try:
        serve(codec, sys.stdin.buffer, answers, options.protocol)
    except BrokenPipeError:  # the harness went away: nobody is left to answer
        pass
    finally:
        codec.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
