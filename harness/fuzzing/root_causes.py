"""One finding per root cause, by construction: a minimized input whose behaviour shows on no
part of it alone, while its parts show other behaviours, holds those behaviours' root causes
and is no finding of its own (issue 42).

A codec with two independent bugs (it reads ED A0..BF as surrogates, and C0 or C1 with a tail
as a character) answers an input holding both with neither bug's answer: the U+FFFDs it writes
stand elsewhere than either bug alone puts them, and the difference, "U+FFFD misplaced", is a
behaviour of its own. Minimizing keeps that behaviour, so it keeps both bugs' bytes: what tells
it apart is that each of its parts (its substrings) shows one of the two bugs' behaviours alone
and none shows it. So each proper substring of a minimized input (up to MOST_BYTES long) is
asked:

- one shows the input's own behaviour: it stands alone (minimizing did not get there: kept);
- parts showing other behaviours cover all its bytes: those are the root causes the input
  holds (named, each made a finding from the shortest substring that shows it, unless known
  from a baseline or found already), and the input is no finding;
- else (no part shows anything, or some byte is in no such part): the behaviour needs what is
  left, and is a root cause of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Final

from utf8cert.harness.check.behaviour import Behaviour

MOST_BYTES: Final = 24
"""The longest minimized input whose substrings are asked (300 of them at 24 bytes): a longer
one (a boundary bug at 4096 bytes) is kept as it is."""

BehavioursOf = Callable[[bytes], Iterable[Behaviour]]


@dataclass(frozen=True)
class RootCauses:
    """What the parts of one input show alone."""

    alone: bool
    """Whether the input's behaviour needs no other: shown by a part, or by no part's other."""
    causes: dict[Behaviour, bytes] = field(default_factory=dict)
    """Each other behaviour a part shows alone, with the shortest part that shows it (empty
    when `alone`)."""


def parts(data: bytes) -> list[tuple[int, int]]:
    """Return (start, end) of each proper, non-empty substring of `data`, shortest first."""
    return [
        (start, start + size)
        for size in range(1, len(data))
        for start in range(len(data) - size + 1)
    ]


def root_causes(data: bytes, wanted: Behaviour, behaviours_of: BehavioursOf) -> RootCauses:
    """Return what the substrings of `data` (a minimized input showing `wanted`) show alone
    (see the module); `alone` for an input longer than MOST_BYTES, which is not asked.

    The input holds other root causes only when the parts showing them cover all its bytes:
    a byte no such part holds may be what its own behaviour needs (ED A0 80 read as a
    surrogate needs ED A0, though 80 alone shows another bug of the codec's)."""
    if len(data) > MOST_BYTES:
        return RootCauses(alone=True)
    causes: dict[Behaviour, bytes] = {}
    covered = [False] * len(data)
    shown: dict[bytes, list[Behaviour]] = {}
    for start, end in parts(data):
        part = data[start:end]
        if part not in shown:
            shown[part] = list(behaviours_of(part))
        if wanted in shown[part]:
            return RootCauses(alone=True)
        for behaviour in shown[part]:
            causes.setdefault(behaviour, part)
        if shown[part]:
            covered[start:end] = [True] * (end - start)
    if not causes or not all(covered):
        return RootCauses(alone=True)
    return RootCauses(alone=False, causes=causes)
