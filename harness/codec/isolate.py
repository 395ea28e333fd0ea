"""A codec under test in a child process, asked over the line protocol with a time limit per
request.

Used for every `cmd:` codec and for Python codecs under `--isolate`. A request that gets no answer
in time (pace.py) is `Failed('timeout')`; a program that dies is `Failed('crash')`, or
`Failed('memory')` when it failed an allocation under its memory limit; output that answers no
request is `Failed('protocol')` (matching.py). Each time, the program is killed and a fresh one
started for the next request, so one bad input never spoils the next. Programs are started by
children.py: their own process group, a memory limit, death with utf8cert.
"""

from __future__ import annotations

import copy
import os
import sys
import time
import weakref
from collections.abc import Sequence

from utf8cert.harness.codec import children
from utf8cert.harness.codec.channel import Channel, Ended, Overlong, describe_status
from utf8cert.harness.codec.interface import Capability, Failed, FailureKind, Outcome
from utf8cert.harness.codec.matching import Batch
from utf8cert.harness.codec.pace import Pace
from utf8cert.harness.codec.protocol import AskingCodec, ProtocolError, Request, read_handshake

SERVER_MODULE = "utf8cert.harness.codec.serve"
EXIT_GRACE = 5.0
"""Seconds at most a program that closed its output gets to exit, so its status can be told."""
HISTORY = 256
"""How many recent requests are remembered by id, to name the one a late line belongs to."""


class StartError(Exception):
    """The program could not be started or did not complete the handshake; says why in one line."""


