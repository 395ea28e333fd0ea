"""Splits a long parametrized sample between the slow and the exhaustive test tiers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest


def tiered(values: Sequence[Any], ids: Sequence[str]) -> list[Any]:
    """Return `values` as pytest parameters named by `ids`: one in four (the first, the fifth, …)
    marked slow, so that .ci/run judges a spread of the sample, the rest exhaustive (the weekly
    run judges them all: docs/versions.md, "Test tiers"); an empty list for no values."""
    return [
        pytest.param(
            value,
            id=name,
            marks=pytest.mark.slow if index % 4 == 0 else pytest.mark.exhaustive,
        )
        for index, (value, name) in enumerate(zip(values, ids, strict=True))
    ]
