"""The ill-formed sequence a codec got wrong: an input whose other ill-formed sequences are
overwritten with ASCII, so that a difference's behaviour names what the codec did wrong, not the
first ill-formed sequence of the input.

`behaviour_of` (check/behaviour.py) takes the kind of the first ill-formed sequence in the
difference's window: right for a vector, which holds the one sequence it is about, wrong for a
fuzzed input, which holds many. A codec that reads C0 80 as U+0000 and refuses F5 differs on
F5 C0 80, and the first sequence says "out-of-range": a baseline that knows the overlong would
not know it, and a campaign would stop on a known bug. So before an input is keyed, each other
ill-formed unit is overwritten with "a" (offsets kept: a bug at byte 4096 stays there) while the
difference stays; what is left holds the sequence the codec got wrong first, and the key is
taken there.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Final

from utf8cert.harness.check.behaviour import AFTER_REPLACEMENT, Behaviour, behaviour_of
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.fuzzing.finding import slug
from utf8cert.harness.fuzzing.kinds import error_spans
from utf8cert.reference import ErrorKind

MAX_TRIES: Final = 96
"""Probes one localization may spend: groups of units are overwritten halves first, so one
culprit among n units costs about 2·log2(n) probes (a 64 KiB input of random bytes, some 30)."""

INCOMPLETE: Final = "incomplete"
Differences = Callable[[bytes], list[Difference]]


def culprit(
    data: bytes,
    differences: Sequence[Difference],
    differences_of: Differences,
    *,
    likely: Collection[str] = (),
    max_tries: int = MAX_TRIES,
) -> tuple[bytes, list[Difference]]:
    """Return `data` with the ill-formed units not needed for the kind of its first difference
    overwritten with ASCII "a", until those left are all of one kind, and the differences there
    (`data` and `differences` as they are when its units are of one kind, or none is given).

    The kinds `likely` (behaviour details: those a campaign has seen) are tried first, one probe
    each: the units of that kind alone kept. Then units are overwritten by groups, halves first.
    Last, a literal U+FFFD before bytes dropped `after a U+FFFD` is overwritten if the codec
    drops them without it (one probe).
    """
    data, found = _of_one_kind(data, differences, differences_of, likely, max_tries)
    return _unmerged(data, found, differences_of)


def _unmerged(
    data: bytes, found: list[Difference], differences_of: Differences
) -> tuple[bytes, list[Difference]]:
    """Return `data` with the literal U+FFFD before ill-formed bytes dropped `after a U+FFFD`
    (behaviour.py) overwritten with "aaa" when the codec drops them all the same (one probe),
    and the differences there: then the drop is of their kind, wherever they stand (a
    truncated tail at the end of input), and the key names that kind."""
    for difference in found:
        if behaviour_of(difference).detail != AFTER_REPLACEMENT or not difference.marks:
            continue
        start = difference.marks[0][0]
        candidate = data[: start - 3] + b"aaa" + data[start:]
        answer = differences_of(candidate)
        same = [
            d for d in answer if (d.capability, d.what) == (difference.capability, difference.what)
        ]
        return (candidate, answer) if same else (data, found)
    return data, found


def _of_one_kind(
    data: bytes,
    differences: Sequence[Difference],
    differences_of: Differences,
    likely: Collection[str],
    max_tries: int,
) -> tuple[bytes, list[Difference]]:
    """Return `data` with the ill-formed units not needed for the kind of its first difference
    overwritten, and the differences there (culprit's first step)."""
    spans = units(data)
    if not differences or len({kind_detail(kind) for _, _, kind in spans}) < 2:
        return data, list(differences)
    wanted = slug(differences[0])
    tries = 0

    def keeps(candidate: bytes) -> list[Difference] | None:
        nonlocal tries
        tries += 1
        answer = differences_of(candidate)
        return answer if any(slug(d) == wanted for d in answer) else None

    present = {kind_detail(kind) for _, _, kind in spans}
    for detail in [detail for detail in likely if detail in present][:max_tries]:
        others = [span for span in spans if kind_detail(span[2]) != detail]
        candidate = _quieted(data, others)
        answer = keeps(candidate)
        if answer is not None:
            return candidate, answer
    found, kept = list(differences), list(spans)
    size = max(1, len(kept) // 2)
    while size >= 1 and len({kind_detail(kind) for _, _, kind in kept}) > 1:
        end = len(kept)
        # From the end: a unit after the culprit is quieted without moving it.
        while end > 0 and tries < max_tries and len(kept) > 1:
            start = max(0, end - size)
            candidate = _quieted(data, kept[start:end])
            answer = keeps(candidate)
            if answer is not None:
                data, found = candidate, answer
                del kept[start:end]
            end = start
        size //= 2
    return data, found


def units(data: bytes) -> list[tuple[int, int, ErrorKind]]:
    """Return (start, end, kind) of each unit that is quieted whole: an ill-formed unit of
    `data` (kinds.py) with the lone continuation bytes right after it, which a lax codec takes
    for its tails (C0 80 read as U+0000 is the overlong C0 and the continuation 80 to the
    reference); its kind that of its first unit."""
    merged: list[tuple[int, int, ErrorKind]] = []
    for start, end, kind in error_spans(data):
        if merged and kind is ErrorKind.UNEXPECTED_CONTINUATION and merged[-1][1] == start:
            merged[-1] = (merged[-1][0], end, merged[-1][2])
        else:
            merged.append((start, end, kind))
    return merged


def kind_detail(kind: ErrorKind) -> str:
    """Return the behaviour detail an ill-formed unit of `kind` gives (behaviour.py: a sequence
    cut short, by the end of input or another byte, is `incomplete`)."""
    cut_short = kind in (ErrorKind.TRUNCATED, ErrorKind.MISSING_CONTINUATION)
    return INCOMPLETE if cut_short else str(kind)


KIND_DETAILS: Final = frozenset(kind_detail(kind) for kind in ErrorKind)
"""The behaviour details that name a kind of ill-formed sequence."""


def _quieted(data: bytes, spans: Sequence[tuple[int, int, object]]) -> bytes:
    """Return `data` with the bytes of each span overwritten with "a"."""
    edited = bytearray(data)
    for start, end, _ in spans:
        edited[start:end] = b"a" * (end - start)
    return bytes(edited)


def behaviours(differences: Sequence[Difference]) -> list[Behaviour]:
    """Return the behaviours of `differences`, each once, in their order."""
    return list(dict.fromkeys(behaviour_of(difference) for difference in differences))
