"""What the vectors do not enumerate, asked after them in one batch: every scalar value, and
every ordered byte pair that starts ill-formed input, alone (issue 44).

A codec of any construction reads its input through windows: a table of (previous byte, current
byte) or of their nibbles, a decoder's lead and the byte after it, an encoder's bit length. A
wrong entry shows only on an input that holds its window, and a validator, which answers one bit
an input, only on an input where that window is the **only** error. The vectors hold every such
window at the resolution of a nibble table (docs/mutation.md); this sweep holds them by value:

- every scalar value U+0000..U+10FFFF (less the surrogates) decoded, replaced, validated and
  encoded, 4,096 code points a question (PIECES: 273 inputs, U+0000 alone, 4.4 MB of UTF-8 in all);
- every ordered byte pair (b1, b2) that begins ill-formed input (b1 no sequence starts with, or
  a lead and a second byte it refuses: PAIRS, 29,632), and every byte that ends a character
  before one no sequence starts with (`29 80`: ENDINGS, 14,784), put to the validator as the
  only ill-formed run of an input of its own: `A` b1 b2 and what makes b2 whole if it is a lead
  (`A` C2 b1 b2 where b1 is a continuation byte), so that a table that misses the error says
  True for all of it.

The questions are asked at once (pipelined to a program, up to its first failure) and judged
as a vector's are, against the reference's reading of each input (expected.py; for a pair, the
reference's verdict first, its reading only where the answer differs). Their differences are
labelled SWEEP, the variant naming the scalar values or the input: a pair's reproducer is
`utf8cert check --input HEX`, and so is a piece's once narrowed to the values it is wrong on
(a piece answered wrong is halved while a half alone is still answered wrong), else the whole
check (reports/explain.py).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Final

from utf8cert.harness.check.compare import differences_of
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.expected import Expected, ExpectedEncoding, expectation_for
from utf8cert.harness.check.interrupt import Stop
from utf8cert.harness.check.judge import judge
from utf8cert.harness.check.profile import Profile
from utf8cert.harness.check.profiles import RFC3629
from utf8cert.harness.codec.interface import Capability, Codec, Failed, Outcome, Returned
from utf8cert.harness.codec.protocol import Request, outcomes_of
from utf8cert.reference import validate
from utf8cert.reference.table import ROW_OF_BYTE, Row

SWEEP: Final = "sweep"
"""The vector id of the sweep's differences (no vector of the suite has it)."""

PIECE: Final = 0x1000
"""Code points a question: a difference is judged (and the dialect profiles that would
explain it tried) on a piece of at most 16 KB, not on 4.4 MB."""

PIECES: Final = (
    range(0, 1),  # U+0000 alone: an API that reads a C string cannot be asked it (reading.py)
    range(1, PIECE),
    *(range(start, start + PIECE) for start in range(PIECE, 0x110000, PIECE)),
)
"""The code points of each question (scalars() leaves the surrogates out)."""

SURROGATES: Final = range(0xD800, 0xE000)
"""The code points that are no scalar value (RFC 3629 §3)."""

CONTEXT: Final = b"A"
"""The well-formed byte before each pair."""


def sequence_length(lead: int) -> int:
    """Return how many bytes a sequence begun by `lead` has (0 for a byte none begins with):
    the reference's RFC 3629 §4 table, read, not typed again."""
    row = ROW_OF_BYTE[lead]
    return row.length if isinstance(row, Row) else 0


def allowed_second(lead: int) -> range:
    """Return the second bytes RFC 3629 §4 allows after `lead` (none after ASCII or a byte no
    sequence starts with)."""
    row = ROW_OF_BYTE[lead]
    return row.second if isinstance(row, Row) else range(0)


def starts_ill_formed(first: int, second: int) -> bool:
    """Return whether the two bytes begin ill-formed input: the first begins no sequence, or it
    is a lead and refuses the second."""
    length = sequence_length(first)
    return length == 0 or (length > 1 and second not in allowed_second(first))


def completed(byte: int) -> bytes:
    """Return `byte` and what makes it whole where it is a lead: its lowest second byte and
    then 80s (b'' after an ASCII byte or one no sequence starts with: nothing to complete)."""
    length = sequence_length(byte)
    if length < 2:
        return bytes([byte])
    return bytes([byte, allowed_second(byte)[0]]) + b"\x80" * (length - 2)


