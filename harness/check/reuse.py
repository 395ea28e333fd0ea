"""A codec judged over its life: a decoder asked again after each event that changes its state,
and one-shot answers asked after different predecessors.

Real decoders are made once and fed stream after stream (a `TextDecoder`, a Python incremental
decoder, a parser's decoder object), and one-shot functions keep buffers and caches between
calls. The run asks every question of a fresh decoder; this module asks a few short inputs
(PROBES) again of a decoder used before:

- the incremental decoder, the same object, after each EVENT: an error, the end of a stream, a
  leading BOM, a sequence held at a chunk's end then reset(), a sequence cut short by the end of
  a stream; the answer must be what a fresh decoder gives. Where a standard says how a decoder
  is reused, that is the rule: WHATWG's `decode()` without `stream` starts a new stream, so a
  stream that ended (its call with final=True made) leaves the decoder as new, BOM state
  included. Where it is silent (Python's `codecs` after an exception: the documentation says
  nothing of a decoder's state once `decode` raised, and CPython's keeps the bytes it held),
  the check holds `reset()` as the way back: after a stream that raised, it calls reset() and
  asks then; it never asks a decoder that raised without a reset() first.
- each one-shot capability, after a predecessor that is refused (a sequence the input ends
  inside), ill-formed, or well-formed: the answers must not depend on which came before.

An answer that differs is judged as any answer is (judge.py, against the reference's
expectation of the probe, computed once per run: `expectation_for`), so it is graded by what it
is (accepting ill-formed input, dropping well-formed text: `must`), and named as a reuse
behaviour ('goes wrong on a decoder used before', the event as its detail). An answer that
differs but is allowed (a signature kept once, stripped once) is `may`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from utf8cert.harness.check.compare import differences_of
from utf8cert.harness.check.describe import describe_outcome
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import Expected, expectation_for
from utf8cert.harness.check.interrupt import Stop
from utf8cert.harness.check.modes import HeldMode
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.codec.interface import (
    Capability,
    Codec,
    Earlier,
    Failed,
    Inapplicable,
    Outcome,
    Refused,
)
from utf8cert.harness.codec.protocol import Request, outcomes_of

REUSE: Final = "goes wrong on a decoder used before"
"""The behaviour of every reuse difference (behaviour.py), its detail the event."""
REUSED: Final = "reused "
"""How a reuse difference's variant begins: 'reused after an error: ...'."""
VECTOR: Final = "reuse"
"""The vector id of a reuse difference: its input is a probe, not a vector's."""
BOM: Final = b"\xef\xbb\xbf"

PROBES: Final[tuple[tuple[bytes, ...], ...]] = (
    (BOM + b"A",),
    (b"\xef", b"\xbb\xbfA"),  # a BOM split across chunks
    (b"\xacB",),  # a lone continuation byte: after a held lead, it would complete it
    (b"\xe2", b"\x82\xacB"),  # a sequence held across chunks
    (b"A\xff",),  # an error: after an earlier one, the second error of a stream
)
"""The streams asked of a decoder used before, each also asked of a fresh one."""

ONE_SHOT_PROBES: Final = (b"\xacB", BOM + b"A", b"A\xff", b"\xe2\x82\xac")
"""The inputs each one-shot capability is asked after each predecessor."""
PREDECESSORS: Final = (
    ("a well-formed input", BOM + b"A\xe2\x82\xac"),  # first: the answer the others must give
    ("a refusal", b"A\xe2\x82"),  # a sequence the input ends inside: its tail must not stay
    ("ill-formed input", b"\xf0\x9f"),
)


def one_shot_sizes() -> list[int]:
    """Return the size in bytes of each question a one-shot capability is asked after the run,
    in order (schedule.workload counts them): each predecessor, then the probe, per probe."""
    return [
        len(asked)
        for data in ONE_SHOT_PROBES
        for _, before in PREDECESSORS
        for asked in (before, data)
    ]


@dataclass(frozen=True)
class Event:
    """What a decoder went through before it is asked again."""

    name: str
    earlier: Earlier


def events(mode: str | None) -> tuple[Event, ...]:
    """Return the events an incremental decoder is asked again after, for its held `mode`: a
    stream that raises (strict, or not settled) is followed by reset() (see the module), one
    that replaces is not."""
    raises = mode != "replace"
    error = Earlier((BOM + b"A\xe2", b"\x82\xff"), True, raises)
    cut_short = Earlier((b"A", b"\xe2\x82"), True, raises)
    held = Earlier((BOM + b"A\xe2\x82",), ended=False, reset=True)
    return (
        Event("after an error" if raises else "after a replacement", error),
        Event("after the end of a stream", Earlier((b"A\xe2\x82", b"\xacB"))),
        Event("after a leading BOM", Earlier((BOM + b"A",))),
        Event("after reset() of a stream holding a sequence", held),
        Event("after a sequence cut short by the end of a stream", cut_short),
    )


def _hex(chunks: Sequence[bytes]) -> str:
    return " | ".join(chunk.hex(" ").upper() or "(empty)" for chunk in chunks)


def _fed(earlier: Earlier) -> str:
    ended = ", final" if earlier.ended else ", left open"
    return f"fed {_hex(earlier.chunks)}{ended}{', reset()' if earlier.reset else ''}"


def _same(one: Outcome, other: Outcome) -> bool:
    """Return True when two answers are one: refusals by their offsets alone (recheck.py)."""
    if type(one) is Refused and type(other) is Refused:
        return one.offset == other.offset
    return one == other


