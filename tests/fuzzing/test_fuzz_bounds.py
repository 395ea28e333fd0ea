"""`utf8cert fuzz` bounded: a module that ends the process at import is a one-line error (not a
campaign that passes with exit 0), and a second campaign on an artifacts directory in use is
refused with one line naming it, while the first runs on; the lock goes with the campaign."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

import pytest

TESTS: Final = Path(__file__).resolve().parents[1]
TIMEOUT: Final = 300


def utf8cert(*arguments: str, path: Path) -> subprocess.CompletedProcess[str]:
    """Return the finished `utf8cert ARGUMENTS`, its modules looked for in `path` too."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), str(TESTS)])}
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", *arguments],
        env=environment,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


@pytest.mark.parametrize(
    "exit_call", ["os._exit(0)", "sys.exit(0)", "os._exit(3)"], ids=["_exit0", "exit0", "_exit3"]
)
def test_a_module_that_exits_at_import_is_a_one_line_error(tmp_path: Path, exit_call: str) -> None:
    (tmp_path / "leaves.py").write_text(f"import os, sys\n{exit_call}\n")
    artifacts = tmp_path / "artifacts"
    run = utf8cert(
        "fuzz", "leaves:Codec", "--runs", "10", "--artifacts", str(artifacts), path=tmp_path
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("utf8cert: error: codec spec 'leaves:Codec': ")
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert not artifacts.exists()  # refused before the campaign started


@pytest.mark.slow
def test_a_second_campaign_on_one_artifacts_directory_is_refused(tmp_path: Path) -> None:
    artifacts = tmp_path / "artifacts"
    first = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "utf8cert.harness",
            "fuzz",
            "codec:utf-8",
            "-q",
            "--max-time",
            "200",
            "--artifacts",
            str(artifacts),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        log = artifacts / "libfuzzer.log"  # opened once the directory is the campaign's
        while not log.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert log.exists() and first.poll() is None
        second = utf8cert(
            "fuzz", "codec:utf-8", "--runs", "10", "--artifacts", str(artifacts), path=tmp_path
        )
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr == (
            f"utf8cert: error: --artifacts {artifacts}: another campaign is running in this "
            "directory (one at a time: wait for it, or name another directory)\n"
        )
        assert first.poll() is None  # the first runs on
        first.send_signal(signal.SIGINT)
        assert first.wait(120) in (0, 1)  # stopped by the user: the campaign's own verdict
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    third = utf8cert(
        "fuzz", "codec:utf-8", "--runs", "10", "--artifacts", str(artifacts), path=tmp_path
    )
    assert third.returncode == 0, third.stderr  # the lock went with the first campaign
