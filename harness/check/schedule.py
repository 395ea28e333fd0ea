"""Which variants and chunkings each vector gets: all of them (`full`), or spread (`default`).

A straddling, alignment or chunking bug depends on where the bytes sit, not on which vector sits
there, so at the default depth every vector runs as it is, mid-stream and byte by byte, and the
rest is spread over the vectors: for each alignment shift, each straddled block and the cut at
every point, a few vectors are picked that between them carry every flag on well-formed and on
ill-formed input, so that every flag meets every variant and chunking at least once (the 64- and
4096-byte straddles several times over, meeting every kind of byte cut at the boundary too), and
more shifts put each flag's first non-ASCII byte at every offset modulo 16. A vector flagged
`state-transition` (vectors/automaton.yaml: one entry of the RFC 3629 automaton each) runs as it is,
whole and byte by byte, on every capability, which is what reads its entry, and joins no spread:
there are hundreds of them and each differs from the others in one table entry, not in a trait.
A vector flagged `window` (vectors/windows.yaml: long inputs holding every window of one kind,
or one window alone) runs as it is, whole, on every capability, and nothing else: it is a
layout of its own, and fed in pieces or padded it would only cost (issue 44: within 1.3x).
`--depth full` gives every vector everything.
`workload` says what either depth feeds the codec (the budget docs/guide.md documents).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from heapq import heapify, heappop, heappush
from typing import Any, Final, Literal

from utf8cert.harness.check import recheck
from utf8cert.harness.check.compare import chunkings
from utf8cert.harness.check.reuse import one_shot_sizes
from utf8cert.harness.check.variants import (
    BLOCKS,
    FULL,
    SHIFTS,
    Plan,
    decode_variants,
    encode_variants,
)
from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.codec.raised import LARGEST_CODE_POINT
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector, Vector

Depth = Literal["default", "full"]
DEPTHS: tuple[Depth, ...] = ("default", "full")

ALWAYS: Final = frozenset({"as-is", "mid-stream"})
"""The layouts every vector gets at every depth (with the whole and byte-by-byte chunkings)."""
EVERY_CUT: Final = "every-cut"
"""The chunkings that cut a vector's as-is input in two at each point."""
SPREAD_LAYOUTS: Final = (
    *(f"shift-{shift}" for shift in SHIFTS),
    *(f"straddle-{block}" for block in BLOCKS),
)
"""The layouts spread over the vectors at the default depth."""
NO_FLAG: Final = ""
"""Stands for the flags of a vector that has none, so that such vectors are covered too."""
PROBE: Final = "state-transition"
"""The flag of a vector that probes one (state, byte class) entry of the RFC 3629 automaton."""
PROBE_PLAN: Final = Plan(frozenset({"as-is"}), every_cut=False)
"""A probe's plan at the default depth: as-is, fed whole and byte by byte (a chunk boundary
right before each byte, where a decoder carries its state across chunks)."""
WINDOW: Final = "window"
"""The flag of a vector that holds windows a codec of any construction reads (issue 44)."""
WINDOW_PLAN: Final = Plan(frozenset({"as-is"}), every_cut=False, bytewise=False)
"""A window vector's plan at the default depth: as-is, fed whole."""
ALIGNMENT: Final = len(SHIFTS) + 1
"""The register width whose every alignment the shifts reach (16 bytes)."""

BUDGET: Final = 17_000_000
"""The most bytes a default-depth check of the built-in vectors feeds a codec (docs/guide.md;
16 MB until vectors/windows.yaml, issue 44, took it from 15.7 to 16.1 MB, asked whole on every
capability)."""
ROUNDS: Final = {"straddle-64": 8, "straddle-4096": 4}
"""How many times over the cheaper straddles cover every trait (each round from elsewhere in
the vectors), since what a block bug does depends on the bytes cut, not only the flag."""

Trait = tuple[str, bool]
"""(flag, well-formed?): a flag on well-formed and on ill-formed input fails differently."""


def traits(vector: Vector) -> frozenset[Trait]:
    """Return what a vector stands for in the schedule: each flag (NO_FLAG for none), with
    whether the vector is well-formed (for an encoding vector: whether it must be encoded)."""
    valid = vector.valid if isinstance(vector, DecodeVector) else vector.expected is not None
    return frozenset((flag, valid) for flag in vector.flags or (NO_FLAG,))


def byte_class(byte: int) -> str:
    """Return the RFC 3629 §4 class of a byte: ascii, tail, lead2, lead3, lead4 or never."""
    if byte < 0x80:
        return "ascii"
    if byte < 0xC0:
        return "tail"
    if 0xC2 <= byte <= 0xDF:
        return "lead2"
    if 0xE0 <= byte <= 0xEF:
        return "lead3"
    return "lead4" if 0xF0 <= byte <= 0xF4 else "never"


