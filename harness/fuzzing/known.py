"""What a campaign already knows: the behaviours a finding is deduplicated by, and those a
baseline lists as known deviations.

A behaviour is what a codec does wrong with one kind of input, whatever the input: the
capability, the `what` of the difference, and the kind of input it was shown on (the RFC 3629
§4 kind of the ill-formed sequence the difference points at, or of the first value an encoder
must refuse; `well-formed` otherwise). A campaign records one finding per new behaviour (the
first input that shows it, with every other capability that differs on that input). A deviation
of a `utf8cert check --write-baseline` file makes the behaviour of its vector known, whichever
variant it was seen in: not a finding, and the campaign goes on. So a codec known to write
U+FFFD for a lone surrogate is still caught accepting an overlong.

`behaviour` is the one place the key is made: the grouped check report's key
(harness/check/behaviour.py, issue 11) replaces it once it lands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

from utf8cert.harness.check.baseline import load_baseline
from utf8cert.harness.check.compare import Difference
from utf8cert.harness.check.expected import expectation_for
from utf8cert.harness.vectors.model import DecodeVector, VectorSet
from utf8cert.reference.encoder import refusal

Behaviour = tuple[str, str, str]
"""(capability, what, kind of input)."""
WELL_FORMED: Final = "well-formed"


def _encoded_kind(values: Sequence[int]) -> str:
    """Return the kind of the first value of `values` an encoder must refuse, else WELL_FORMED."""
    for value in values:
        kind = refusal(value)
        if kind is not None:
            return str(kind)
    return WELL_FORMED


def _decoded_kind(data: bytes, at: int | None) -> str:
    """Return the kind of the ill-formed sequence of `data` at offset `at` (else its first),
    WELL_FORMED for well-formed input."""
    errors = expectation_for(data).errors
    if not errors:
        return WELL_FORMED
    pointed = [error for error in errors if at is not None and error.offset <= at]
    return str((pointed[-1] if pointed else errors[0]).kind)


def behaviour(difference: Difference) -> Behaviour:
    """Return the behaviour a difference shows: its capability, what went wrong, and on what
    kind of input."""
    data = difference.input
    if isinstance(data, tuple):
        kind = _encoded_kind(data)
    else:
        kind = _decoded_kind(data, difference.marks[0][0] if difference.marks else None)
    return (difference.capability, difference.what, kind)


def known_behaviours(baseline: str | Path | None, vectors: VectorSet) -> frozenset[Behaviour]:
    """Return the behaviours of a baseline file's deviations (empty for None), each read off
    the vector it names among `vectors` (a deviation of a vector not among them is skipped).

    Raises BaselineError (one line) for a malformed file, OSError for one that cannot be read.
    """
    if baseline is None:
        return frozenset()
    by_id = {vector.id: vector for vector in vectors}
    known = set()
    for vector_id, _, capability, what in load_baseline(baseline):
        vector = by_id.get(vector_id)
        if vector is None:
            continue
        if isinstance(vector, DecodeVector):
            kind = _decoded_kind(vector.data, None)
        else:
            kind = _encoded_kind(vector.scalars)
        known.add((capability, what, kind))
    return frozenset(known)


def unknown(differences: Iterable[Difference], known: frozenset[Behaviour]) -> list[Difference]:
    """Return the differences whose behaviour is not in `known`, in their order (all of them,
    and no behaviour worked out, when nothing is known)."""
    if not known:
        return list(differences)
    return [difference for difference in differences if behaviour(difference) not in known]
