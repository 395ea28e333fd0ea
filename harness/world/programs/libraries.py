"""More programs: npm packages' UTF-8 codecs (npm_codecs.js), Java's encoders (Utf8Encoders.java)
and Rust's encoder (rust_codecs.rs, into-bytes); merged into PROGRAMS by this package.

The npm packages are pinned in package.json, next to the sources, and installed under the cache
directory (cache_root()/npm, codec/cache.py) by scripts/install-runtimes, or by the command a
missing one's `unavailable()` names.
"""

from __future__ import annotations

import json
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from utf8cert.harness.codec.cache import cache_root
from utf8cert.harness.codec.strings import StringModel
from utf8cert.harness.world.programs.program import Program
from utf8cert.harness.world.programs.runtimes import (
    JAVA,
    NODE,
    RUST,
    SOURCES,
    ProgramError,
    Runtime,
)

PINNED: Final = Path(SOURCES / "package.json")
"""The npm packages npm_codecs.js checks, with the versions it was written against."""


def npm_prefix() -> Path:
    """Return the directory whose node_modules holds the npm packages (not created here)."""
    return cache_root() / "npm"


def pinned_version(package: str) -> str:
    """Return the version package.json pins for `package`."""
    dependencies: dict[str, str] = json.loads(PINNED.read_text())["dependencies"]
    return dependencies[package]


def install_command(packages: tuple[str, ...] = ()) -> str:
    """Return the npm command that installs `packages` (all pinned ones when none) where
    npm_codecs.js looks for them."""
    named = [f"{package}@{pinned_version(package)}" for package in packages]
    words = ["npm", "install", "--prefix", str(npm_prefix()), "--omit=optional", *named]
    return shlex.join(words)


@dataclass(frozen=True)
class NpmProgram:
    """One mode of npm_codecs.js: a package's codec, run by Node.js from the npm prefix."""

    name: str
    description: str
    package: str
    mode: str
    strings: StringModel = "utf-16"

    def installed(self) -> Path:
        """Return the package.json of the installed package (it may not exist)."""
        return npm_prefix() / "node_modules" / self.package / "package.json"

    def version(self) -> str:
        """Return the installed package's version and Node.js's ('utf8 3.0.0, node v20.20.2')."""
        try:
            found = json.loads(self.installed().read_text())["version"]
        except (OSError, ValueError, KeyError):
            return "unknown"
        return f"{self.package} {found}, node {NODE.version()}"

    def unavailable(self) -> str | None:
        """Return None when node and the package are there, else why not and how to install."""
        reason = NODE.unavailable()
        if reason is not None:
            return reason
        if not self.installed().is_file():
            return (
                f"npm package {self.package} is not installed in {npm_prefix()} "
                f"(scripts/install-runtimes, or: {install_command((self.package,))})"
            )
        return None

    def spec(self) -> str:
        """Return the `cmd:` spec that runs the mode; ProgramError when it cannot run here."""
        reason = self.unavailable()
        if reason is not None:
            raise ProgramError(f"{self.name}: {reason}")
        node = shutil.which("node") or "node"
        source = SOURCES / "npm_codecs.js"
        return "cmd:" + shlex.join([node, str(source), self.mode, str(npm_prefix())])


JAVA_ENCODERS: Final = Runtime(
    JAVA.name,
    JAVA.tools,
    JAVA.version_command,
    "Utf8Encoders.java",
    build=JAVA.build,
    run=("java", "-cp", "{dir}", "Utf8Encoders"),
    strings="utf-16",
)