class ProcessCodec(AskingCodec):
    """A codec under test that is a program speaking the line protocol on stdin/stdout."""

    def __init__(
        self,
        spec: str,
        argv: Sequence[str],
        *,
        timeout: float,
        description: str,
        env: dict[str, str] | None = None,
        memory_mb: int | None = children.DEFAULT_MEMORY_MB,
    ) -> None:
        """Start the program and read its handshake; raise StartError if either fails.

        `timeout` is the most seconds a request may take (pace.py: usually much less), and the
        time the program has to greet; `memory_mb` the memory it may allocate (None: no limit).
        """
        self.spec = spec
        self.description = description
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.pace = Pace(timeout)
        self.version = 1
        self.capabilities: frozenset[Capability] = frozenset()
        self.distrusted = False
        """Whether the program has broken the protocol (it is then watched for a second line
        after each answer: matching.py)."""
        self.abandoned = False
        """Whether the run no longer wants answers (abandon): no program is started again."""
        self.recent: dict[int, str] = {}
        """The last HISTORY request lines by id (version 2), to name what a late line answers."""
        self._argv = list(argv)
        self._env = env
        self._ids = 0
        self._channel: Channel | None = None
        self._finalizer: weakref.finalize[[], ProcessCodec] | None = None
        self._channel = self._start()

    def _start(self) -> Channel:
        try:
            channel = Channel(children.spawn(self._argv, self._env, self.memory_mb))
        except OSError as error:
            reason = error.strerror or str(error)
            raise StartError(f"cannot start {self._argv[0]!r}: {reason}") from None
        self._finalizer = weakref.finalize(self, channel.close)
        try:
            # One line: anything after it answers no request, and the first request says so.
            lines = channel.lines(time.monotonic() + self.timeout, first_only=True)
            if not lines:
                raise StartError(f"no handshake within {self.timeout:g} s")
            handshake = read_handshake(lines[0])
        except Ended:
            raise StartError(self._death(channel, " before the handshake")[1]) from None
        except (ProtocolError, Overlong) as error:
            self._close(channel)
            raise StartError(str(error) if str(error) else "an endless handshake line") from None
        except StartError:
            self._close(channel)
            raise
        if not self.capabilities:  # the first start
            self.capabilities, self.version = handshake.capabilities, handshake.version
        elif (handshake.capabilities, handshake.version) != (self.capabilities, self.version):
            self._close(channel)
            raise StartError("the restarted program announces another version or capabilities")
        return channel

    def channel(self) -> Channel:
        """Return the running program's pipes, starting a fresh program if there is none;
        StartError if it cannot be started, or once the codec is abandoned."""
        if self._channel is None:
            if self.abandoned:
                raise StartError("abandoned: the run has stopped")
            self._channel = self._start()
            if self.abandoned:  # while it started: it never answers
                self.discard()
                raise StartError("abandoned: the run has stopped")
        return self._channel

    def twin(self) -> ProcessCodec:
        """Return another instance of this program, not started yet: it starts on its first
        request, from the thread that asks it, must announce the same capabilities and protocol
        version, and shares this codec's pace (what one learns of the codec's speed, both do)."""
        twin = copy.copy(self)
        twin.recent, twin._ids = {}, 0
        twin._channel = twin._finalizer = None
        twin.abandoned = False
        return twin

    def abandon(self) -> None:
        """Kill the running program, from any thread, and start no other: each request of the
        thread that asks the codec then fails at once (a run that stops does so)."""
        self.abandoned = True
        channel = self._channel
        if channel is not None:
            children.kill_group(channel.process)

    def running(self) -> Channel | None:
        """Return the running program's pipes, or None when there is no program running."""
        return self._channel

    def next_id(self, line: str) -> int:
        """Return a fresh request id (never reused by this codec), remembering its line."""
        self._ids += 1
        self.recent[self._ids] = line
        if len(self.recent) > HISTORY:
            del self.recent[next(iter(self.recent))]
        return self._ids

    def discard(self) -> None:
        """Kill the running program (its answers can no longer be trusted)."""
        if self._channel is not None:
            self._close(self._channel)

    def _close(self, channel: Channel) -> None:
        if self._finalizer is not None:
            self._finalizer.detach()
        channel.close()
        if channel is self._channel:
            self._channel = None

    def death(self) -> tuple[FailureKind, str]:
        """Return the failure the running program, which closed its output, stands for: a crash
        (its status or signal and the last line of its stderr), or `memory` when it failed an
        allocation. It is stopped, and killed if it has not exited within the grace time."""
        assert self._channel is not None
        return self._death(self._channel, "")

    def _death(self, channel: Channel, when: str) -> tuple[FailureKind, str]:
        status = channel.ending(min(EXIT_GRACE, self.pace.allowed(0)))
        tail = channel.stderr_tail()
        self._close(channel)
        lines = [line.strip() for line in tail.split("\n") if line.strip()]
        last = f"; its stderr ends: {lines[-1]}" if lines else ""
        ended = f"the program {describe_status(status)}{when}"
        said = children.out_of_memory(tail, status)
        if said is not None:
            said = "" if lines and said == lines[-1] else f"; its stderr says: {said}"
            limit = f" (memory limit {self.memory_mb} MiB)" if self.memory_mb else ""
            return "memory", f"{ended}{last}{said}{limit}"
        return "crash", f"{ended}{last}"

    def ask_all(self, requests: Sequence[Request]) -> list[Outcome]:
        """Return the program's answer to each request, in order; the requests are pipelined
        (several in flight) when the program speaks version 2, asked one by one otherwise."""
        return Batch(self, requests).run()

    def ask_until_failure(self, requests: Sequence[Request]) -> list[Outcome]:
        """Return the program's answers to the requests, in order, pipelined as `ask_all`,
        up to the first that failed (crash, timeout, memory, protocol), that one included: the
        rest are not asked, so that a caller may skip what a failure makes pointless."""
        return Batch(self, requests).run_until_failure()

    def ask(self, request: Request) -> Outcome:
        """Return the program's answer to one request."""
        return Batch(self, [request]).run()[0]

    def close(self) -> None:
        """Stop the program (it is also stopped when the codec is garbage or Python exits)."""
        self.discard()


def failed_start(error: StartError) -> Failed:
    """Return the failure of a request that found no program to ask."""
    return Failed("crash", f"cannot restart the program: {error}")


def child_environment() -> dict[str, str]:
    """Return this environment with PYTHONPATH set to this process's sys.path, so that a child
    Python imports a codec's module from the same place."""
    try:
        here = os.getcwd()
    except OSError:  # the working directory was deleted: it holds no module any more
        here = None
    path = [entry or here for entry in sys.path if isinstance(entry, str)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(entry for entry in path if entry)}


def isolated_codec(
    spec: str,
    description: str,
    *,
    timeout: float,
    memory_mb: int | None = children.DEFAULT_MEMORY_MB,
) -> ProcessCodec:
    """Return the Python codec `spec`, served in a child by `python -m` SERVER_MODULE."""
    argv = [sys.executable, "-m", SERVER_MODULE, spec]
    limit = f", {memory_mb} MiB" if memory_mb else ""
    described = f"{description}, in a child process (at most {timeout:g} s a call{limit})"
    return ProcessCodec(
        spec,
        argv,
        timeout=timeout,
        description=described,
        env=child_environment(),
        memory_mb=memory_mb,
    )
