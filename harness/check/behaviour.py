"""Behaviours: differences grouped by the one way of going wrong that causes them.

A codec with one bug differs on many vectors, variants and capabilities; a maintainer wants the
bug. `behaviour_of(difference)` names the way the codec went wrong, independent of where it was
seen, and `group(differences)` gathers the differences of each behaviour, simplest example first.
The fuzzer deduplicates its findings with the same key, so one bug is one finding there too.

    behaviour_of(difference) -> Behaviour      direction, what the codec did, and a detail
    group(differences, vectors=None) -> list[Group]   most binding first, then the widest

The key, and why:
- the direction (`decode` for decode, replace, validate and incremental; `encode`): one bug in
  a decoder shows in every decoding capability that shares its code, but an encoder is other
  code;
- what the codec did, with the several words for one act made one: accepting ill-formed input,
  decoding ill-formed bytes as characters, dropping them silently and refusing only after them
  all *let ill-formed input through*;
- a detail that separates bugs of one act, and only what changes the fix: for ill-formed input
  let through, the reference's error kind of the first ill-formed sequence the difference is
  about (overlong, surrogate, out-of-range, ...; a sequence cut short by the end of input or by
  another byte is one kind, `incomplete`, because a variant moves the end; for bytes dropped
  from a replaced output, the run left without a U+FFFD: parting.py), except that ill-formed
  bytes dropped right after a literal U+FFFD are `after a U+FFFD` whatever their kind (the codec
  saw the error and merged its U+FFFD into the one before: one bug, wherever its neighbours
  differ; unless a strict capability lets that kind through on the same vector); for a
  wrong error offset, where it points (before the ill-formed bytes, inside them, or just after
  them: a convention, one group; past well-formed text after them, the codec let them through);
  for a crash, the exception's name (a sanitizer's report: the tool and the kind of error).
The level is not part of the key: the group's level is its most binding member's.

`group` sees more than one difference: when a vector goes wrong on a capability only once it is
moved (mid-stream, shifted, across a block boundary) or cut into chunks, never as it is, the bug
is in a fast path or in the carry between chunks, whatever the symptom (a crash, a hang or a
wrong type excepted: each is its own behaviour wherever it is seen). Those differences are one
behaviour, POSITION, its detail naming the kinds of variant it shows in (two such bugs in one
codec are therefore one group: the variants in the detail tell where to look). Unless every one
of them shows a behaviour seen as is on other vectors: then one bug shows there and something
else (a second bug, say, that refuses the vector's bytes at its end of input but lets the next
byte complete them once moved) hid it as is; each goes under its own behaviour, whose `moved`
lists those vectors ("also seen when moved or cut"), so that the two bugs are two root causes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from utf8cert.harness.check.diagnose import REFUSED_LATE, later_errors
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.extent import UNPLACED
from utf8cert.harness.check.reading import Reading
from utf8cert.harness.check.recheck import WHAT as RECHECK_WHAT
from utf8cert.harness.check.reuse import REUSE, REUSED
from utf8cert.harness.check.seeded import SEEDED
from utf8cert.harness.check.sweep import SWEEP
from utf8cert.harness.codec.interface import FAILURE_WHAT
from utf8cert.harness.vectors.model import LEVELS, Level, Vector
from utf8cert.reference import ErrorKind, errors

Direction = Literal["decode", "encode"]

LET_THROUGH: Final = "let ill-formed input through"
"""The one name of every way of taking ill-formed bytes for text (RFC 3629 §3, §10)."""
OFFSET: Final = "wrong error offset"
POSITION: Final = "goes wrong only when the input is moved or cut"
PLAIN: Final = frozenset({"as-is", "as-is, whole"})
"""The variant names of a vector decoded as it is, in one piece."""

AFTER_REPLACEMENT: Final = "after a U+FFFD"
"""The detail of ill-formed bytes dropped right after a literal U+FFFD, whatever their kind."""
REPLACEMENT_BYTES: Final = b"\xef\xbf\xbd"
_DROPPED: Final = "dropped ill-formed input silently"
_STRICT: Final = frozenset({"decode", "validate", "incremental"})
_LET_THROUGH_WORDS: Final = frozenset(
    {
        "accepted ill-formed input",
        "decoded ill-formed bytes as characters",
        _DROPPED,
        "dropped a truncated signature silently",
        REFUSED_LATE,
    }
)
_FAILURE_WORDS: Final = frozenset({*FAILURE_WHAT.values(), RECHECK_WHAT})
"""A crash, a hang, a wrong type, a memory exhaustion, a protocol breach or two answers to one
question (recheck.py) is its own behaviour wherever it is seen."""
_INCOMPLETE: Final = frozenset({ErrorKind.TRUNCATED, ErrorKind.MISSING_CONTINUATION})
_VALUELESS: Final = _INCOMPLETE | {ErrorKind.UNEXPECTED_CONTINUATION}
_REFUSED_AT: Final = re.compile(r"refused at (\d+)")
# The name ends the message, or a ':' or ';' follows it (breaker.py adds '; … skipped').
_EXCEPTION: Final = re.compile(r"(?:crash|timeout|wrong-type): ([A-Za-z_][\w.]*)(?:[:;]|$)")
_SANITIZER: Final = re.compile(r"crash: (\w+Sanitizer): ([\w-]+)")
"""A sanitizer's report (codec/isolate.py puts its SUMMARY first): the tool and the kind of
error (`AddressSanitizer heap-buffer-overflow`), as an exception's name is for a Python crash."""


