"""Shared test configuration: the peer suites' location, Hypothesis profiles, and the sign of
life of a long session (heartbeat.py)."""

from __future__ import annotations

import os

import pytest
from heartbeat import Heartbeat
from hypothesis import HealthCheck, settings

from utf8cert.harness.codec.sandbox import WRITABLE_VARIABLE

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


def pytest_configure(config: pytest.Config) -> None:
    """Register the heartbeat (it beats in the session that writes to the terminal alone)."""
    config.pluginmanager.register(Heartbeat(config), "utf8cert-heartbeat")


@pytest.fixture(autouse=True, scope="session")
def _children_may_write_the_test_directories(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Let the codecs under test write their marks (HOSTILE_MARK, ...) into the tests' temporary
    directories, which the OS sandbox would otherwise keep read-only (harness/codec/sandbox.py);
    tests/sandbox/ removes this to show the sandbox whole."""
    os.environ[WRITABLE_VARIABLE] = str(tmp_path_factory.getbasetemp())
