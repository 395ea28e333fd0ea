"""The codec under test as one vector is checked, behind a circuit breaker: once the codec has
crashed or hung on a capability, that capability is not asked again on this vector.

A crash or a hang costs a restart of the program (and a hang the whole timeout); the other
variants and chunkings of the same vector would mostly go the same way, so asking them all
again blindly costs hours on a codec that hangs on one byte value. The first failure is kept (it
is the difference reported) and each question spared is counted as skipped in the coverage
(coverage.py), where it counts against the capability's answered share: a codec that crashes on
many vectors is never certified for the questions it was spared.

Each question also obeys the run's Stop (interrupt.py). A BaseException that is no Exception,
raised past a codec's own wrapper (a Codec object not behind PythonCodec), is judged by the codec
wing's one rule, `python_codec.crash`: a crash, a `KeyboardInterrupt` included unless a SIGINT
arrived (codec/interrupts.py: then it is the user's Ctrl-C).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

from utf8cert.harness.check.coverage import Answer, Coverage
from utf8cert.harness.check.describe import plural
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.fatal import Caller, caller
from utf8cert.harness.check.interrupt import Interrupted, Stop
from utf8cert.harness.check.modes import HeldMode
from utf8cert.harness.codec import interrupts
from utf8cert.harness.codec.interface import Capability, Codec, Failed, Inapplicable, Outcome
from utf8cert.harness.codec.raised import crash

SKIPPED: Final = Inapplicable("skipped: the codec crashed or hung on this vector already")
"""What a spared question gives the comparison: nothing asked, so no difference."""

Note = Callable[[str, Capability], str]
"""Returns, for a vector id and a capability, what a fatal error in the codec should print."""


@dataclass(frozen=True)
class Guard:
    """How a run watches the codec: the Stop every question obeys, (for an in-process codec)
    the note a fatal error prints (fatal.py), and the incremental mode it holds."""

    stop: Stop = field(default_factory=Stop)
    note: Note | None = None
    held: HeldMode | None = None
    """The incremental mode the run holds the codec to (modes.py; None: either mode)."""


def trips(outcome: Outcome) -> TypeGuard[Failed]:
    """Return True when an answer ends the asking of its capability on its vector: the codec
    crashed, hung, ran out of memory or broke the protocol (a wrong type is only wrong)."""
    return type(outcome) is Failed and outcome.kind != "wrong-type"


class Breaker:
    """A codec (the Codec protocol) that stops asking a capability once it crashed or hung."""

    def __init__(
        self,
        codec: Codec,
        vector: str,
        coverage: Coverage | None = None,
        guard: Guard | None = None,
    ) -> None:
        self.codec = codec
        self.spec, self.description = codec.spec, codec.description
        self.capabilities = codec.capabilities
        self.vector = vector
        self.coverage = coverage
        guard = Guard() if guard is None else guard
        interrupts.watch()  # so that crash() tells a codec's KeyboardInterrupt from Ctrl-C
        self.stop, self.note, self.held = guard.stop, guard.note, guard.held
        self.skipped: dict[Capability, int] = {}
        """The capabilities that crashed or hung, and how many questions each was spared."""
        self.failures: dict[Capability, Failed] = {}
        """How each of them failed."""
        self._spared: dict[Capability, Outcome] = {}
        """What a spared question gives, when not SKIPPED (see `again`)."""
        self._callers: dict[Capability, Caller] = {}

    def decode(self, data: bytes) -> Outcome:
        """Return the codec's outcome (SKIPPED once decode failed on this vector)."""
        return self._ask("decode", self.codec.decode, data)

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the codec's outcome (SKIPPED once replace failed on this vector)."""
        return self._ask("replace", self.codec.decode_replace, data)

    def validate(self, data: bytes) -> Outcome:
        """Return the codec's outcome (SKIPPED once validate failed on this vector)."""
        return self._ask("validate", self.codec.validate, data)

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return the codec's outcome (SKIPPED once encode failed on this vector)."""
        return self._ask("encode", self.codec.encode, scalars)

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the codec's outcome (SKIPPED once incremental failed on this vector)."""
        return self._ask("incremental", self.codec.decode_chunks, chunks, final_empty)

    def close(self) -> None:
        """Close the codec."""
        self.codec.close()

    def _ask(
        self, capability: Capability, call: Callable[..., Outcome], *arguments: Any
    ) -> Outcome:
        """Return the outcome of one question, asked unless the capability failed already."""
        if capability in self.skipped:
            self.skipped[capability] += 1
            spared = self._spared.get(capability, SKIPPED)
            if self.coverage is not None:
                self.coverage.record(capability, Answer.SKIPPED, self._skip_reason(capability))
            return spared
        stop = self.stop
        if stop.reason:
            raise Interrupted(stop.reason)
        stop.asking = True
        try:
            if self.note is None:
                outcome = call(*arguments)
            else:
                outcome = self._caller(capability)(call, *arguments)
        except (Exception, Interrupted):
            raise  # the harness's own errors, and a stop, are no answer of the codec
        except BaseException as error:  # what a codec not behind PythonCodec raises
            outcome = crash(error)  # the codec wing's one rule (the user's Ctrl-C goes through)
        finally:
            stop.asking = False
        if stop.reason:
            raise Interrupted(stop.reason)
        if trips(outcome):
            self.skipped[capability] = 0
            self.failures[capability] = outcome
        return outcome

    def _skip_reason(self, capability: Capability) -> str:
        """Return why a question of a tripped capability is skipped, as coverage counts it."""
        failure = self.failures.get(capability)
        if failure is not None and failure.cut_short:  # a hang elsewhere: say where
            return failure.message.removeprefix("skipped: ")
        return SKIPPED.reason.removeprefix("skipped: ")

    def again(self, codec: Codec) -> Breaker:
        """Return a Breaker that asks `codec` (uncounted) the same input again, except on the
        capabilities that failed here: those give their failure again, unasked."""
        other = Breaker(codec, self.vector, None, Guard(self.stop, self.note, self.held))
        other.skipped = dict.fromkeys(self.failures, 0)
        other._spared = dict(self.failures)
        return other

    def _caller(self, capability: Capability) -> Caller:
        """Return the function that asks the codec under this vector's and capability's note."""
        found = self._callers.get(capability)
        if found is None:
            assert self.note is not None
            found = self._callers[capability] = caller(self.note(self.vector, capability))
        return found

    def noted(self, differences: list[Difference]) -> list[Difference]:
        """Return the vector's differences, the failure that tripped each capability saying
        how many of its questions were skipped after it."""
        for capability, count in self.skipped.items():
            if not count or self.failures[capability].cut_short:  # skipped: no difference
                continue
            # Nothing of a tripped capability is judged after its failure: it is the last.
            at = next(
                (
                    i
                    for i in reversed(range(len(differences)))
                    if differences[i].capability == capability
                ),
                None,
            )
            if at is None:
                continue
            failure = differences[at]
            skipped = f"{plural(count, 'more question')} of {self.vector} on {capability} skipped"
            differences[at] = dataclasses.replace(
                failure, actual=f"{failure.actual}; {skipped}", spared=count
            )
        return differences