@dataclass(frozen=True, order=True)
class Behaviour:
    """One way of going wrong: what groups the differences one bug causes."""

    direction: Direction
    what: str
    """What the codec did, in the words of the report ('let ill-formed input through')."""
    detail: str = ""
    """What separates bugs of one act: an error kind, where an offset points, an exception."""

    def __str__(self) -> str:
        """Return 'decode: let ill-formed input through (overlong)'."""
        detail = f" ({self.detail})" if self.detail else ""
        return f"{self.direction}: {self.what}{detail}"

    @property
    def id(self) -> str:
        """Return a stable id for files and baselines, in lower case and dashes:
        'decode/let-ill-formed-input-through/overlong'."""
        parts = [self.direction, self.what] + ([self.detail] if self.detail else [])
        return "/".join(re.sub(r"[^a-z0-9+.]+", "-", part.lower()).strip("-") for part in parts)


def _pointed(difference: Difference) -> tuple[int, int]:
    """Return (start, end) of the bytes a decoding difference is about: from its first mark to
    its last (a replaced output's marks are the run where the answers part: diagnose.py), else
    the vector's bytes."""
    if difference.marks:
        return difference.marks[0][0], difference.marks[-1][1]
    return difference.window


def _after_replacement(difference: Difference) -> bool:
    """Return True if the ill-formed bytes a difference is about come right after a literal
    U+FFFD (EF BF BD): a codec that drops them there merged their U+FFFD into that one."""
    data = difference.input
    if not isinstance(data, bytes):
        return False
    start, end = _pointed(difference)
    if not difference.marks:  # a baseline's deviation: the vector's first ill-formed sequence
        found = errors(data[start:end])
        start = start + found[0].offset if found else start
    return data[max(0, start - 3) : start] == REPLACEMENT_BYTES


def _error_kind(difference: Difference, decoded: bool = False) -> str:
    """Return the reference's kind of the first ill-formed sequence among the vector's bytes,
    or for ill-formed input dropped, in the run dropped ('' if there is none, as for a
    well-formed input). When the codec
    `decoded` ill-formed bytes as characters, the first sequence with a value (overlong,
    surrogate, out-of-range, ...) in the bytes it is marked at is the one it decoded: a
    sequence cut short or a lone continuation byte has none to give."""
    data = difference.input
    if not isinstance(data, bytes):
        return ""
    window = difference.window
    found = errors(data[window[0] : window[1]])
    kinds = [error.kind for error in found]
    if difference.what == _DROPPED or decoded:
        # The run left without a U+FFFD, or read as characters (diagnose.py), read in the whole
        # window: a subpart's kind depends on the bytes after it (ED A0 80). An input of many
        # errors (the seeded pass's) names the one the answers part at, not its first.
        start, end = _pointed(difference)
        kinds = [e.kind for e in found if start <= window[0] + e.offset < end] or kinds
    if decoded:
        kinds = [kind for kind in kinds if kind not in _VALUELESS] or kinds
    if not kinds:
        return ""
    return "incomplete" if kinds[0] in _INCOMPLETE else str(kinds[0])


