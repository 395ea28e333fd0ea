"""A run always ends: without --deadline, `check` stops after 2 minutes and 1 s a vector asked
(check/interrupt.py, `default_deadline`), with an INCOMPLETE report that says so and exit 3, so a
codec that answers each question just under its timeout costs minutes, not a day."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from utf8cert.harness.check import interrupt
from utf8cert.harness.cli.main import main

SLOW_CODEC = """
import time

def decode(data):
    time.sleep(0.2)  # a correct codec, slow on every question
    return data.decode("utf-8")
"""


def test_the_default_deadline_grows_with_the_vectors_asked() -> None:
    assert interrupt.default_deadline(0) == 120.0
    assert interrupt.default_deadline(1084) == 120.0 + 1084.0


def test_a_slow_codec_is_stopped_at_the_default_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default made small, so that a slow codec meets it within the test: the run stops
    there, says which deadline, and writes what it checked as INCOMPLETE."""
    monkeypatch.setattr(interrupt, "DEFAULT_DEADLINE_BASE", 1.0)
    monkeypatch.setattr(interrupt, "DEFAULT_DEADLINE_PER_VECTOR", 0.5)
    (tmp_path / "slow_everywhere.py").write_text(SLOW_CODEC)
    monkeypatch.syspath_prepend(str(tmp_path))
    report = tmp_path / "r.json"
    started = time.monotonic()
    arguments = ["check", "slow_everywhere:decode", "--in-process", "--json", str(report)]
    status = main([*arguments, "--vector", "rfc3629-7-1", "--vector", "ovl-1", "-q"])
    assert time.monotonic() - started < 60
    assert status == interrupt.DEADLINE_EXIT
    document = json.loads(report.read_text())
    assert document["complete"] is False and document["certified"] is False
    said = "stopped by the default deadline of 2 s (--deadline S to change it) after "
    assert document["stopped"].startswith(said)
    sys.modules.pop("slow_everywhere", None)


def test_a_deadline_given_wins_over_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(interrupt, "DEFAULT_DEADLINE_BASE", 0.5)
    monkeypatch.setattr(interrupt, "DEFAULT_DEADLINE_PER_VECTOR", 0.0)
    report = tmp_path / "r.json"
    arguments = ["check", "codec:utf-8", "--in-process", "--deadline", "600", "-q"]
    assert main([*arguments, "--vector", "rfc3629-7-1", "--json", str(report)]) == 0
    assert json.loads(report.read_text())["complete"] is True
