"""A codec under test in a child process, asked over the line protocol with a timeout per call.

Used for every `cmd:` codec and for Python codecs under `--isolate`. A request that gets no answer
in time is `Failed('timeout')`; a program that dies, or answers outside the protocol, is
`Failed('crash')`. Either way the program is killed and a fresh one started for the next call, so
one bad input never spoils the next. The pipes are read and written without blocking (POSIX), so
a program that stops reading is caught by the same timeout.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Sequence

from utf8cert.harness.codec.interface import Capability, Failed, Inapplicable, Outcome
from utf8cert.harness.codec.protocol import (
    ProtocolError,
    Request,
    parse_answer,
    parse_handshake,
    request_line,
)

SERVER_MODULE = "utf8cert.harness.codec.serve"
EXIT_GRACE = 5.0
"""Seconds a program that closed its output gets to exit, so its status can be reported."""


class StartError(Exception):
    """The program could not be started or did not complete the handshake; says why in one line."""


class _Ended(Exception):
    """The program closed its output: it exited or died."""


class _TimedOut(Exception):
    """The program did not answer in time."""


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Kill the program and everything it started (its own session), and reap it."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            stream.close()


class _Child:
    """One running program: its pipes, the unread part of its output, and its stderr file."""

    def __init__(self, argv: Sequence[str], env: dict[str, str] | None) -> None:
        # Held for the program's lifetime, so the last line of its stderr can be reported.
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                env=env,
                start_new_session=True,  # so a kill reaches what a wrapper script started, too
            )
        except OSError as error:
            self.stderr.close()
            reason = error.strerror or str(error)
            raise StartError(f"cannot start {argv[0]!r}: {reason}") from None
        assert self.process.stdin is not None and self.process.stdout is not None
        self._input = self.process.stdin.fileno()
        self._output = self.process.stdout.fileno()
        os.set_blocking(self._input, False)
        os.set_blocking(self._output, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._output, selectors.EVENT_READ)
        self._unread = bytearray()
        self._finalizer = weakref.finalize(self, _stop, self.process)

    def exchange(self, request: bytes, timeout: float) -> str:
        """Return the next line the program writes after being sent `request` (b'': just read).

        Raises _TimedOut after `timeout` seconds without a whole line, _Ended on end of output.
        """
        deadline = time.monotonic() + timeout
        pending = memoryview(request)
        if pending:
            self._selector.register(self._input, selectors.EVENT_WRITE)
        try:
            while (newline := self._unread.find(b"\n")) < 0:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise _TimedOut
                for key, _ in self._selector.select(remaining):
                    if key.fd == self._output:
                        self._read()
                    elif pending:
                        pending = self._write(pending)
        finally:
            if self._input in self._selector.get_map():
                self._selector.unregister(self._input)
        line = bytes(self._unread[:newline]).decode("utf-8", "replace")
        del self._unread[: newline + 1]
        return line.removesuffix("\r")

    def _read(self) -> None:
        try:
            chunk = os.read(self._output, 1 << 16)
        except BlockingIOError:
            return
        if not chunk:
            raise _Ended
        self._unread += chunk

    def _write(self, pending: memoryview) -> memoryview:
        try:
            written = os.write(self._input, pending)
        except BlockingIOError:
            return pending
        except BrokenPipeError:
            raise _Ended from None
        if written == len(pending):
            self._selector.unregister(self._input)
        return pending[written:]

    def death(self, when: str = "") -> str:
        """Return how the program ended: its status or signal, and the last line of its stderr.

        The program is stopped, and killed if it has not exited within EXIT_GRACE seconds.
        """
        try:
            status = self.process.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            status = None
        self.stderr.seek(max(0, self.stderr.seek(0, os.SEEK_END) - 2000))
        lines = self.stderr.read().decode("utf-8", "replace").split("\n")
        last = next((line.strip() for line in reversed(lines) if line.strip()), "")
        self.stop()
        if status is None:
            ended = "closed its output"
        elif status < 0:
            ended = f"was killed by {signal.Signals(-status).name}"
        else:
            ended = f"exited with status {status}"
        return f"the program {ended}{when}" + (f"; its stderr ends: {last}" if last else "")

    def stop(self) -> None:
        """Kill the program if it still runs, and release its pipes and files."""
        self._finalizer()
        self._selector.close()
        self.stderr.close()


class ProcessCodec:
    """A codec under test that is a program speaking the line protocol on stdin/stdout."""

    def __init__(
        self,
        spec: str,
        argv: Sequence[str],
        *,
        timeout: float,
        description: str,
        env: dict[str, str] | None = None,
    ) -> None:
        """Start the program and read its handshake; raise StartError if either fails."""
        self.spec = spec
        self.description = description
        self.timeout = timeout
        self._argv = list(argv)
        self._env = env
        self._child: _Child | None = None
        self.capabilities: frozenset[Capability] = frozenset()
        self._child = self._start()

    def _start(self) -> _Child:
        child = _Child(self._argv, self._env)
        try:
            line = child.exchange(b"", self.timeout)
            capabilities = parse_handshake(line)
        except _TimedOut:
            child.stop()
            raise StartError(f"no handshake within {self.timeout:g} s") from None
        except _Ended:
            raise StartError(child.death(" before the handshake")) from None
        except ProtocolError as error:
            child.stop()
            raise StartError(str(error)) from None
        if not self.capabilities:  # the first start
            self.capabilities = capabilities
        elif capabilities != self.capabilities:
            child.stop()
            raise StartError("the restarted program announces other capabilities")
        return child

    def _ask(self, request: Request) -> Outcome:
        if request.capability not in self.capabilities:  # never sent: the program did not offer it
            return Inapplicable(f"{self.spec} has no {request.capability} capability")
        try:
            line = request_line(request)
        except ValueError as error:
            return Inapplicable(f"cannot be sent: {error}")
        if self._child is None:
            try:
                self._child = self._start()
            except StartError as error:
                return Failed("crash", f"cannot restart the program: {error}")
        child = self._child
        try:
            answer = child.exchange(f"{line}\n".encode("ascii"), self.timeout)
        except _TimedOut:
            child.stop()
            outcome: Outcome = Failed("timeout", f"no answer within {self.timeout:g} s")
        except _Ended:
            outcome = Failed("crash", child.death())
        else:
            try:
                return parse_answer(request.capability, answer)
            except ProtocolError as error:
                child.stop()  # out of step with the protocol: only a fresh program can be trusted
                outcome = Failed("crash", str(error))
        self._child = None
        return outcome

    def decode(self, data: bytes) -> Outcome:
        """Return the program's answer to a strict decode of `data`."""
        return self._ask(Request("decode", data=data))

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the program's answer to a U+FFFD-replacing decode of `data`."""
        return self._ask(Request("replace", data=data))

    def validate(self, data: bytes) -> Outcome:
        """Return the program's verdict on `data`."""
        return self._ask(Request("validate", data=data))

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return the program's answer to encoding `scalars`."""
        return self._ask(Request("encode", scalars=tuple(scalars)))

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the program's answer to an incremental decode of `chunks`."""
        return self._ask(Request("incremental", chunks=tuple(chunks), final_empty=final_empty))

    def close(self) -> None:
        """Stop the program (it is also stopped when the codec is garbage or Python exits)."""
        if self._child is not None:
            self._child.stop()
            self._child = None


def child_environment() -> dict[str, str]:
    """Return this environment with PYTHONPATH set to this process's sys.path, so that a child
    Python imports a codec's module from the same place."""
    path = [entry or os.getcwd() for entry in sys.path if isinstance(entry, str)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


def isolated_codec(spec: str, description: str, *, timeout: float) -> ProcessCodec:
    """Return the Python codec `spec`, served in a child by `python -m` SERVER_MODULE."""
    argv = [sys.executable, "-m", SERVER_MODULE, spec]
    described = f"{description}, in a child process ({timeout:g} s per call)"
    return ProcessCodec(spec, argv, timeout=timeout, description=described, env=child_environment())
