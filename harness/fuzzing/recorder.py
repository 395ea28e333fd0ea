"""The codec's side of a fuzz campaign whose judge runs elsewhere: each input libFuzzer gives is
put to the codec, and the input with the codec's answers is written to the judge's pipe.

Nothing here decides anything: what a difference is, and whether there is one, is the judge's
alone (judge.py, in utf8cert's own process, which the codec cannot reach). The questions are the
ones the judge puts (screen.py, probe.py): decode, replace and validate on the input, the input
cut as `chunking` cuts it for the incremental decoder, and the code points the reference reads
in it for the encoder. The reference is asked here too, for those code points and because its
instrumented branches are the coverage that guides libFuzzer (target.py, COVERED).

The pipe is written without waiting for the judge: the kernel holds 64 KiB of frames (more on
Linux, F_SETPIPE_SZ), and only a judge that falls behind makes this process wait.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterable, Sequence
from typing import Final

from utf8cert.harness.check.probe import chunking, code_points_of
from utf8cert.harness.codec.interface import CAPABILITIES, Capability, Codec, Outcome
from utf8cert.harness.fuzzing.answers import Question, frame
from utf8cert.harness.fuzzing.campaign import INTERRUPTED
from utf8cert.harness.fuzzing.inflight import InFlight
from utf8cert.harness.fuzzing.screen import VALUE_ONLY_START, offered, reference_answer

CHANNEL_VARIABLE: Final = "UTF8CERT_FUZZ_CHANNEL"
"""The environment variable holding the number of the file descriptor to write frames to."""
PIPE_SIZE: Final = 1 << 20
"""The pipe's buffer asked of Linux: frames of about a second of executions."""
F_SETPIPE_SZ: Final = 1031


def channel_from_environment() -> int | None:
    """Return the judge's pipe's file descriptor, None when this process has no judge elsewhere
    (the variable is unset or not a number)."""
    value = os.environ.get(CHANNEL_VARIABLE, "")
    return int(value) if value.isdigit() else None


def widen(fd: int) -> None:
    """Ask Linux for a PIPE_SIZE buffer on the pipe `fd` (nothing happens where it cannot)."""
    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(fd, F_SETPIPE_SZ, PIPE_SIZE)


def encoder_question(data: bytes, guided: bool) -> Question:
    """Return the code points the judge offers the encoder for `data` (screen.reference_answer's
    `to_encode`): its text, or its U+FFFD text when ill-formed; the reference's code points
    (its walk, no more of its answer) only for input holding a sequence ill-formed for its value
    alone (ED A0..BF, F4 90..).

    CPython's codec gives the first two in C, and agrees with RFC 3629 and the maximal subpart
    practice on them; the judge still answers a frame's encode only when the question in it is
    its own (judge.RecordedCodec), so a disagreement would cost a question to the sandboxed
    child, never a verdict. `guided`: ask the reference's whole answer, for its branches'
    coverage.
    """
    if guided:
        to_encode = reference_answer(data, ("encode",)).to_encode
        assert to_encode is not None  # worked out whenever encode is asked
        return to_encode
    if VALUE_ONLY_START.search(data) is not None:
        return offered(code_points_of(data))
    return data.decode("utf-8", "replace")


def answers_of(
    codec: Codec, asked: Sequence[Capability], data: bytes, guided: bool = True
) -> tuple[list[Outcome], Question | None]:
    """Return the codec's outcome for each capability `asked` (in CAPABILITIES' order) on the
    judge's question about `data`, and the code points offered to its encoder (None if not
    asked). `guided`: the reference reads `data` (its instrumented branches are the coverage
    that guides libFuzzer where the codec has none of its own: a C library, a program)."""
    outcomes: list[Outcome] = []
    question = encoder_question(data, guided) if "encode" in asked else None
    if guided and question is None:
        reference_answer(data, asked)  # for its coverage alone
    for name in asked:
        if name == "decode":
            outcomes.append(codec.decode(data))
        elif name == "replace":
            outcomes.append(codec.decode_replace(data))
        elif name == "validate":
            outcomes.append(codec.validate(data))
        elif name == "encode":
            assert question is not None
            values = tuple(map(ord, question)) if isinstance(question, str) else question
            outcomes.append(codec.encode(values))
        else:
            _, chunks, final_empty = chunking(data)
            outcomes.append(codec.decode_chunks(chunks, final_empty))
    return outcomes, question


BATCH_BYTES: Final = 1 << 16
"""Frames are written when this many bytes of them wait: one write, and one wake-up of the
judge, for many executions (a write and a wake-up per execution cost as much CPU as judging)."""
BATCH_SECONDS: Final = 0.02
"""...or when the oldest waiting frame is this old: the judge is never far behind."""


class Recorder:
    """`TestOneInput(data)`: asks the codec the judge's questions and sends the answers.

    Frames wait in a batch (BATCH_BYTES, BATCH_SECONDS) and are written together; the batch is
    written at once at the execution that ends the campaign's -runs, and after every execution
    in its last second of -max_total_time, so that libFuzzer's own exit loses none. A process
    that dies otherwise (a crash, a signal) loses at most the batch: executions the judge never
    saw and does not count, never one it counts without judging.
    """

    def __init__(
        self,
        codec: Codec,
        fd: int,
        *,
        capabilities: Iterable[Capability] | None = None,
        inflight: InFlight | None = None,
        guided: bool = True,
        runs: int | None = None,
        seconds: int | None = None,
    ) -> None:
        wanted = codec.capabilities if capabilities is None else frozenset(capabilities)
        self.codec = codec
        self.asked = [name for name in CAPABILITIES if name in wanted & codec.capabilities]
        self.fd = fd
        self.inflight = inflight
        self.guided = guided
        """Whether the reference reads each input for its coverage (see answers_of)."""
        self.runs = runs
        self.executions = 0
        started = time.monotonic()
        self.last_second = None if seconds is None else started + seconds - 1.0
        self.batch: list[bytes] = []
        self.waiting = 0
        self.oldest = started
        widen(fd)

    def __call__(self, data: bytes) -> None:
        if self.inflight is not None:
            self.inflight.start(data)
        message = frame(data, *answers_of(self.codec, self.asked, data, self.guided))
        self.executions += 1
        if not self.batch:
            self.oldest = time.monotonic()
        self.batch.append(message)
        self.waiting += len(message)
        if self._due():
            self.flush()
        if self.inflight is not None:
            self.inflight.done()

    def _due(self) -> bool:
        """Return True when the batch must be written now (see the class)."""
        if self.waiting >= BATCH_BYTES or self.executions == self.runs:
            return True
        now = time.monotonic()
        if now - self.oldest >= BATCH_SECONDS:
            return True
        return self.last_second is not None and now >= self.last_second

    def flush(self) -> None:
        """Write every waiting frame; end the process if the judge has stopped reading."""
        view = memoryview(b"".join(self.batch))
        self.batch, self.waiting = [], 0
        try:
            while view:
                written = os.write(self.fd, view)
                view = view[written:]
        except BrokenPipeError:  # the judge has stopped reading: the campaign is ending
            os._exit(INTERRUPTED)
