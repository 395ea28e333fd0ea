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
import errno
import os
import re
import sys
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Final

from utf8cert.harness.codec import children
from utf8cert.harness.codec.channel import Channel, Ended, Overlong, describe_status
from utf8cert.harness.codec.handshake import read_handshake
from utf8cert.harness.codec.interface import (
    Capability,
    Earlier,
    FailureKind,
    Inapplicable,
    IncrementalMode,
    Outcome,
)
from utf8cert.harness.codec.matching import Batch
from utf8cert.harness.codec.pace import Pace
from utf8cert.harness.codec.protocol import AskingCodec, ProtocolError, Request
from utf8cert.harness.codec.reading import BYTES, InputModel, unseen
from utf8cert.harness.codec.sandbox import SandboxError
from utf8cert.harness.codec.start_error import StartError
from utf8cert.harness.codec.strings import DEFAULT, StringModel, unholdable

TELLING: Final = re.compile(
    r"error|exception|cannot|can't|could not|not found|no such|denied|fatal|panic|abort|fail"
    r"|invalid|unable",
    re.IGNORECASE,
)
"""Words of the line in which a runtime says why a program stopped; the last line of its stderr
is often no reason: Node.js ends with its version, the JVM with a hint, Python with a blank."""


LOOK: Final = 0.5
"""Seconds between looks at a running program's memory as it is asked: what it held when a wait
began, give or take LOOK (a look reads /proc, some 40 µs: one a request would be 15,000 in a
check)."""