def pair_input(first: int, second: int) -> bytes:
    """Return the input whose only ill-formed run begins with `first` `second`: CONTEXT, the
    pair, and what makes `second` whole if it is a lead."""
    return CONTEXT + bytes([first]) + completed(second)


def ending_input(last: int, bad: int) -> bytes:
    """Return the input whose only error is `bad` (a byte no sequence starts with) right after
    a character that ends with the byte `last` (00..BF): CONTEXT, C2 before a continuation
    byte, `last`, `bad`."""
    lead = b"" if last < 0x80 else b"\xc2"
    return CONTEXT + lead + bytes([last, bad])


def _ill_formed_after(first: int) -> Sequence[int]:
    """Return the bytes with which `first` begins ill-formed input (every byte after one no
    sequence starts with; none after ASCII): starts_ill_formed, the row read once a byte."""
    length = sequence_length(first)
    if length == 0:
        return range(256)
    allowed = allowed_second(first) if length > 1 else range(256)
    return [second for second in range(256) if second not in allowed]


PAIRS: Final = tuple((first, second) for first in range(256) for second in _ill_formed_after(first))
"""Every ordered byte pair that begins ill-formed input."""

ENDINGS: Final = tuple(
    (last, bad) for last in range(0xC0) for bad in range(256) if sequence_length(bad) == 0
)
"""Every ordered byte pair of a byte that ends a character and one no sequence starts with
(`29 80`): the window in which the error begins at the second byte."""


def validator_inputs() -> list[bytes]:
    """Return the inputs only the validator is asked: one a pair of PAIRS and of ENDINGS."""
    return [pair_input(*p) for p in PAIRS] + [ending_input(*p) for p in ENDINGS]


def scalar_values(piece: range) -> tuple[int, ...]:
    """Return the scalar values of `piece`, the surrogates left out (() for a piece of
    surrogates only)."""
    # Two ranges taken whole: a test of each of 1.1 million values was a tenth of the sweep.
    below = range(piece.start, min(piece.stop, SURROGATES.start))
    above = range(max(piece.start, SURROGATES.stop), piece.stop)
    return (*below, *above)


def scalars(piece: range) -> str:
    """Return the scalar values of `piece` as text, the surrogates left out ('' for a piece
    of surrogates only)."""
    return _text_of(scalar_values(piece))


def _text_of(values: tuple[int, ...]) -> str:
    """Return the text of scalar values ('' for none)."""
    # As UTF-32 read back, in bulk: a chr() for each of 1.1 million values cost three times as much.
    return struct.pack(f"<{len(values)}I", *values).decode("utf-32-le")


@dataclass
class Swept:
    """What the sweep asked, and the differences it found."""

    differences: list[Difference] = field(default_factory=list)
    questions: int = 0


def sweep_differences(
    codec: Codec,
    capabilities: Sequence[Capability],
    profile: Profile,
    stop: Stop | None = None,
) -> Swept:
    """Return the sweep's differences on the `capabilities` checked, and how many questions it
    asked ([] and 0 when none of decode, replace, validate and encode is among them; those up
    to a program's first failure, which is its difference); Interrupted when `stop` says so."""
    jobs = [(piece, job) for piece in PIECES for job in _piece_jobs(piece, capabilities)]
    pairs = validator_inputs() if "validate" in capabilities else []
    requests = [job[0] for _, job in jobs] + [Request("validate", data=d) for d in pairs]
    if stop is not None:
        with stop.interruptible():
            answers = until_failure(codec, requests)
    else:
        answers = until_failure(codec, requests)
    swept = Swept(questions=len(answers))
    for (piece, job), answer in zip(jobs, answers, strict=False):
        # Compared with the one right answer, not judged: differences_of judges it just below.
        if profile is RFC3629 and answer != _right_answer(job):
            with stop.interruptible() if stop is not None else nullcontext():
                job, answer, asked = _narrowed(codec, piece, job, answer)
            swept.questions += asked
        request, expected, variant = job
        found = differences_of(expected, answer, request.capability, (SWEEP, variant), profile)
        swept.differences += [d for d in found if not d.allowed_by]
    for data, answer in zip(pairs, answers[len(jobs) :], strict=False):
        # The reference's verdict first (30,000 inputs: its whole reading costs 20 times as
        # much); the reading, for the difference, where the answer is not that verdict.
        if answer == Returned(validate(data)) and profile is RFC3629:
            continue
        label = (SWEEP, f"{data.hex(' ').upper()}: its only error")
        found = differences_of(expectation_for(data), answer, "validate", label, profile)
        swept.differences += [d for d in found if not d.allowed_by]
    return swept


