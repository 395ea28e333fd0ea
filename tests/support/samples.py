"""Picks a few built-in vectors of each kind, for a test of one rule that needs a real check
but not of every vector: the check judges a vector the same whatever else it is run with, at a
twentieth of the cost of the whole suite (tests/README.md, "What sits in which tier")."""

from __future__ import annotations

from functools import cache

from support.shipped_vectors import shipped_vectors


def kind(vector_id: str) -> str:
    """Return the kind of a vector id, its prefix ("edge" of "edge-9"); the id itself for an
    id without a number."""
    prefix, _, number = vector_id.rpartition("-")
    return prefix if prefix and number.isdigit() else vector_id


@cache
def few_of_each_kind(per: int = 3) -> tuple[str, ...]:
    """Return the ids of the first `per` built-in vectors of each kind (each id prefix: edge,
    dfa, sec, enc, ...), in the built-in order: decoding and encoding vectors, well-formed and
    ill-formed, of every theme; empty for per < 1."""
    taken: dict[str, int] = {}
    chosen = []
    for vector in shipped_vectors():
        group = kind(vector.id)
        if taken.get(group, 0) < per:
            taken[group] = taken.get(group, 0) + 1
            chosen.append(vector.id)
    return tuple(chosen)


def options(ids: tuple[str, ...]) -> list[str]:
    """Return `--vector ID` for each id, as `utf8cert check` takes them."""
    return [word for vector_id in ids for word in ("--vector", vector_id)]