NPM: Final = (
    NpmProgram("npm-utf8", "npm utf8 (utf8.js): decode, encode", "utf8", "utf8"),
    NpmProgram(
        "npm-protobufjs-utf8",
        "npm @protobufjs/utf8: read (replace: it never refuses), write (encode)",
        "@protobufjs/utf8",
        "protobufjs-utf8",
    ),
    NpmProgram(
        "npm-iconv-lite",
        'npm iconv-lite, "utf8": decode (replace), getDecoder (incremental, replace), encode',
        "iconv-lite",
        "iconv-lite",
    ),
    NpmProgram(
        "npm-msgpack",
        "npm @msgpack/msgpack, a msgpack str: decode (replace: it never refuses), encode",
        "@msgpack/msgpack",
        "msgpack",
    ),
    NpmProgram(
        "npm-cbor-x",
        "npm cbor-x (pure JavaScript), a CBOR text string: decode (replace), encode",
        "cbor-x",
        "cbor-x",
    ),
    NpmProgram(
        "npm-text-encoding-utf-8",
        "npm text-encoding-utf-8: TextDecoder (decode: fatal; replace; incremental, strict), "
        "TextEncoder (encode)",
        "text-encoding-utf-8",
        "text-encoding-utf-8",
    ),
    NpmProgram(
        "npm-text-encoding",
        "npm text-encoding (polyfill): TextDecoder (decode: fatal; replace; incremental, "
        "strict), TextEncoder (encode)",
        "text-encoding",
        "text-encoding",
    ),
    NpmProgram(
        "npm-buffer",
        "npm buffer (the browser Buffer polyfill): toString('utf8') (replace), "
        "Buffer.from(string, 'utf8') (encode)",
        "buffer",
        "buffer",
    ),
    NpmProgram(
        "npm-stablelib-utf8",
        "npm @stablelib/utf8: decode, encode",
        "@stablelib/utf8",
        "stablelib-utf8",
    ),
    NpmProgram(
        "npm-utf8-encoding",
        "npm utf8-encoding: TextDecoder (decode: fatal; replace; incremental, strict), "
        "TextEncoder (encode)",
        "utf8-encoding",
        "utf8-encoding",
    ),
    NpmProgram("npm-is-utf8", "npm is-utf8: isUtf8(buffer) (validate)", "is-utf8", "is-utf8"),
    NpmProgram(
        "npm-string-decoder",
        "npm string_decoder (the userland port of Node's): StringDecoder write, then end "
        "(replace; incremental, replacing)",
        "string_decoder",
        "string-decoder",
    ),
    NpmProgram(
        "npm-msgpackr",
        "npm msgpackr, a msgpack str: unpack (replace: it never refuses), pack (encode)",
        "msgpackr",
        "msgpackr",
    ),
    NpmProgram(
        "npm-notepack",
        "npm notepack.io, a msgpack str: decode (replace: it never refuses), encode",
        "notepack.io",
        "notepack",
    ),
    NpmProgram(
        "npm-bson",
        "npm bson: BSON.deserialize of a string element, default options (decode)",
        "bson",
        "bson",
    ),
    NpmProgram(
        "npm-ws",
        "npm ws: isValidUTF8 of lib/validation.js, as its Receiver checks text frames (validate)",
        "ws",
        "ws",
    ),
    NpmProgram(
        "npm-utf-8-validate",
        "npm utf-8-validate: isValidUTF8(buffer), its prebuilt native addon (validate)",
        "utf-8-validate",
        "utf-8-validate",
    ),
    NpmProgram(
        "npm-fast-text-encoding",
        "npm fast-text-encoding (polyfill): TextDecoder (replace), TextEncoder (encode)",
        "fast-text-encoding",
        "fast-text-encoding",
    ),
)

MORE: Final[tuple[Program | NpmProgram, ...]] = (
    *NPM,
    Program(
        "java-writeutf",
        "Java: DataOutputStream.writeUTF (modified UTF-8), the bytes after its length: encode",
        JAVA_ENCODERS,
        "writeutf",
    ),
    Program(
        "java-charsetencoder-report",
        "Java: CharsetEncoder with CodingErrorAction.REPORT: encode",
        JAVA_ENCODERS,
        "charsetencoder-report",
    ),
    Program(
        "java-charsetencoder-replace",
        "Java: CharsetEncoder with CodingErrorAction.REPLACE: encode",
        JAVA_ENCODERS,
        "charsetencoder-replace",
    ),
    Program(
        "rust-into-bytes", "Rust: char::from_u32, String::into_bytes: encode", RUST, "into-bytes"
    ),
)
"""This module's programs, in the order the matrix shows them."""