def _allocated(pid: int) -> int | None:
    """Return the KiB of private writable memory process `pid` holds (VmData, what the memory
    limit counts: children.LIMIT), None where it cannot be read (not Linux, or it has gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmData:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def telling_line(lines: Sequence[str]) -> str | None:
    """Return the last of `lines` (stripped, none blank) that says why the program stopped (an
    error, an exception, a file not found), None when none does. A sanitizer's SUMMARY line
    (`SUMMARY: AddressSanitizer: heap-buffer-overflow FILE:LINE in FUNCTION`) comes first: what
    follows it (`==PID==ABORTING`) says only that the program stops."""
    summary = next((line for line in reversed(lines) if line.startswith("SUMMARY: ")), None)
    return summary or next((line for line in reversed(lines) if TELLING.search(line)), None)


SERVER_MODULE = "utf8cert.harness.codec.serve"
EXIT_GRACE = 5.0
"""Seconds at most a program that closed its output gets to exit, so its status can be told."""
HISTORY = 256
"""How many recent requests are remembered by id, to name the one a late line belongs to."""


class ResourceFailure(Exception):
    """utf8cert itself ran short of a resource (file descriptors, processes, memory) to start a
    program: its own failure, reported as one line, never a difference of the codec."""


OWN_LIMITS: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.EAGAIN})
"""The errors of starting a process that are about utf8cert's resources, not the program."""


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
        self.strings: StringModel = DEFAULT
        """What the program's strings hold, as its handshake says (codec/strings.py)."""
        self.reads: InputModel = BYTES
        """What the API it wraps reads, as its adapter declares (codec/reading.py)."""
        self.incremental_mode: IncrementalMode | None = None
        """The mode its incremental decoder declares in its handshake (None: not declared)."""
        self.reuse = False
        """Whether its handshake says it answers `reuse` requests (check/reuse.py)."""
        self.restriction: str | None = None
        """The rule its handshake names for the inputs it cannot carry (codec/restrictions.py)."""
        self.distrusted = False
        """Whether the program has broken the protocol (it is then watched for a second line
        after each answer: matching.py)."""
        self.abandoned = False
        """Whether the run no longer wants answers (abandon): no program is started again."""
        self.broken = ""
        """Why the program can no longer be asked anything ('' while it can): it announced
        another handshake when restarted. Nothing is started again."""
        self.broken_reported = False
        """Whether that was reported, as a `protocol` failure of one request (matching.py)."""
        self.boundary = ""
        """The boundary the program ran behind when last started (sandbox.py), as the reports
        name it."""
        self.recent: dict[int, str] = {}
        """The last HISTORY request lines by id (version 2), to name what a late line answers."""
        self._argv = list(argv)
        self._env = env
        self._ids = 0
        self._channel: Channel | None = None
        self._allocated: int | None = None
        """The running program's private memory (KiB) when last looked at (_look)."""
        self._looked = 0.0
        """When that was (time.monotonic)."""
        self._finalizer: weakref.finalize[[], ProcessCodec] | None = None
        self._channel = self._start()

    def _start(self) -> Channel:
        try:
            channel = Channel(children.spawn(self._argv, self._env, self.memory_mb))
        except SandboxError as error:
            raise StartError(str(error)) from None
        except OSError as error:
            reason = error.strerror or str(error)
            if error.errno in OWN_LIMITS:
                raise ResourceFailure(
                    f"cannot start {self._argv[0]!r}: {reason} (utf8cert's own limit: "
                    "raise it, e.g. ulimit -n, or run fewer checks at once)"
                ) from None
            raise StartError(f"cannot start {self._argv[0]!r}: {reason}") from None
        self._finalizer = weakref.finalize(self, channel.close)
        self.boundary = children.boundary_of(channel.process)
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
        self._look(channel, time.monotonic())
        announced = (handshake.capabilities, handshake.version, handshake.strings)
        if not self.capabilities:  # the first start
            self.capabilities, self.version, self.strings = announced
            self.incremental_mode = handshake.incremental_mode
            self.reuse = handshake.reuse
            self.restriction = handshake.restriction
        elif announced != (self.capabilities, self.version, self.strings):
            self._close(channel)
            self.broken = (
                "the restarted program announces another handshake: "
                f"{_shown(*announced)}, not {_shown(self.capabilities, self.version, self.strings)}"
            )
            raise StartError(self.broken)
        return channel

    def growing(self) -> bool:
        """Return whether the running program holds more memory than when last looked at (at
        most LOOK seconds before the wait for its answer began, or the last call): it is
        allocating, on its way to an answer or to its memory limit, not hung. False when no
        program runs or its memory cannot be read (no /proc)."""
        channel = self._channel
        if channel is None:
            return False
        before = self._allocated
        now = self._look(channel, time.monotonic())
        return now is not None and before is not None and now > before

    def _look(self, channel: Channel, now: float) -> int | None:
        """Return the program's private memory now, remembered as the last look."""
        self._allocated, self._looked = _allocated(children.program_pid(channel.process)), now
        return self._allocated

    def channel(self) -> Channel:
        """Return the running program's pipes, starting a fresh program if there is none;
        StartError if it cannot be started, or once the codec is abandoned."""
        if self._channel is None:
            if self.abandoned:
                raise StartError("abandoned: the run has stopped")
            if self.broken:
                raise StartError(self.broken)
            self._channel = self._start()
            if self.abandoned:  # while it started: it never answers
                self.discard()
                raise StartError("abandoned: the run has stopped")
        now = time.monotonic()
        if now - self._looked >= LOOK:  # a wait may begin: how much memory it begins with
            self._look(self._channel, now)
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
        why = telling_line(lines)
        last += f"; its stderr says: {why}" if why is not None and why != lines[-1] else ""
        ended = f"the program {describe_status(status)}{when}"
        said = children.out_of_memory(tail, status)
        if said is not None:
            said = "" if lines and said in (lines[-1], why) else f"; its stderr says: {said}"
            limit = f" (memory limit {self.memory_mb} MiB)" if self.memory_mb else ""
            return "memory", f"{ended}{last}{said}{limit}"
        if why is not None and why.startswith("SUMMARY: "):
            # A sanitizer's report: the error and where first, as messages are cut at their end.
            return "crash", f"{why.removeprefix('SUMMARY: ')} ({ended})"
        return "crash", f"{ended}{last}"

    def ask_all(self, requests: Sequence[Request]) -> list[Outcome]:
        """Return the program's answer to each request, in order; the requests are pipelined
        (several in flight) when the program speaks version 2, asked one by one otherwise.
        A request its strings cannot hold is answered here, never sent (`unasked`)."""
        return self.unasked(requests, lambda asked: Batch(self, asked).run())

    def ask_until_failure(self, requests: Sequence[Request]) -> list[Outcome]:
        """Return the program's answers to the requests, in order, pipelined as `ask_all`,
        up to the first that failed (crash, timeout, memory, protocol), that one included: the
        rest are not asked, so that a caller may skip what a failure makes pointless."""
        return self.unasked(requests, lambda asked: Batch(self, asked).run_until_failure())

    def decode_after(
        self, earlier: Sequence[Earlier], chunks: Sequence[bytes], final_empty: bool
    ) -> Outcome:
        """Return the program's answer to a `reuse` request; Inapplicable, unasked, when its
        handshake did not announce them (PROTOCOL.md: the extension is optional)."""
        if not self.reuse:
            return Inapplicable("the program does not announce reuse=yes")
        return super().decode_after(earlier, chunks, final_empty)

    def ask(self, request: Request) -> Outcome:
        """Return the program's answer to one request (see `ask_all`)."""
        return self.unasked([request], lambda asked: Batch(self, asked).run())[0]

    def unasked(
        self, requests: Sequence[Request], ask: Callable[[list[Request]], list[Outcome]]
    ) -> list[Outcome]:
        """Return the answers to `requests`: `ask`'s to those the program's strings can hold
        and its API can read, in order, and Inapplicable (codec/strings.py, codec/reading.py)
        to the others, which are not sent; the answers stop where `ask`'s stop (a failure)."""
        if self.strings == DEFAULT and self.reads == BYTES:
            return ask(list(requests))
        here = [
            unseen(self.reads, request)
            or (
                unholdable(self.strings, request.scalars)
                if request.capability == "encode"
                else None
            )
            for request in requests
        ]
        sent = [request for request, done in zip(requests, here, strict=True) if done is None]
        answers = ask(sent) if sent else []
        stopped = len(answers) < len(sent)  # at a failure: what follows it is not answered
        taken = 0
        outcomes: list[Outcome] = []
        for done in here:
            if (done is None or stopped) and taken == len(answers):
                break
            if done is not None:
                outcomes.append(done)
            else:
                outcomes.append(answers[taken])
                taken += 1
        return outcomes

    def close(self) -> None:
        """Stop the program (it is also stopped when the codec is garbage or Python exits)."""
        self.discard()


def _shown(capabilities: frozenset[Capability], version: int, strings: str) -> str:
    """Return a handshake as the report names it: 'version 2, decode replace'."""
    words = " ".join(sorted(capabilities))
    return f"version {version}, {words}" + (f", strings={strings}" if strings != DEFAULT else "")


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
    server: str = SERVER_MODULE,
) -> ProcessCodec:
    """Return the Python codec `spec`, served in a child by `python -m` `server`: SERVER_MODULE,
    or a module whose loader knows more specs (the world wing's, which knows `adapter:NAME`)."""
    argv = [sys.executable, "-m", server, spec]
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
