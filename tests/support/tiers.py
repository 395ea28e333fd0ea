"""Splits a long parametrized sample between the test tiers: one of each kind in the default tier
and the rest slow (first_of_each), or one of each kind slow and the rest exhaustive (tiered)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import pytest


def tiered(values: Sequence[Any], ids: Sequence[str], kinds: Sequence[Hashable]) -> list[Any]:
    """Return `values` as pytest parameters named by `ids`: the first value of each kind (its
    entry in `kinds`, e.g. the level a mutant is killed at) marked slow, so that .ci/run judges
    one of every kind, the rest exhaustive (the weekly run judges them all: docs/versions.md,
    "Test tiers"); an empty list for no values."""
    seen: set[Hashable] = set()
    parameters = []
    for value, name, kind in zip(values, ids, kinds, strict=True):
        tier = pytest.mark.exhaustive if kind in seen else pytest.mark.slow
        seen.add(kind)
        parameters.append(pytest.param(value, id=name, marks=tier))
    return parameters


def first_of_each(
    values: Sequence[tuple[Any, ...]], ids: Sequence[str], kinds: Sequence[Hashable]
) -> list[Any]:
    """Return `values` (each a tuple of a test's arguments) as pytest parameters named by `ids`:
    the first value of each kind in the default tier, so that `python -m pytest` judges one of
    every kind, the rest marked slow (.ci/run judges them all); an empty list for no values."""
    seen: set[Hashable] = set()
    parameters = []
    for value, name, kind in zip(values, ids, kinds, strict=True):
        marks = [pytest.mark.slow] if kind in seen else []
        seen.add(kind)
        parameters.append(pytest.param(*value, id=name, marks=marks))
    return parameters
