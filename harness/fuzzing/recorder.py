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
from collections.abc import Iterable, Sequence
from typing import Final

from utf8cert.harness.check.probe import chunking
from utf8cert.harness.codec.interface import CAPABILITIES, Capability, Codec, Outcome
from utf8cert.harness.fuzzing.answers import frame
from utf8cert.harness.fuzzing.campaign import INTERRUPTED
from utf8cert.harness.fuzzing.inflight import InFlight
from utf8cert.harness.fuzzing.screen import reference_answer

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


def answers_of(codec: Codec, asked: Sequence[Capability], data: bytes) -> list[Outcome]:
    """Return the codec's outcome for each capability `asked` (in CAPABILITIES' order) on the
    judge's question about `data`."""
    outcomes: list[Outcome] = []
    # Asked whatever the capabilities: its branches guide libFuzzer.
    answer = reference_answer(data, asked)
    for name in asked:
        if name == "decode":
            outcomes.append(codec.decode(data))
        elif name == "replace":
            outcomes.append(codec.decode_replace(data))
        elif name == "validate":
            outcomes.append(codec.validate(data))
        elif name == "encode":
            values = answer.to_encode
            assert values is not None  # worked out whenever encode is asked
            outcomes.append(
                codec.encode(tuple(map(ord, values)) if isinstance(values, str) else values)
            )
        else:
            _, chunks, final_empty = chunking(data)
            outcomes.append(codec.decode_chunks(chunks, final_empty))
    return outcomes


class Recorder:
    """`TestOneInput(data)`: asks the codec the judge's questions and sends the answers."""

    def __init__(
        self,
        codec: Codec,
        fd: int,
        *,
        capabilities: Iterable[Capability] | None = None,
        inflight: InFlight | None = None,
    ) -> None:
        wanted = codec.capabilities if capabilities is None else frozenset(capabilities)
        self.codec = codec
        self.asked = [name for name in CAPABILITIES if name in wanted & codec.capabilities]
        self.fd = fd
        self.inflight = inflight
        widen(fd)

    def __call__(self, data: bytes) -> None:
        if self.inflight is not None:
            self.inflight.start(data)
        message = frame(data, answers_of(self.codec, self.asked, data))
        view = memoryview(message)
        try:
            while view:
                written = os.write(self.fd, view)
                view = view[written:]
        except BrokenPipeError:  # the judge has stopped reading: the campaign is ending
            os._exit(INTERRUPTED)
        if self.inflight is not None:
            self.inflight.done()
