"""The runtimes the shipped programs run on (Node.js, Java, Rust), and building their sources.

A program is a source file of this package and a mode. Node.js runs it as it is; Java and Rust
compile it on first use, with the runtime's own compiler (javac, plain rustc: no build tool, no
crates), into a cache directory keyed by the hash of the source and the compiler's version:
$UTF8CERT_CACHE, else $XDG_CACHE_HOME/utf8cert, else ~/.cache/utf8cert.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from utf8cert.harness.codec.cache import cache_root
from utf8cert.harness.codec.strings import DEFAULT, StringModel

SOURCES: Final = Path(__file__).resolve().parent
"""Where the programs' sources are: this package's own directory."""
TOOL_TIMEOUT: Final = 300.0
"""Seconds allowed to a compiler (a first rustc or javac run on a loaded machine is slow)."""


class ProgramError(ValueError):
    """A program that cannot be built or run here; str() is one line saying why."""


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


@cache
def tool_version(command: tuple[str, ...]) -> str:
    """Return the first line a `--version` style command prints ('unknown' if it fails)."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    lines = (done.stdout + done.stderr).strip().splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else "unknown"


Build = Callable[[Path, Path], list[str]]
"""The compiler command that builds a source into a directory."""


@dataclass(frozen=True)
class Runtime:
    """A language runtime: the tools it needs, how to tell its version, how to build and run."""

    name: str
    tools: tuple[str, ...]
    """Executables that must be on PATH (the first one runs the program)."""
    version_command: tuple[str, ...]
    source: str
    """The file of this package holding the programs for this runtime."""
    build: Build | None = None
    """The compiler command (None: the source runs as it is)."""
    run: tuple[str, ...] = ()
    """How to run what was built, `{dir}` standing for the build directory; empty: the source
    itself is given to the first tool."""
    strings: StringModel = DEFAULT
    """What the language's strings hold (codec/strings.py): UTF-16 for JavaScript and Java."""

    def unavailable(self) -> str | None:
        """Return None when every tool is on PATH, else which one is not (one line)."""
        missing = [tool for tool in self.tools if shutil.which(tool) is None]
        return f"{missing[0]} not found on PATH" if missing else None

    def version(self) -> str:
        """Return the runtime's version line (e.g. 'v20.20.2'), or 'unknown'."""
        return tool_version(self.version_command)

    def command(self, mode: str) -> list[str]:
        """Return the command that runs the program of `mode`, building it first if needed.

        Raises ProgramError (one line) when a tool is missing or the build fails.
        """
        reason = self.unavailable()
        if reason is not None:
            raise ProgramError(f"{self.name}: {reason}")
        source = SOURCES / self.source
        if self.build is None:
            return [self.tools[0], str(source), mode]
        built = self.built(source, self.build)
        return [word.format(dir=built) for word in self.run] + [mode]

    def built(self, source: Path, build: Build) -> Path:
        """Return the build directory of `source`, compiling it there on first use.

        A build goes to a fresh directory that is renamed into place when complete, so that
        a build interrupted, or run by two processes at once, never leaves half a program.
        """
        key = hashlib.sha256(source.read_bytes() + self.version().encode()).hexdigest()[:16]
        root = cache_root()
        target = root / f"{source.stem}-{key}"
        if target.is_dir():
            return target
        try:
            root.mkdir(parents=True, exist_ok=True)
            scratch = Path(tempfile.mkdtemp(prefix=f".{source.stem}-", dir=root))
        except OSError as error:
            raise ProgramError(f"{self.name}: cannot use the cache {root}: {error}") from None
        try:
            done = subprocess.run(
                build(source, scratch), capture_output=True, text=True, timeout=TOOL_TIMEOUT
            )
            if done.returncode != 0:
                why = _last_line(done.stderr + done.stdout)
                raise ProgramError(f"{self.name}: building {source.name} failed: {why}")
            try:
                scratch.rename(target)
            except OSError:
                if not target.is_dir():  # not another process's build, finished first
                    raise
        except subprocess.TimeoutExpired:
            raise ProgramError(
                f"{self.name}: building {source.name} took over {TOOL_TIMEOUT:g} s"
            ) from None
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return target


NODE: Final = Runtime(
    "Node.js", ("node",), ("node", "--version"), "node_codecs.js", strings="utf-16"
)
JAVA: Final = Runtime(
    "Java",
    ("java", "javac"),
    ("java", "-version"),
    "Utf8Codecs.java",
    build=lambda source, into: ["javac", "-encoding", "UTF-8", "-d", str(into), str(source)],
    run=("java", "-cp", "{dir}", "Utf8Codecs"),
    strings="utf-16",
)
RUST: Final = Runtime(
    "Rust",
    ("rustc",),
    ("rustc", "--version"),
    "rust_codecs.rs",
    build=lambda source, into: [
        "rustc",
        "-O",
        "--edition",
        "2021",
        "-o",
        str(into / "rust_codecs"),
        str(source),
    ],
    run=("{dir}/rust_codecs",),
)