def _offset_behaviour(difference: Difference) -> tuple[str, str]:
    """Return (what, detail) of a wrong error offset: before the first ill-formed sequence,
    inside it, or after it (up to the end of the run of ill-formed bytes it begins), it is a
    way of counting; a later refusal the judge names letting the input through (diagnose.py's
    offset_mismatch), and a baseline's `wrong error offset` that pointed there is read so too."""
    refused = _REFUSED_AT.match(difference.actual)
    if refused is None or not difference.marks:
        return OFFSET, ""
    offset = int(refused.group(1))
    start, end = difference.marks[0]
    if offset < start:
        return OFFSET, "before the ill-formed bytes"
    if offset < end:
        return OFFSET, "inside the ill-formed bytes"
    if offset > end:
        data = difference.input
        starts, run_end = later_errors(Reading(data) if isinstance(data, bytes) else None, end)
        if offset in starts or offset > run_end:
            return LET_THROUGH, _error_kind(difference)
    return OFFSET, "after the ill-formed bytes"


def behaviour_of(difference: Difference) -> Behaviour:
    """Return the behaviour a difference shows (every difference has one; see the module)."""
    direction: Direction = "encode" if difference.capability == "encode" else "decode"
    what, detail = difference.what, ""
    if difference.variant.startswith(REUSED):
        # One bug, in what the codec keeps between questions, whatever its answer's symptom.
        event = difference.variant.removeprefix(REUSED).split(" (")[0]
        return Behaviour(direction, REUSE, event)
    if what == _DROPPED and _after_replacement(difference):
        # Whatever their kind: the codec saw them and wrote no U+FFFD of their own (the kind
        # changes nothing in the fix, which is in how U+FFFDs are written).
        what, detail = LET_THROUGH, AFTER_REPLACEMENT
    elif what in _LET_THROUGH_WORDS:
        decoded = what == "decoded ill-formed bytes as characters"
        what, detail = LET_THROUGH, _error_kind(difference, decoded)
    elif what == OFFSET:
        what, detail = _offset_behaviour(difference)
    elif what in _FAILURE_WORDS:
        exception = _EXCEPTION.match(difference.actual)
        detail = exception.group(1) if exception and what == "crashed" else ""
        sanitizer = _SANITIZER.match(difference.actual)
        detail = f"{sanitizer[1]} {sanitizer[2]}" if sanitizer and what == "crashed" else detail
    return Behaviour(direction, what, detail)


def simplicity(
    difference: Difference, vector: Vector | None = None
) -> tuple[int, int, int, int, str]:
    """Return a sort key putting the simplest example first: the vector as is (whole, for an
    incremental decoder), the shortest, with the fewest flags."""
    start, end = difference.window
    plain = difference.variant in PLAIN
    flags = len(vector.flags) if vector is not None else 0
    return (0 if plain else 1, end - start, flags, len(difference.input), difference.vector)


@dataclass
class Group:
    """The differences of one behaviour, simplest first."""

    behaviour: Behaviour
    differences: list[Difference] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)
    """The vectors on which the behaviour shows only once moved or cut (their own end of input
    hid it): also seen when moved or cut ([] for none)."""

    @property
    def example(self) -> Difference:
        """Return the simplest difference of the group, the one to explain in full."""
        return self.differences[0]

    @property
    def level(self) -> Level:
        """Return the most binding level among the group's differences."""
        return min((d.level for d in self.differences), key=LEVELS.index)

    @property
    def vectors(self) -> list[str]:
        """Return the ids of the vectors that show the behaviour, simplest first, each once."""
        return list(dict.fromkeys(d.vector for d in self.differences))

    @property
    def capabilities(self) -> list[str]:
        """Return the capabilities on which the behaviour was seen, in order of first sight."""
        return list(dict.fromkeys(d.capability for d in self.differences))


