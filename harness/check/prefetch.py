"""A vector's questions asked all at once: what the check will ask of one vector, in the order it
asks, sent together to a codec that can take them so (a program speaking protocol version 2 has
many in flight), then handed back one by one as the check asks them.

The check itself stays a loop of single questions (compare.py asks and judges each in turn), so
the prefetch is only a faster way to the same answers:

- once a question fails (a crash, a hang, a memory or protocol failure), the rest of its
  capability on the vector, which the circuit breaker skips (breaker.py), is never sent; the
  other capabilities' questions are, to a fresh program;
- a question asked that was not foreseen, or asked in another order, is asked of the codec
  then; a foreseen question the check skips is dropped.

A codec in this process gains nothing from it and is asked directly.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from utf8cert.harness.check.breaker import trips
from utf8cert.harness.check.compare import chunkings
from utf8cert.harness.check.interrupt import Stop
from utf8cert.harness.check.variants import Plan, decode_variants, encode_variants
from utf8cert.harness.codec.interface import Capability, Codec, Outcome
from utf8cert.harness.codec.protocol import AskingCodec, Request, outcome_of
from utf8cert.harness.vectors.model import EncodeVector, Vector


def planned(vector: Vector, capabilities: Sequence[Capability], plan: Plan) -> list[Request]:
    """Return the requests `check_vector` puts to a codec for one vector, in its order: each
    variant on each capability, an incremental decoder every chunking with and without a final
    empty chunk ([] when no capability applies)."""
    if isinstance(vector, EncodeVector):
        if "encode" not in capabilities:
            return []
        return [Request("encode", scalars=e.scalars) for _, e in encode_variants(vector, plan)]
    requests = []
    for variant in decode_variants(vector, plan):
        expected = variant.expected
        for capability in capabilities:
            if capability != "incremental":
                requests.append(Request(capability, data=expected.data))
                continue
            for _, chunks in chunkings(expected, variant.cuts, variant.bytewise):
                for final_empty in (False, True):
                    requests.append(
                        Request(capability, chunks=tuple(chunks), final_empty=final_empty)
                    )
    return requests


Answers = list[tuple[Request, Outcome]]
"""Requests asked ahead and their answers, in order."""


def asked_ahead(
    ask_until_failure: Callable[[Sequence[Request]], list[Outcome]], requests: Sequence[Request]
) -> Answers:
    """Return each request asked and its answer, in order: every one of `requests` except those
    the circuit breaker would skip, the rest of a capability once it failed ([] for none).

    `ask_until_failure` asks requests at once and answers them up to the first that fails
    (isolate.ProcessCodec); asking goes on after it with the other capabilities' requests."""
    asked: Answers = []
    rest = list(requests)
    while rest:
        answers = ask_until_failure(rest)
        asked += zip(rest, answers, strict=False)
        if len(answers) == len(rest) or not answers:
            break
        failed = rest[len(answers) - 1].capability
        rest = [request for request in rest[len(answers) :] if request.capability != failed]
    return asked


def prefetched(
    codec: Codec,
    vector: Vector,
    capabilities: Sequence[Capability],
    plan: Plan,
    stop: Stop | None = None,
) -> Codec:
    """Return `codec` with the answers to the questions one vector puts to it asked at once,
    when it can take them so (a codec with `ask_until_failure`: isolate.ProcessCodec); else
    `codec` itself. While they are asked, a signal to `stop` raises Interrupted at once, as
    it does while the check asks one question (breaker.py)."""
    ask = getattr(codec, "ask_until_failure", None)
    if not callable(ask):
        return codec
    requests = planned(vector, capabilities, plan)
    if not requests:
        return codec
    with (Stop() if stop is None else stop).interruptible():
        answers = asked_ahead(ask, requests)
    return Prefetched(codec, answers)


class Prefetched(AskingCodec):
    """A codec whose answers to some requests were asked ahead; every other answer is asked."""

    def __init__(self, codec: Codec, answers: Answers) -> None:
        self.codec = codec
        self.spec, self.description = codec.spec, codec.description
        self.capabilities = codec.capabilities
        self.ahead = deque(answers)
        """The requests asked ahead and their answers, in the order the check asks them."""
        self.tripped = any(trips(outcome) for _, outcome in answers)
        """Whether the codec crashed or hung on one of them (or failed so otherwise)."""

    def ask(self, request: Request) -> Outcome:
        """Return the answer asked ahead to `request`, dropping the ones asked ahead before it
        that the check skipped; or, when it was not asked ahead, the codec's answer now (the
        answers asked ahead kept: a question the judge adds, late_refusal.py's or
        signature.py's, comes between two foreseen ones)."""
        if self.ahead and self.ahead[0][0] == request:  # the usual case: the next foreseen
            return self.ahead.popleft()[1]
        if all(asked != request for asked, _ in self.ahead):
            return outcome_of(self.codec, request)
        while self.ahead:
            asked, outcome = self.ahead.popleft()
            if asked == request:
                return outcome
        return outcome_of(self.codec, request)

    def close(self) -> None:
        """Release the codec."""
        self.codec.close()
