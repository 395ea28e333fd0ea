"""Shared test configuration: the peer suites' location and Hypothesis profiles."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Deterministic by default (CI and a loaded 2-core machine): derandomized, no deadline.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("explore", deadline=None, max_examples=10_000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