def variant_family(variant: str) -> str:
    """Return the kind of a variant: 'as is', 'mid-stream', 'shifted', 'across a boundary', or
    'cut into chunks' (an incremental decoder fed otherwise than in one piece)."""
    if ", " in variant and not variant.endswith(", whole"):
        return "cut into chunks"
    head = variant.split(",")[0]
    if head.startswith("shift-"):
        return "shifted"
    if head.startswith("straddle-"):
        return "across a boundary"
    return "mid-stream" if head == "mid-stream" else "as is"


def _unmerged(seen: list[tuple[Difference, Behaviour]]) -> list[tuple[Difference, Behaviour]]:
    """Return `seen` with each drop `after a U+FFFD` keyed on its kind instead when a strict
    capability lets that kind through on the same vector: the codec drops that kind wherever
    it stands (a truncated tail at the end of input), the U+FFFD before it changes nothing."""
    strict = {
        (difference.vector, behaviour.detail)
        for difference, behaviour in seen
        if behaviour.what == LET_THROUGH and difference.capability in _STRICT
    }
    return [
        (difference, Behaviour(behaviour.direction, LET_THROUGH, kind))
        if behaviour.detail == AFTER_REPLACEMENT
        and (difference.vector, kind := _error_kind(difference)) in strict
        else (difference, behaviour)
        for difference, behaviour in seen
    ]


def _place_moved(
    groups: dict[Behaviour, Group],
    direction: Direction,
    moved: list[tuple[Difference, Behaviour]],
) -> None:
    """Put the differences seen only once their vectors were moved or cut into `groups`: each
    under the behaviour it shows when that behaviour is seen as is on other vectors (one bug,
    which something else hid at the vector's own end of input: "also seen when moved or cut"),
    if every one of them is so explained; else all of them in one POSITION group, named by the
    kinds of variant they show in (a bug of a fast path or of the carry between chunks)."""
    if all(behaviour in groups for _, behaviour in moved):
        for difference, behaviour in moved:
            each = groups[behaviour]
            each.differences.append(difference)
            each.moved.append(difference.vector)
        for each in groups.values():
            each.moved = list(dict.fromkeys(each.moved))
        return
    families = ", ".join(sorted({variant_family(d.variant) for d, _ in moved}))
    behaviour = Behaviour(direction, POSITION, families)
    groups[behaviour] = Group(behaviour, [difference for difference, _ in moved])


def group(
    differences: Iterable[Difference], vectors: Mapping[str, Vector] | None = None
) -> list[Group]:
    """Return the differences grouped by behaviour: most binding level first, then the groups
    of most vectors; in each group the simplest difference first ([] for no differences).
    `vectors` (by id) lets the simplest example be the one with the fewest flags."""
    seen = [(difference, behaviour_of(difference)) for difference in differences]
    seen = _unmerged(seen)
    # A refusal placing the error nowhere is the API's form wherever it is seen, not a way of
    # going wrong as is, nor only once moved.
    # The sweep's and the seeded pass's inputs are asked as they are (each its own input, not
    # a vector moved or cut).
    plain = {
        (d.vector, d.capability)
        for d, b in seen
        if (d.variant in PLAIN or d.vector in (SWEEP, SEEDED)) and b.what != UNPLACED
    }
    groups: dict[Behaviour, Group] = {}
    moved: dict[Direction, list[tuple[Difference, Behaviour]]] = {}
    for difference, behaviour in seen:
        if (difference.vector, difference.capability) not in plain and (
            behaviour.what not in _FAILURE_WORDS | {UNPLACED, REUSE}
        ):
            moved.setdefault(behaviour.direction, []).append((difference, behaviour))
            continue
        groups.setdefault(behaviour, Group(behaviour)).differences.append(difference)
    for direction, seen_moved in moved.items():
        _place_moved(groups, direction, seen_moved)
    index = vectors or {}
    for each in groups.values():
        each.differences.sort(key=lambda d: simplicity(d, index.get(d.vector)))
    return sorted(
        groups.values(),
        key=lambda g: (LEVELS.index(g.level), -len(g.vectors), g.behaviour),
    )