def straddle_traits(vector: Vector) -> frozenset[Trait | tuple[str, str, bool]]:
    """Return the traits of a vector, and the classes of the bytes on either side of the block
    boundary its straddling layouts put in it: what a buffered reader cuts apart there."""
    if not isinstance(vector, DecodeVector) or not vector.data:
        return traits(vector)
    cut = max(1, len(vector.data) // 2)
    if cut >= len(vector.data):
        return traits(vector)
    before = "+".join(map(byte_class, vector.data[max(0, cut - 2) : cut]))
    return traits(vector) | {(before, byte_class(vector.data[cut]), vector.valid)}


def covering(
    group: Sequence[Vector], start: int, of: Callable[[Vector], frozenset[Any]] = traits
) -> list[Vector]:
    """Return a few vectors of `group` that between them have every trait the group has ([] for
    an empty group).

    Greedy: the vector with the most traits not yet had, the first in the group's order from
    `start` on among equals, so that different starts pick different vectors.
    """
    if not group:
        return []
    start %= len(group)
    order = [of(vector) for vector in [*group[start:], *group[:start]]]
    uncovered = set().union(*order)
    # Lazy greedy: what a vector would add only shrinks as others are chosen, so the count
    # kept in the heap bounds it. The top, counted again, is the best when its count held
    # (every other is at most its kept count; an equal one before it in the order would be on
    # top): the same choice as weighing every vector each time, at a fraction of the cost.
    heap = [(-len(had), place) for place, had in enumerate(order)]
    heapify(heap)
    chosen: list[Vector] = []
    while uncovered:
        _, place = heappop(heap)
        gain = len(order[place] & uncovered)
        if not gain:
            continue  # nothing left to give: never the best again
        if heap and (-gain, place) > heap[0]:
            heappush(heap, (-gain, place))
            continue
        chosen.append(group[(start + place) % len(group)])
        uncovered -= order[place]
    return chosen


def first_non_ascii(vector: Vector) -> int:
    """Return the index of the first byte (or value) above 7F, where ASCII fast paths stop and
    alignment bugs strike (0 for an all-ASCII vector)."""
    items = vector.data if isinstance(vector, DecodeVector) else vector.scalars
    return next((index for index, item in enumerate(items) if item >= 0x80), 0)


def aligned_traits(vector: Vector) -> frozenset[Trait | tuple[str, str, bool]]:
    """Return the traits of a vector, and the classes of its first non-ASCII byte and of the
    byte after it: what a word-at-a-time fast path reads at the alignment the shifts choose (a
    lead byte then ASCII at a word's last offset is where a mask that misses a bit lets the
    lead through, and the refusal comes late)."""
    if not isinstance(vector, DecodeVector) or not vector.data:
        return traits(vector)
    first = first_non_ascii(vector)
    after = vector.data[first + 1 : first + 2]
    pair = (byte_class(vector.data[first]), byte_class(after[0]) if after else "end")
    return traits(vector) | {(*pair, vector.valid)}


def aligned(group: Sequence[Vector]) -> Iterator[tuple[Vector, str]]:
    """Yield (vector, shift) pairs that put, for every trait of `group` (aligned_traits), the
    first non-ASCII byte of a vector with that trait at every offset modulo 16 (as-is counts as
    a shift of 0)."""
    of = {vector.id: aligned_traits(vector) for vector in group}
    for residue in range(ALIGNMENT):
        needed = {vector.id: (residue - first_non_ascii(vector)) % ALIGNMENT for vector in group}
        shifted = [vector for vector in group if needed[vector.id]]
        had = set().union(set(), *(of[v.id] for v in group if not needed[v.id]))
        wanted = [vector for vector in shifted if of[vector.id] - had]
        start = residue * len(wanted) // ALIGNMENT
        for vector in covering(wanted, start, lambda v: of[v.id]):
            if of[vector.id] - had:
                had |= of[vector.id]
                yield vector, f"shift-{needed[vector.id]}"


class Schedule:
    """The plan of each vector of one set at one depth."""

    def __init__(self, plans: Mapping[str, Plan], depth: Depth) -> None:
        self.plans = plans
        self.depth = depth

    def plan(self, vector: Vector) -> Plan:
        """Return what `vector` is run through (everything for a vector the set did not hold)."""
        return self.plans.get(vector.id, FULL)


def schedule(vectors: Iterable[Vector], depth: Depth = "default") -> Schedule:
    """Return the schedule of `vectors` at `depth` (an empty one for no vectors).

    For each spread layout and for the cut at every point, the vectors with at least one byte
    (or code point) are covered by trait in turn (the empty ones have no variant but as-is
    anyway); the shifts are then topped up so that each trait also meets every alignment of its
    first non-ASCII byte. Deterministic: the same vectors in the same order give the same
    schedule.
    """
    if depth == "full":
        return Schedule({}, depth)
    vectors = list(vectors)
    probes = {vector.id for vector in vectors if PROBE in vector.flags}
    windows = {vector.id for vector in vectors if WINDOW in vector.flags}
    as_they_are = probes | windows  # once (a union per vector was quadratic)
    vectors = [vector for vector in vectors if vector.id not in as_they_are]
    decoding = [v for v in vectors if isinstance(v, DecodeVector) and v.data]
    encoding = [v for v in vectors if isinstance(v, EncodeVector) and v.scalars]
    chosen: dict[str, set[str]] = {vector.id: set() for vector in vectors}
    for group, items in (
        (decoding, (*SPREAD_LAYOUTS, EVERY_CUT)),
        (encoding, SPREAD_LAYOUTS),
    ):
        stride = max(1, len(group) // len(items))
        for turn, item in enumerate(items):
            rounds = ROUNDS.get(item, 1)
            for lap in range(rounds):
                start = turn * stride + lap * len(group) // rounds
                of = straddle_traits if item in ROUNDS else traits
                for vector in covering(group, start, of):
                    chosen[vector.id].add(item)
        for vector, shift in aligned(group):
            chosen[vector.id].add(shift)
    plans = {
        vector_id: Plan(frozenset(ALWAYS | items), EVERY_CUT in items)
        for vector_id, items in chosen.items()
    }
    plans.update({vector_id: PROBE_PLAN for vector_id in probes})
    plans.update({vector_id: WINDOW_PLAN for vector_id in windows})
    return Schedule(plans, depth)


@dataclass(frozen=True)
class Workload:
    """What a check feeds a codec: calls, bytes to the decoding capabilities, code points to
    the encoder."""

    calls: int = 0
    bytes: int = 0
    code_points: int = 0
    again: int = 0
    """Of the calls, those asked again at the end of the run (recheck.py)."""


def workload(
    vectors: Iterable[Vector], depth: Depth, capabilities: Iterable[Capability]
) -> Workload:
    """Return what checking `vectors` at `depth` on `capabilities` feeds a codec that answers
    every question a Unicode string can hold, the questions asked again at the end included
    (recheck.py; all zero for no vectors or no capabilities)."""
    vectors = list(vectors)
    plans = schedule(vectors, depth)
    offered = frozenset(capabilities)
    one_shot = [c for c in ("decode", "replace", "validate") if c in offered]
    sizes: list[tuple[Capability, int, int]] = []
    """(capability, bytes, code points) of each question, in the order the check asks them."""
    beyond: set[int] = set()
    """Which of them hold a value above U+10FFFF: no Unicode string holds one, so a codec
    declines them, and a question declined is not asked again."""
    for vector in vectors:
        if isinstance(vector, EncodeVector):
            if "encode" in offered:
                for _, expected in encode_variants(vector, plans.plan(vector)):
                    if max(expected.scalars, default=0) > LARGEST_CODE_POINT:
                        beyond.add(len(sizes))
                    sizes.append(("encode", 0, len(expected.scalars)))
            continue
        for variant in decode_variants(vector, plans.plan(vector)):
            size = len(variant.expected.data)
            sizes += [(capability, size, 0) for capability in one_shot]
            if "incremental" in offered:
                # Each chunking twice: with and without a final empty chunk.
                ways = sum(1 for _ in chunkings(variant.expected, variant.cuts, variant.bytewise))
                sizes += [("incremental", size, 0)] * (2 * ways)
    kept = [
        sizes[index]
        for index in range(recheck.EVERY - 1, len(sizes), recheck.EVERY)
        if sizes[index][1] + sizes[index][2] <= recheck.LARGEST_INPUT and index not in beyond
    ][: recheck.LIMIT]
    asked = Counter(size[0] for size in sizes)
    rounds = recheck.soaked(kept, lambda size: size[0], lambda size: size[1] + size[2], asked)
    # Then each one-shot capability is asked again after other questions (check/reuse.py); an
    # incremental decoder only where it can be asked again (a program saying reuse=yes), which
    # a codec answering every question need not be: not counted.
    decoding = any(isinstance(vector, DecodeVector) for vector in vectors)
    reused = [(c, size, 0) for c in one_shot if decoding for size in one_shot_sizes()]
    questions = [*sizes, *kept, *rounds, *reused]
    fed, points = sum(size[1] for size in questions), sum(size[2] for size in questions)
    return Workload(len(questions), fed, points, len(questions) - len(sizes))
