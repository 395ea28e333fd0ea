"""A codec in C, C++ or Rust loaded as a shared library (`native:LIB.so [ARGUMENT]`): the line
protocol of harness/PROTOCOL.md, version 2, spoken through two functions instead of a pipe.

    const char *utf8cert_handshake(const char *argument);  /* the handshake line, or NULL */
    const char *utf8cert_answer(const char *request);      /* the answer line to one request */

Lines carry no newline; a request line starts with its id and so does its answer; the text
returned stays valid until the next call. examples/c/utf8_codec.c and the programs of
harness/world/programs/ (through c_protocol.h) build either way: as a program (`cmd:`) or, with
-DUTF8CERT_SHARED, as such a library.

Loaded in the process that asks it, the library's own branches can guide libFuzzer (built with
clang's -fsanitize=fuzzer-no-link,address: `utf8cert fuzz`, fuzzing/target.py), and an
AddressSanitizer report ends the process as a crash. Everywhere else a native codec is hostile
code run as `cmd:` programs are: in a child process, this module's `main` loading the library
there, under the sanitizer runtime (native_runtime.py), so that a memory error it makes is a
`crash` of that child, its ASan report the reason.
"""

from __future__ import annotations

import ctypes
import shlex
import sys
from pathlib import Path
from typing import Final

from utf8cert.harness.codec import native_runtime
from utf8cert.harness.codec.handshake import read_handshake
from utf8cert.harness.codec.interface import Capability, Failed, Inapplicable, Outcome
from utf8cert.harness.codec.protocol import (
    GREETING,
    AskingCodec,
    ProtocolError,
    Request,
    parse_answer,
    request_line,
    split_id,
)
from utf8cert.harness.codec.reading import BYTES, InputModel
from utf8cert.harness.codec.strings import DEFAULT, StringModel, unholdable

PREFIX: Final = "native:"
HOST_MODULE: Final = "utf8cert.harness.codec.native"
ID: Final = 1
"""Every request in process gets the same id: one is asked at a time."""


class NativeError(ValueError):
    """A library that is no native codec; str() is one line saying why."""


def split_spec(spec: str) -> tuple[Path, str]:
    """Return the library's path and the argument its handshake gets ('' for none) of a
    `native:LIB.so [ARGUMENT]` spec; NativeError when there is no library path."""
    try:
        words = shlex.split(spec.removeprefix(PREFIX))
    except ValueError as error:
        raise NativeError(f"cannot split the spec: {error}") from None
    if not words or len(words) > 2:
        raise NativeError("expected native:LIB.so or native:'LIB.so ARGUMENT'")
    return Path(words[0]).absolute(), words[1] if len(words) == 2 else ""


class NativeCodec(AskingCodec):
    """A native codec asked in this process through ctypes."""

    def __init__(self, spec: str) -> None:
        """Load the library of `spec` and read its handshake; NativeError (one line) if the
        library cannot be loaded, lacks a function, or gives no handshake."""
        self.spec = spec
        path, argument = split_spec(spec)
        if not path.is_file():
            raise NativeError(f"no such file: {path}")
        try:
            library = ctypes.CDLL(str(path))
        except OSError as error:
            raise NativeError(f"cannot load it: {_loading_problem(str(error))}") from None
        try:
            handshake, self._answer = library.utf8cert_handshake, library.utf8cert_answer
        except AttributeError as error:
            name = str(error).rpartition(": ")[2]
            problem = f"the library has no function {name} (harness/codec/native.py)"
            raise NativeError(problem) from None
        for function in (handshake, self._answer):
            function.restype, function.argtypes = ctypes.c_char_p, [ctypes.c_char_p]
        line = handshake(argument.encode())
        if line is None:
            raise NativeError(f"utf8cert_handshake({argument!r}) returned NULL (see its stderr)")
        self.handshake = line.decode("ascii", "replace")
        try:
            said = read_handshake(self.handshake)
        except ProtocolError as error:
            raise NativeError(str(error)) from None
        if said.version != 2:
            raise NativeError(f"a library speaks {GREETING} 2, not {said.version}")
        self.capabilities: frozenset[Capability] = said.capabilities
        self.strings: StringModel = said.strings
        self.incremental_mode = said.incremental_mode
        self.reads: InputModel = BYTES
        self.version = said.version
        self.description = f"library {path.name} speaking {GREETING} 2 in process"

    def ask(self, request: Request) -> Outcome:
        """Return the library's answer to `request`: Inapplicable for a question its strings
        cannot hold, Failed('protocol') for an answer that is no answer to it."""
        if request.capability == "encode" and self.strings != DEFAULT:
            unaskable = unholdable(self.strings, request.scalars)
            if unaskable is not None:
                return unaskable
        try:
            line = f"{ID} {request_line(request)}"
        except ValueError as error:
            return Inapplicable(str(error))
        raw = self._answer(line.encode("ascii"))
        if raw is None:
            return Failed("protocol", "utf8cert_answer returned NULL")
        identifier, rest = split_id(raw.decode("ascii", "replace"))
        if identifier != ID:
            return Failed("protocol", f"the answer {rest[:60]!r} carries no id {ID}")
        try:
            return parse_answer(request, rest)
        except ProtocolError as error:
            return Failed("protocol", str(error))

    def close(self) -> None:
        """Nothing to close: a library cannot be unloaded safely."""


def _loading_problem(message: str) -> str:
    """Return why dlopen failed, with the remedy when the library needs the sanitizer runtime
    and the process has none."""
    if "undefined symbol: __asan" in message or "undefined symbol: __sanitizer" in message:
        return f"{message} (built with -fsanitize: run it as utf8cert does, under its runtime)"
    return message


def child_argv(spec: str, runtime: Path) -> list[str]:
    """Return the command of the child process that serves `spec` over the pipe protocol under
    `runtime`: after the spec, the library's and the runtime's paths, which the OS sandbox then
    shows the child (codec/sandbox.py: it hides /tmp but for the files a command names)."""
    path, _ = split_spec(spec)  # NativeError here, for a spec that names no library
    return [sys.executable, "-m", HOST_MODULE, spec, str(path), str(runtime)]


def main(argv: list[str]) -> int:
    """Serve the library of the spec `argv` starts with (what follows it is for the sandbox) on
    stdin/stdout: its handshake, then each request line passed to utf8cert_answer and its
    answer written back. Returns 2 with one line on stderr when it cannot be loaded."""
    if not argv:
        print(f"usage: python -m {HOST_MODULE} 'native:LIB.so [ARGUMENT]'", file=sys.stderr)
        return 2
    try:
        codec = NativeCodec(argv[0])
    except NativeError as error:
        print(f"codec spec {argv[0]!r}: {error}", file=sys.stderr)
        return 2
    out = sys.stdout.buffer
    out.write(codec.handshake.encode("ascii") + b"\n")
    out.flush()
    for line in sys.stdin.buffer:
        answer = codec._answer(line.rstrip(b"\r\n"))
        out.write(b"0 crash utf8cert_answer returned NULL" if answer is None else answer)
        out.write(b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    native_runtime.run_under_runtime()  # the sanitizer runtime must come first
    sys.exit(main(sys.argv[1:]))
