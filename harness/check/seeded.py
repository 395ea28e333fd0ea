"""The seeded pass: generated combinations asked after the vectors and the sweep, the same inputs
on every run (issue 44).

The vectors hold every window of RFC 3629 §4 a codec of any construction reads, and the sweep
every scalar value and every ill-formed byte pair alone; a defect that shows only in a
combination of them (an error read wrong only when it is the second of its input, or only when
it ends on a 64-byte block's last byte after another one) passes both. The fuzzer finds such
defects, but it is not the CI gate. This pass puts a bounded number of inputs shaped like the
fuzzer's (seeded_inputs.py: several errors, errors side by side, block boundaries, long inputs)
to every capability checked, after the sweep, in one batch:

- decode, replace and validate the input as it is;
- incremental, the input cut where the fuzzer cuts it (probe.chunking), judged in the mode the
  run holds the decoder to (modes.py);
- encode, the code points the fuzzer offers for the same bytes (probe.encoder_requests: the
  input's characters, its U+FFFD-replaced text, or the values of its sequences ill-formed only
  for their value, lone surrogates among them).

The reference reads each input once (expected.py); every answer is judged by compare.py's one
definition of a difference, as a vector's is. The differences are labelled SEEDED, the variant
naming the seed and the input's number; one of up to 96 bytes reproduces with `utf8cert check
--input HEX` (which asks the same questions, and an incremental decoder at every cut), a longer
one with the whole run and its seed (reports/explain.py). The seed is fixed (SEED) unless the
run is given another (`--seed`): a CI run asks exactly what the last one asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from utf8cert.harness.check.compare import differences_of
from utf8cert.harness.check.difference import Difference, Label
from utf8cert.harness.check.expected import Expected, ExpectedEncoding, expectation_for
from utf8cert.harness.check.interrupt import Stop
from utf8cert.harness.check.late_refusal import refused_late
from utf8cert.harness.check.modes import HeldMode
from utf8cert.harness.check.probe import chunking, describe_chunks, encoder_requests
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.seeded_inputs import INPUTS, SEED, seeded_inputs
from utf8cert.harness.check.sweep import until_failure
from utf8cert.harness.codec.interface import Capability, Codec, Outcome
from utf8cert.harness.codec.protocol import Request

SEEDED: Final = "seeded"
"""The vector id of the seeded pass's differences (no vector of the suite has it)."""
ONE_SHOT: Final[tuple[Capability, ...]] = ("decode", "replace", "validate")


@dataclass(frozen=True)
class SeededPass:
    """What the seeded pass asked: its seed, its inputs, and the questions answered (up to a
    program's first failure)."""

    seed: int
    inputs: int
    questions: int

    def describe(self) -> str:
        """Return '384 inputs, seed 3629, asked (1,944 questions)'."""
        return f"{self.inputs:,} inputs, seed {self.seed}, asked ({self.questions:,} questions)"


Judge = Callable[[Outcome], list[Difference]]
"""How one answer is judged: the differences it makes ([] for a right one)."""


def _jobs(
    codec: Codec,
    expected: Expected,
    label: Label,
    capabilities: Sequence[Capability],
    profile: Profile,
    held: HeldMode,
) -> list[tuple[Request, Judge]]:
    """Return the questions of one input on the `capabilities` checked, each with its judge."""
    data = expected.data
    vector, variant = label
    jobs: list[tuple[Request, Judge]] = []

    def one_shot(capability: Capability) -> Judge:
        return lambda answer: differences_of(expected, answer, capability, label, profile)

    for capability in ONE_SHOT:
        if capability in capabilities:
            jobs.append((Request(capability, data=data), one_shot(capability)))
    if "incremental" in capabilities:
        cuts, chunks, final_empty = chunking(data)
        where = (vector, f"{variant}, {describe_chunks(cuts, final_empty)}")

        def streamed(answer: Outcome) -> list[Difference]:
            mode = held.judging(expected.valid, answer, ", ".join(where))
            return differences_of(expected, answer, "incremental", where, profile, None, mode)

        request = Request("incremental", chunks=tuple(chunks), final_empty=final_empty)
        jobs.append((request, streamed))
    if "encode" in capabilities:
        for encoding, (_, read) in encoder_requests(expected):
            judged = _encode_judge(codec, encoding, (vector, f"{variant}, {read}"), profile)
            jobs.append((Request("encode", scalars=encoding.scalars), judged))
    return jobs


def _encode_judge(
    codec: Codec, encoding: ExpectedEncoding, label: Label, profile: Profile
) -> Judge:
    """Return the judge of an encoder's answer to `encoding`'s code points (a refusal past the
    first unencodable value named by what it wrote: late_refusal.py, as for a vector)."""

    def judge(answer: Outcome) -> list[Difference]:
        found = differences_of(encoding, answer, "encode", label, profile)
        return refused_late(codec, encoding, answer, found)

    return judge


AFTER_MARKS: Final = 3
"""Bytes after the last mark kept in a difference's window: the kind of a maximal subpart
depends on up to three bytes after it (ED A0 80: a surrogate; ED A0 41: cut short)."""


def _at_marks(difference: Difference) -> Difference:
    """Return `difference` with its window the span of its marks and AFTER_MARKS bytes after
    (itself when it has none): an input of the pass is no vector, and what a report shows of
    it, and the kind of error its behaviour is named by (behaviour.py), are the bytes at fault,
    not 800 bytes around them."""
    data = difference.input
    if not difference.marks or not isinstance(data, bytes):
        return difference
    end = min(len(data), difference.marks[-1][1] + AFTER_MARKS)
    return replace(difference, window=(difference.marks[0][0], end))


def seeded_differences(
    codec: Codec,
    capabilities: Sequence[Capability],
    profile: Profile,
    held: HeldMode,
    seed: int = SEED,
    stop: Stop | None = None,
    count: int = INPUTS,
) -> tuple[SeededPass, list[Difference]]:
    """Return what the seeded pass asked of `codec` on the `capabilities` checked and the
    differences it found ([] for a codec right on every input; none asked when no capability
    is checked); Interrupted when `stop` says so. `held` is the run's incremental mode, which
    the pass's first answer to ill-formed input settles if nothing did before."""
    inputs = seeded_inputs(seed, count)
    jobs: list[tuple[Request, Judge]] = []
    for number, data in enumerate(inputs, 1):
        label = (SEEDED, f"seed {seed}, input {number} of {len(inputs)}")
        jobs += _jobs(codec, expectation_for(data), label, capabilities, profile, held)
    requests = [request for request, _ in jobs]
    if stop is not None:
        with stop.interruptible():
            answers = until_failure(codec, requests)
    else:
        answers = until_failure(codec, requests)
    differences: list[Difference] = []
    for (_, judged), answer in zip(jobs, answers, strict=False):
        differences += [_at_marks(d) for d in judged(answer) if not d.allowed_by]
    return SeededPass(seed, len(inputs) if requests else 0, len(answers)), differences
