"""Programs that put the UTF-8 codecs of twelve language runtimes and of the C libraries people
link to utf8cert, as `cmd:` specs.

    from utf8cert.harness.world.programs import PROGRAMS
    program = PROGRAMS["java-readutf"]
    program.unavailable()  # None, or why not: "javac not found on PATH"
    program.spec()  # "cmd:java -cp ~/.cache/utf8cert/Utf8Codecs-KEY Utf8Codecs readutf"

Each program speaks utf8cert-protocol 1 (harness/PROTOCOL.md) and offers only the capabilities
the codec it wraps has. The sources (node_codecs.js, Utf8Codecs.java, rust_codecs.rs, and those
of Go, Ruby, PHP, Perl, Lua and Tcl that scripting.py lists) ship in this package; Java, Rust and
Go are compiled on first use (runtimes.py). The C libraries' functions (GLib, libunistring,
utf8proc, ICU4C, PCRE2, expat, libxml2) are a program per library (c_glib.c, ..., sharing
c_protocol.h) speaking version 2, built with gcc on first use (c_libraries.py).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from types import MappingProxyType

from utf8cert.harness.codec.reading import BYTES, InputModel
from utf8cert.harness.codec.strings import StringModel
from utf8cert.harness.world.programs.c_libraries import C_PROGRAMS, C_STRING_APIS
from utf8cert.harness.world.programs.runtimes import JAVA, NODE, RUST, ProgramError, Runtime
from utf8cert.harness.world.programs.scripting import SCRIPTED

__all__ = ["PROGRAMS", "Program", "ProgramError"]


@dataclass(frozen=True)
class Program:
    """One shipped program: a runtime's codec, in one mode of that runtime's source file."""

    name: str
    description: str
    runtime: Runtime
    mode: str
    reads: InputModel = BYTES
    """What the API it wraps reads (codec/reading.py): "c-string" when it stops at a NUL."""

    @property
    def strings(self) -> StringModel:
        """Return what the runtime's strings hold: UTF-16 in JavaScript and Java (each program
        declares it in its handshake too), code points elsewhere."""
        return self.runtime.strings

    def version(self) -> str:
        """Return the runtime's version line (e.g. 'v20.20.2'), or 'unknown'."""
        return self.runtime.version()

    def unavailable(self) -> str | None:
        """Return None when the program can run here, else why not (e.g. 'node not found on
        PATH'), without building anything."""
        return self.runtime.unavailable()

    def spec(self) -> str:
        """Return the `cmd:` spec that runs the program, building it first if needed; raise
        ProgramError (one line) when it cannot be built or its runtime is missing."""
        return "cmd:" + shlex.join(self.runtime.command(self.mode))


_ALL = (
    Program(
        "node-textdecoder",
        "Node.js: new TextDecoder() (U+FFFD replacement; drops a leading signature)",
        NODE,
        "textdecoder",
    ),
    Program(
        "node-textdecoder-fatal",
        "Node.js: TextDecoder with fatal: true, one-shot and streaming ({stream: true})",
        NODE,
        "textdecoder-fatal",
    ),
    Program(
        "node-textdecoder-ignorebom",
        "Node.js: TextDecoder with ignoreBOM: true, strict (fatal) and replacing",
        NODE,
        "textdecoder-ignorebom",
    ),
    Program(
        "node-textdecoder-stream",
        "Node.js: the default (replacing) TextDecoder fed in chunks with {stream: true}",
        NODE,
        "textdecoder-stream",
    ),
    Program(
        "node-buffer",
        'Node.js: Buffer: buf.toString("utf8"), buffer.isUtf8, Buffer.from(string, "utf8")',
        NODE,
        "buffer",
    ),
    Program(
        "node-string-decoder",
        "Node.js: string_decoder's StringDecoder (write, then end)",
        NODE,
        "string-decoder",
    ),
    Program("node-textencoder", "Node.js: TextEncoder.encode", NODE, "textencoder"),
    Program(
        "java-new-string",
        "Java: new String(bytes, UTF_8), a replacing decoder (judged as replace: it never refuses)",
        JAVA,
        "new-string",
    ),
    Program(
        "java-charsetdecoder-report",
        "Java: CharsetDecoder with CodingErrorAction.REPORT, one-shot and streaming",
        JAVA,
        "charsetdecoder-report",
    ),
    Program(
        "java-charsetdecoder-replace",
        "Java: CharsetDecoder with CodingErrorAction.REPLACE, one-shot and streaming",
        JAVA,
        "charsetdecoder-replace",
    ),
    Program(
        "java-readutf",
        "Java: DataInputStream.readUTF (modified UTF-8) on the bytes after their length",
        JAVA,
        "readutf",
    ),
    Program("java-getbytes", "Java: String.getBytes(UTF_8)", JAVA, "getbytes"),
    Program(
        "rust-from-utf8",
        "Rust: String::from_utf8 (refused at valid_up_to) and str::from_utf8 as a validator",
        RUST,
        "from-utf8",
    ),
    Program("rust-from-utf8-lossy", "Rust: String::from_utf8_lossy", RUST, "from-utf8-lossy"),
)

_ALL += import_module(f"{__package__}.libraries").MORE  # npm, Java's and Rust's encoders
_SCRIPTED = tuple(Program(*entry) for entry in SCRIPTED)  # Go, Ruby, PHP, Perl, Lua, Tcl
_SCRIPTED += import_module(f"{__package__}.more_languages").MORE_LANGUAGES  # C++, Erlang
_C = tuple(
    Program(name, description, library, name, "c-string" if name in C_STRING_APIS else BYTES)
    for library, name, description in C_PROGRAMS
)

PROGRAMS: Mapping[str, Program] = MappingProxyType(
    {program.name: program for program in _ALL + _SCRIPTED + _C}
)
"""Every shipped program by name: Node.js, Java, Rust, the libraries of libraries.py, those of
scripting.py and more_languages.py (C++, Erlang), then the C libraries."""
