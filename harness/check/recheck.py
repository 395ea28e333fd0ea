"""Questions asked again at the end of a run, in reverse order: a codec whose answer to the same
question changed has given one question two answers, a `must` difference whatever the reason.

A codec is a function of its input. One that keeps state across calls (a buffer it never
clears, a cache keyed on the wrong thing, a counter that wears out, or a cheat that answers the
first time only) can give the right answer to each question as the run asks it, and another
answer to the same question later, after other questions. So one question in EVERY (up to
LIMIT) is kept with its answer while the run asks it, and asked again once every vector is done,
in reverse order (the questions before it now come after it). Two answers that were both given
(text, bytes, a bool or a refusal) are compared, refusals by their offsets alone. A question
answered the first time that the codec fails when asked again (a crash, a hang for the whole
timeout, an exhausted memory, a wrong type, a broken protocol: what the run fails a vector for)
is that failure, `must`: a codec that leaks a resource on every call breaks after a few thousand
calls, and the run's own questions may all come before that. A question declined, or cut short
after a hang elsewhere, says nothing.

A codec that wears out after a few thousand calls would outlast a run that asks a capability
only a thousand or so times. So the kept questions of each capability on short inputs are then
asked round after round, each round in another (seeded, so repeatable) order, until the run has
asked that capability SOAK times; a codec slow on them stops the rounds after SOAK_SECONDS.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from utf8cert.harness.check.breaker import Breaker, Guard, trips
from utf8cert.harness.check.describe import describe_outcome
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.prefetch import Answers, asked_ahead
from utf8cert.harness.codec.interface import (
    FAILURE_WHAT,
    Capability,
    Codec,
    Failed,
    Outcome,
    Refused,
    Returned,
)
from utf8cert.harness.codec.protocol import Request, outcome_of

EVERY: Final = 16
"""One question in this many is kept to be asked again (about 6% more questions)."""
LIMIT: Final = 4096
"""At most this many questions are asked again."""
LARGEST_INPUT: Final = 4096
"""Questions on longer inputs are not kept (their answers would hold the run's memory)."""
SOAK: Final = 10_000
"""Each capability's kept questions are asked again until the run has asked it this many times."""
SOAK_LARGEST_INPUT: Final = 64
"""Only questions on inputs this short (bytes, or code points) are asked in the rounds: a wear-out
is a matter of calls, and a slow codec fed 4 KiB inputs 10,000 times would take minutes."""
SOAK_SECONDS: Final = 30.0
"""The rounds stop after this long: a codec that takes seconds per answer is not asked for hours."""
ROUND: Final = 512
"""Questions sent at once in the rounds (the clock is read between them)."""
T = TypeVar("T")
WHAT: Final = "two answers to one question"
VARIANT: Final = "asked again at the end of the run"


@dataclass(frozen=True)
class Kept:
    """A question kept with its first answer, and the vector it was asked on."""

    vector: str
    request: Request
    answer: Outcome

    @property
    def input(self) -> bytes | tuple[int, ...]:
        """Return the bytes decoded (all the chunks) or the code points encoded."""
        request = self.request
        if request.capability == "incremental":
            return b"".join(request.chunks)
        return request.scalars if request.capability == "encode" else request.data


def _same(again: Outcome, first: Outcome) -> bool:
    """Return True when two given answers are one: two refusals at one offset are, whatever
    their messages say (a message may name a count, a time or an address: words for people,
    not the answer)."""
    if type(again) is Refused and type(first) is Refused:
        return again.offset == first.offset
    return again == first


def _given(outcome: Outcome) -> bool:
    """Return True for an answer the codec gave: text, bytes, a bool or a refusal."""
    return type(outcome) is Returned or type(outcome) is Refused


class Recheck:
    """The questions of one run kept to be asked again, and the asking."""

    def __init__(self) -> None:
        self.kept: list[Kept] = []
        self.asked: Counter[Capability] = Counter()
        """How many questions the run asked of each capability before asking any again."""
        self.cut_short: dict[Capability, int] = {}
        """The capabilities whose rounds SOAK_SECONDS stopped short of SOAK questions, each
        with the questions asked of it in all ({} when the rounds ran their course)."""
        self._seen = 0

    def watch(self, codec: Codec, vector: str) -> Codec:
        """Return `codec`, keeping one question in EVERY of those asked of it on `vector`."""
        return _Keeping(codec, vector, self)

    def consider(
        self, vector: str, answer: Outcome, capability: Capability, **question: Any
    ) -> None:
        """Count a question just answered and keep it (`question`: the fields of its Request,
        built only for those kept) when it is the one in EVERY, its answer was given and its
        input is short."""
        self._seen += 1
        self.asked[capability] += 1
        if self._seen % EVERY or len(self.kept) >= LIMIT or not _given(answer):
            return
        kept = Kept(vector, Request(capability, **question), answer)
        if len(kept.input) <= LARGEST_INPUT:
            self.kept.append(kept)

    def again(self, codec: Codec, guard: Guard) -> list[Difference]:
        """Return a `must` difference for each kept question whose answer, asked again in
        reverse order and then in the rounds, was once another, and for the first question of
        each capability the codec failed when asked again ([] when every answer stood);
        `guard`'s Stop is obeyed. A program gets the questions a batch at once (pipelined, as
        prefetch.py asks them); a capability that failed is not asked again."""
        first = {id(each.request): each for each in self.kept}
        changed: dict[int, Outcome] = {}
        broke: dict[Capability, tuple[Request, Failed]] = {}  # the first failure of each
        failed: set[Capability] = set()
        breaker = Breaker(codec, "asked again", None, guard)
        reverse = [each.request for each in reversed(self.kept)]
        rounds = soaked(
            [each.request for each in self.kept],
            lambda request: request.capability,
            lambda request: len(first[id(request)].input),
            self.asked,
        )
        deadline, again = time.monotonic() + SOAK_SECONDS, Counter[Capability]()
        for batch in _batches(reverse, rounds):
            batch = [request for request in batch if request.capability not in failed]
            for request, answer in _asked(codec, breaker, guard, batch):
                again[request.capability] += 1
                if type(answer) is Failed and not answer.cut_short:
                    broke.setdefault(request.capability, (request, answer))
                if trips(answer):
                    failed.add(request.capability)
                elif _given(answer) and not _same(answer, first[id(request)].answer):
                    changed.setdefault(id(request), answer)  # the first other answer
            if time.monotonic() > deadline:
                waiting = {request.capability for request in rounds} - failed  # not asked
                asked = self.asked + again
                self.cut_short = {capability: asked[capability] for capability in waiting}
                break
        differences = [_difference(first[key], answer) for key, answer in changed.items()]
        for request, failure in broke.values():
            differences.append(_difference(first[id(request)], failure, FAILURE_WHAT[failure.kind]))
        return differences


def soaked(
    kept: Sequence[T],
    capability_of: Callable[[T], Capability],
    size_of: Callable[[T], int],
    asked: Counter[Capability],
) -> Iterator[T]:
    """Yield the kept questions on inputs of SOAK_LARGEST_INPUT or fewer again, a capability at
    a time, round after round, each round in another order (seeded: the same every run), until
    `asked` of the capability and its kept questions asked again in reverse order make SOAK
    (nothing when they already do, or none of its kept questions is that short)."""
    by_capability: dict[Capability, list[T]] = {}
    for each in kept:
        by_capability.setdefault(capability_of(each), [])
        if size_of(each) <= SOAK_LARGEST_INPUT:
            by_capability[capability_of(each)].append(each)
    shuffler = random.Random(SOAK)
    for capability, questions in by_capability.items():
        wanted = SOAK - asked[capability] - sum(capability_of(each) == capability for each in kept)
        while wanted > 0 and questions:
            shuffler.shuffle(questions)
            yield from questions[:wanted]
            wanted -= len(questions)


def _batches(first: list[Request], rounds: Iterator[Request]) -> Iterator[list[Request]]:
    """Yield `first` whole, then the rounds ROUND questions at a time."""
    yield first
    while batch := list(itertools.islice(rounds, ROUND)):
        yield batch


def _asked(codec: Codec, breaker: Breaker, guard: Guard, requests: list[Request]) -> Answers:
    """Return each request asked of `codec` and its answer, up to a failure of its capability:
    a program gets them at once, an in-process codec one by one through `breaker`."""
    ask = getattr(codec, "ask_until_failure", None)
    if callable(ask):
        with guard.stop.interruptible():
            return asked_ahead(ask, requests)
    return [(request, outcome_of(breaker, request)) for request in requests]


def _difference(kept: Kept, again: Outcome, what: str = WHAT) -> Difference:
    """Return the difference of a question answered two ways, or (`what`: a failure's words)
    answered once and failed when asked again."""
    data = kept.input
    return Difference(
        kept.vector,
        VARIANT,
        kept.request.capability,
        "must",
        what,
        data,
        f"the first answer again: {describe_outcome(kept.answer)}",
        describe_outcome(again),
        (0, len(data)),
    )


class _Keeping:
    """A codec whose questions are offered to a Recheck as they are answered."""

    def __init__(self, codec: Codec, vector: str, recheck: Recheck) -> None:
        self.codec, self.vector, self.recheck = codec, vector, recheck
        self.spec, self.description = codec.spec, codec.description
        self.capabilities = codec.capabilities

    def _asked(self, answer: Outcome, capability: Capability, **question: Any) -> Outcome:
        self.recheck.consider(self.vector, answer, capability, **question)
        return answer

    def decode(self, data: bytes) -> Outcome:
        """Return the codec's outcome."""
        return self._asked(self.codec.decode(data), "decode", data=data)

    def decode_replace(self, data: bytes) -> Outcome:
        """Return the codec's outcome."""
        return self._asked(self.codec.decode_replace(data), "replace", data=data)

    def validate(self, data: bytes) -> Outcome:
        """Return the codec's outcome."""
        return self._asked(self.codec.validate(data), "validate", data=data)

    def encode(self, scalars: Sequence[int]) -> Outcome:
        """Return the codec's outcome."""
        return self._asked(self.codec.encode(scalars), "encode", scalars=tuple(scalars))

    def decode_chunks(self, chunks: Sequence[bytes], final_empty: bool) -> Outcome:
        """Return the codec's outcome."""
        answer = self.codec.decode_chunks(chunks, final_empty)
        return self._asked(answer, "incremental", chunks=tuple(chunks), final_empty=final_empty)

    def close(self) -> None:
        """Close the codec."""
        self.codec.close()