def until_failure(codec: Codec, requests: Sequence[Request]) -> list[Outcome]:
    """Return the answers to `requests`, in order, up to the first that failed (a crash, a
    hang, memory) of a program, that one included: 45,000 questions to a program that crashes
    on each would start it 45,000 times, and its first crash is a `must` already."""
    ask = getattr(codec, "ask_until_failure", None)
    if callable(ask):
        answered: list[Outcome] = list(ask(requests))
        return answered
    return outcomes_of(codec, requests)


Job = tuple[Request, Expected | ExpectedEncoding, str]
"""A question, what the reference expects of it, and its name in a difference."""


def _narrowed(codec: Codec, piece: range, job: Job, answer: Outcome) -> tuple[Job, Outcome, int]:
    """Return the question of the smallest run of `piece`'s values still answered wrong alone,
    its answer, and how many questions finding it asked: the halves asked in turn (at most 24
    questions for 4,096 values); `job` and `answer` themselves when the answer is a failure (a
    crash or a hang, not asked again) or when neither half alone is answered wrong.

    A difference is then shown and explained on a few bytes (`--input HEX` reproduces it), not
    on 16 KB: the dialect profiles' readings of a piece of 4,096 four-byte values cost 0.1 s
    each (fingerprint.py), 40 s for a codec wrong on every supplementary value."""
    asked = 0
    capability = job[0].capability
    first, first_answer = job, answer
    while not isinstance(answer, Failed) and len(piece) > 1:
        middle = len(piece) // 2
        for half in (piece[:middle], piece[middle:]):
            asked_of_half = _piece_jobs(half, [capability])
            if not asked_of_half:
                continue  # surrogates only
            half_job = asked_of_half[0]
            [half_answer] = outcomes_of(codec, [half_job[0]])
            asked += 1
            if not isinstance(half_answer, Failed) and half_answer != _right_answer(half_job):
                piece, job, answer = half, half_job, half_answer
                break
        else:
            break  # wrong only with both halves: the piece is the smallest run that shows it
    if judge(job[1], answer, capability) is None:
        return first, first_answer, asked  # wrong only in a way judge() lets pass: as asked
    return job, answer, asked


def _right_answer(job: Job) -> Returned:
    """Return the one right answer to a piece's question (well-formed input, every value a
    scalar): its text, True, or its UTF-8. Narrowing compares with it rather than judging: a
    wrong encoder's answer is diagnosed (legacy forms, surrogate pairs) at each judge()."""
    request, expected, _ = job
    if request.capability == "validate":
        return Returned(True)
    right = expected.encoded if isinstance(expected, ExpectedEncoding) else expected.text
    assert right is not None  # a piece is well-formed: the reference reads and writes it whole
    return Returned(right)


def _piece_jobs(piece: range, capabilities: Sequence[Capability]) -> list[Job]:
    """Return the questions of one piece's scalar values ([] for a piece of surrogates)."""
    values = scalar_values(piece)
    if not values:
        return []
    text = _text_of(values)
    data = text.encode("utf-8")  # the question; the reference's reading judges it
    expected = expectation_for(data)
    first, last = ord(text[0]), ord(text[-1])
    variant = f"every scalar U+{first:04X}..U+{last:04X}" if last > first else f"U+{first:04X}"
    jobs: list[Job] = [
        (Request(capability, data=data), expected, variant)
        for capability in ("decode", "replace", "validate")
        if capability in capabilities
    ]
    if "encode" in capabilities and expected.text == text:
        # The reference read `data` as exactly these values: their UTF-8 is `data`.
        encoded = ExpectedEncoding(values, data, None)
        jobs.append((Request("encode", scalars=values), encoded, variant))
    return jobs
