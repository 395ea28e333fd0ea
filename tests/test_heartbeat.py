"""The test session's sign of life (heartbeat.py): a test running past the silence is named, with
how long it has run, while it runs; and the suite's progress is shown as n of N."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]

SLOW_TEST = """
import time

def test_quick():
    pass

def test_sleeps():
    time.sleep(5)
"""

CONFTEST = f"""
import sys

sys.path.insert(0, {str(Path(__file__).parent)!r})  # in the xdist workers too
from support.heartbeat import Heartbeat


def pytest_configure(config):
    config.pluginmanager.register(Heartbeat(config, silence=0.5), "utf8cert-heartbeat")
"""


@pytest.mark.parametrize("workers", [("-p", "no:xdist"), ("-n", "2")], ids=["alone", "xdist"])
@pytest.mark.slow
def test_a_test_running_past_the_silence_is_named_while_it_runs(
    pytester: pytest.Pytester, workers: tuple[str, ...]
) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_slow=SLOW_TEST)
    result = pytester.runpytest("-p", "no:cacheprovider", *workers)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        ["[[]still running, * since a test ended: test_slow.py::test_sleeps (* s)[]]"]
    )
    assert "test_quick (" not in result.stdout.str()  # ended: not under way


@pytest.mark.slow
def test_the_suite_shows_its_progress_as_n_of_n() -> None:
    # This repository's own configuration (pyproject's addopts and console_output_style).
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "tests/test_supported_ranges.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^tests/test_supported_ranges\.py \.\s+\[1/1\]$", done.stdout, re.M)
