"""What a program starts dies with it, even in a session of its own: a grandchild that calls
setsid on every restart of its program, a daemon started at the program's start. Counted by the
tag tests/support/leftovers.py puts in the environment, which every descendant inherits."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from support.leftovers import TAG, survivors, tagged, tagged_environment

from utf8cert.harness.codec.interface import Failed
from utf8cert.harness.codec.spec import load_codec

PROGRAM = Path(__file__).with_name("hostile_program.py")
TIMEOUT = 600  # seconds a run may take on a loaded 2-core machine before the test gives up

pytestmark = pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc")


def spec(mode: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(PROGRAM), "2", mode])


@pytest.mark.parametrize("mode", ["escape", "daemon"])
@pytest.mark.slow
def test_nothing_a_program_started_outlives_utf8cert(mode: str) -> None:
    env, tag = tagged_environment()
    done = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "check", spec(mode), "--quiet"],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == (1 if mode == "escape" else 0), done.stderr
    assert survivors(tag) == []


def test_what_a_crashed_program_started_dies_before_the_next_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, tag = tagged_environment()
    monkeypatch.setenv(TAG, tag)
    codec = load_codec(spec("escape"), timeout=60)
    try:
        for _ in range(3):
            outcome = codec.decode(b"\xc0")
            assert isinstance(outcome, Failed) and outcome.kind == "crash"
            # the program is gone, and no grandchild of it is left (this process aside)
            assert [line for line in tagged(tag) if int(line.split()[0]) != os.getpid()] == []
    finally:
        codec.close()
    assert survivors(tag) == []
