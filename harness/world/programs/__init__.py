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

from collections.abc import Mapping
from types import MappingProxyType

from utf8cert.harness.codec.reading import BYTES
from utf8cert.harness.world.programs.c_libraries import C_PROGRAMS, C_STRING_APIS
from utf8cert.harness.world.programs.jvm_libraries import JVM_PROGRAMS
from utf8cert.harness.world.programs.libraries import MORE, NpmProgram
from utf8cert.harness.world.programs.more_languages import MORE_LANGUAGES
from utf8cert.harness.world.programs.program import Program
from utf8cert.harness.world.programs.runtimes import JAVA, NODE, RUST, ProgramError
from utf8cert.harness.world.programs.scripting import SCRIPTED

__all__ = ["PROGRAMS", "Program", "ProgramError"]


_ALL: tuple[Program | NpmProgram, ...] = (
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
    Program(
        "rust-utf8-chunks",
        "Rust: <[u8]>::utf8_chunks, U+FFFD for each invalid() (replace); none invalid (validate)",
        RUST,
        "utf8-chunks",
    ),
    Program(
        "rust-read-to-string",
        "Rust: io::Read::read_to_string over chunked input (incremental, strict; no offset)",
        RUST,
        "read-to-string",
    ),
)

_ALL += MORE  # npm, Java's and Rust's encoders
_ALL += JVM_PROGRAMS  # the JVM libraries Debian ships as jars
_SCRIPTED = tuple(Program(*entry) for entry in SCRIPTED)  # Go, Ruby, PHP, Perl, Lua, Tcl
_SCRIPTED += MORE_LANGUAGES  # C++, Erlang
_C = tuple(
    Program(name, description, library, name, "c-string" if name in C_STRING_APIS else BYTES)
    for library, name, description in C_PROGRAMS
)

PROGRAMS: Mapping[str, Program | NpmProgram] = MappingProxyType(
    {program.name: program for program in _ALL + _SCRIPTED + _C}
)
"""Every shipped program by name: Node.js, Java, Rust, the libraries of libraries.py, those of
scripting.py and more_languages.py (C++, Erlang), then the C libraries."""
