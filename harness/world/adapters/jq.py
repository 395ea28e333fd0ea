"""jq, the command-line JSON processor, checked on a payload held in a JSON string.

jq reads a stream of JSON texts and never refuses ill-formed UTF-8 in a string: it replaces it
(replace). One jq runs for the codec's life, `jq -c --unbuffered explode`, given one document a
line and answering each with the code points of its string; a document jq cannot parse ends it
(its message is the refusal), and the next question starts another.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import IO

from utf8cert.harness.codec.wrappers import JSON_STRING, nowhere, wrapped_decoder

MISSING = "jq not found on PATH (apt-get install jq)"


class JqError(ValueError):
    """jq could not parse the document (its message)."""


def jq_version() -> str:
    """Return jq's version ('jq 1.6'); OSError when jq is not installed."""
    path = shutil.which("jq")
    if path is None:
        raise OSError(MISSING)
    done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    return done.stdout.strip().replace("jq-", "jq ", 1) or "jq (version unknown)"


class Jq:
    """jq's string decoding (replace), one long-running jq asked a document at a time."""

    def __init__(self) -> None:
        path = shutil.which("jq")
        if path is None:
            raise OSError(MISSING)
        self.command = [path, "-c", "--unbuffered", "explode"]
        self.process: subprocess.Popen[bytes] | None = None
        self.decode_replace = wrapped_decoder(JSON_STRING, self.explode, (JqError,), nowhere)

    def _pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        """Return jq's stdin and stdout, starting jq when none runs."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        assert self.process.stdin is not None and self.process.stdout is not None
        return self.process.stdin, self.process.stdout

    def explode(self, document: bytes) -> str:
        """Return the string of a JSON document as jq reads it; JqError (its message) when jq
        could not parse it (jq then ends)."""
        given, answer = self._pipes()
        given.write(document + b"\n")
        given.flush()
        line = answer.readline()
        if not line:
            assert self.process is not None and self.process.stderr is not None
            message = self.process.stderr.read().decode("utf-8", "replace").strip()
            self.process.wait()
            self.process = None
            raise JqError(message or "jq ended without an answer")
        return "".join(map(chr, json.loads(line)))

    def close(self) -> None:
        """Stop jq."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
