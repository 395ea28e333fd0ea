"""What a campaign already knows: the behaviours a finding is deduplicated by, and those a
baseline lists as known deviations.

A behaviour is the grouped check report's key (harness/check/behaviour.py: the direction, what
the codec did, and the detail that separates bugs of one act, such as the kind of ill-formed
sequence let through), so one bug is one finding here as it is one group there. A campaign
records one finding per new behaviour (the first input that shows it, with every other
capability that differs on that input). A deviation of a `utf8cert check --write-baseline` file
makes the behaviour of its vector known, whichever variant it was seen in: not a finding, and
the campaign goes on. So a codec known to write U+FFFD for a lone surrogate is still caught
accepting an overlong.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path
from typing import cast

from utf8cert.harness.check.baseline import load_baseline
from utf8cert.harness.check.behaviour import OFFSET, Behaviour, behaviour_of
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.vectors.model import DecodeVector, Vector, VectorSet

OFFSET_DETAILS = ("", "before the ill-formed bytes", "inside the ill-formed bytes")
"""Where a wrong error offset may point (behaviour.py). A baseline keeps that an offset was
wrong, not where it pointed: a known wrong offset is known wherever it points, past the
ill-formed bytes too, where the grouped report calls it letting them through."""


def detail_stem(difference: Difference) -> str:
    """Return the detail of a difference's behaviour as a file-name part ('surrogate'; '' when
    the behaviour has none), to tell apart findings of one kind of difference."""
    return re.sub(r"[^a-z0-9]+", "-", behaviour_of(difference).detail.lower()).strip("-")


def _baseline_difference(
    vector: Vector, variant: str, capability: Capability, what: str
) -> Difference:
    """Return a baseline deviation as the difference it stands for, on the vector as it is
    (where an offset pointed, and the codec's answer, a baseline does not keep)."""
    data = vector.data if isinstance(vector, DecodeVector) else vector.scalars
    return Difference(vector.id, variant, capability, "must", what, data, "", "", (0, len(data)))


def known_behaviours(
    baseline: str | Path | None,
    vectors: VectorSet,
    *,
    spec: str | None = None,
    profile: str | None = None,
    any_codec: bool = False,
) -> frozenset[Behaviour]:
    """Return the behaviours of a baseline file's deviations (empty for None), each read off
    the vector it names among `vectors` (a deviation of a vector not among them is skipped).
    Given the `spec` (and `profile`, None for RFC 3629) of the codec fuzzed, a baseline recorded
    for another codec or profile, or for none, is refused as `check` refuses it, unless
    `any_codec` (baseline.py's `matching`).

    Raises BaselineError (one line) for a malformed or refused file, OSError for one that cannot
    be read.
    """
    if baseline is None:
        return frozenset()
    recorded = load_baseline(baseline)
    if spec is not None:
        recorded = recorded.matching(spec, profile, any_codec)
    by_id = {vector.id: vector for vector in vectors}
    known = set()
    for vector_id, variant, capability, what in recorded:
        vector = by_id.get(vector_id)
        if vector is None:
            continue
        named = cast(Capability, capability)  # load_baseline refuses any other name
        deviation = _baseline_difference(vector, variant, named, what)
        found = behaviour_of(deviation)
        known.add(found)
        if found.what == OFFSET:
            known.update(Behaviour(found.direction, OFFSET, at) for at in OFFSET_DETAILS)
            past = dataclasses.replace(deviation, what="accepted ill-formed input")
            known.add(behaviour_of(past))
    return frozenset(known)


def unknown(differences: Iterable[Difference], known: frozenset[Behaviour]) -> list[Difference]:
    """Return the differences whose behaviour is not in `known`, in their order (all of them,
    and no behaviour worked out, when nothing is known)."""
    if not known:
        return list(differences)
    return [difference for difference in differences if behaviour_of(difference) not in known]
