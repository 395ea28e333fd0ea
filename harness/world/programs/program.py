"""A shipped program: one mode of a runtime's codec source, run as a `cmd:` spec.

Its own module, so that the files that list programs (libraries.py, more_languages.py) and the
package that gathers them into PROGRAMS import it without importing one another.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from utf8cert.harness.codec.reading import BYTES, InputModel
from utf8cert.harness.codec.strings import StringModel
from utf8cert.harness.world.programs.runtimes import Runtime


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