def reusable(codec: Codec) -> str:
    """Return '' when `codec`'s incremental decoder can be asked again, else why not."""
    if "incremental" not in codec.capabilities:
        return "no incremental decoder"
    if getattr(codec, "reuse", False):
        return ""
    return "its incremental decoder cannot be asked again (a program: no reuse=yes handshake)"


class Asked:
    """What the reuse questions found: the differences, and the questions asked."""

    def __init__(self) -> None:
        self.differences: list[Difference] = []
        self.questions = 0
        self.not_asked = ""
        """Why the incremental decoder was not asked again ('' when it was)."""


def reuse_differences(
    codec: Codec,
    profile: Profile,
    held: HeldMode,
    capabilities: Sequence[Capability],
    stop: Stop | None = None,
) -> Asked:
    """Return the reuse differences of `codec` on the `capabilities` checked ([] of them when
    every answer was a fresh decoder's); Interrupted when `stop` says so."""
    asked = Asked()
    # Each probe is an input of its own, read by the reference once however often it is asked.
    inputs = {b"".join(chunks) for chunks in PROBES} | set(ONE_SHOT_PROBES)
    read = {data: expectation_for(data) for data in inputs}
    expected = {chunks: read[b"".join(chunks)] for chunks in PROBES}
    expected.update({(data,): read[data] for data in ONE_SHOT_PROBES})
    requests: list[Request] = []
    judges: list[Callable[[list[Outcome]], list[Difference]]] = []

    def ask(batch: list[Request], judge: Callable[[list[Outcome]], list[Difference]]) -> None:
        start = len(requests)
        requests.extend(batch)
        judges.append(lambda answers: judge(answers[start : start + len(batch)]))

    for capability in ("decode", "replace", "validate"):
        if capability in capabilities:
            for data in ONE_SHOT_PROBES:
                batch = [
                    Request(capability, data=asked)
                    for _, before in PREDECESSORS
                    for asked in (before, data)
                ]
                ask(batch, _one_shot_judge(capability, expected[(data,)], profile))
    asked.not_asked = reusable(codec) if "incremental" in capabilities else "not checked"
    if not asked.not_asked:
        for chunks in PROBES:
            fresh = Request("incremental", chunks=chunks)
            batch = [fresh] + [replace(fresh, before=(e.earlier,)) for e in events(held.mode)]
            ask(batch, _stream_judge(expected[chunks], events(held.mode), profile, held))
    if stop is not None:
        with stop.interruptible():
            answers = outcomes_of(codec, requests)
    else:
        answers = outcomes_of(codec, requests)
    asked.questions = len(requests)
    for judge in judges:
        asked.differences += judge(answers)
    return asked


def _judged(
    expected: Expected,
    answer: Outcome,
    capability: Capability,
    profile: Profile,
    held: HeldMode | None,
) -> Difference | None:
    """Return the difference the judge finds in `answer`, None for a right one."""
    mode = None if held is None or expected.valid else held.mode
    found = differences_of(expected, answer, capability, (VECTOR, ""), profile, None, mode)
    return found[0] if found and not found[0].allowed_by else None


def _reuse_difference(
    expected: Expected,
    answer: Outcome,
    usual: Outcome,
    capability: Capability,
    profile: Profile,
    held: HeldMode | None,
    variant: str,
) -> Difference | None:
    """Return the difference an answer other than the `usual` one makes (None when it is the
    usual one, or either is no answer): the judge's, or `may` when it is allowed too."""
    if _same(answer, usual) or type(answer) is Inapplicable:
        return None
    if type(usual) in (Failed, Inapplicable):
        return None  # the run judges a fresh decoder's failure
    found = _judged(expected, answer, capability, profile, held)
    usual_words = f"; fresh: {describe_outcome(usual)}"
    if found is None:
        data = expected.data
        found = Difference(
            VECTOR,
            "",
            capability,
            "may",
            "answered otherwise than a fresh decoder",
            data,
            describe_outcome(usual),
            describe_outcome(answer),
            (0, len(data)),
        )
    return replace(found, variant=variant, actual=found.actual + usual_words)


def _stream_judge(
    expected: Expected, asked: Sequence[Event], profile: Profile, held: HeldMode
) -> Callable[[list[Outcome]], list[Difference]]:
    def judge(answers: list[Outcome]) -> list[Difference]:
        fresh, *reused = answers
        differences = []
        for event, answer in zip(asked, reused, strict=False):
            variant = f"{REUSED}{event.name} ({_fed(event.earlier)}), then fed {_hex_of(expected)}"
            found = _reuse_difference(
                expected, answer, fresh, "incremental", profile, held, variant
            )
            if found is not None:
                differences.append(found)
        return differences

    return judge


def _hex_of(expected: Expected) -> str:
    return expected.data.hex(" ").upper()


def _one_shot_judge(
    capability: Capability, expected: Expected, profile: Profile
) -> Callable[[list[Outcome]], list[Difference]]:
    def judge(answers: list[Outcome]) -> list[Difference]:
        usual = answers[1]  # after a well-formed input
        differences = []
        for (name, before), answer in zip(PREDECESSORS[1:], answers[3::2], strict=False):
            variant = (
                f"{REUSED}after {name} ({before.hex(' ').upper()}), not after {PREDECESSORS[0][0]}"
            )
            found = _reuse_difference(expected, answer, usual, capability, profile, None, variant)
            if found is not None:
                differences.append(found)
        return differences

    return judge
