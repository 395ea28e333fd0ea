"""`utf8cert` in hostile surroundings: an ASCII-only standard output, a codec that closes file
descriptor 1, a working directory deleted under it, a codec's thread that never ends. Each is a
correct report or one line and exit 2, never a traceback, and the command always ends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.codec.spec import load_codec

MODULES = Path(__file__).resolve().parents[1] / "hostile_imports"
TIMEOUT = 300  # seconds a run may take on a loaded 2-core machine before the test gives up


def utf8cert(*arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "check", *arguments],
        cwd=MODULES,
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=TIMEOUT,
    )


@pytest.mark.slow
def test_an_ascii_only_output_gets_the_report_with_escapes() -> None:
    done = utf8cert("codec:latin-1", "--vector", "imp-1", "-v", PYTHONIOENCODING="ascii")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "FAIL" in done.stdout
    assert done.stdout.isascii() and "\\u" in done.stdout


@pytest.mark.slow
def test_a_codec_closing_the_standard_output_gets_its_report() -> None:
    # The codec closes only its own copy of standard output (harness/codec/stdout.py).
    done = utf8cert("close_stdout:decode", "--vector", "imp-1")
    assert done.returncode == 0, done.stderr
    assert "conformant to RFC 3629" in done.stdout


def test_a_codec_thread_that_never_ends_does_not_keep_utf8cert_running() -> None:
    done = utf8cert("lingering_thread:decode", "--vector", "imp-1", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "conformant" in done.stdout


@pytest.mark.slow
def test_a_deleted_working_directory_still_checks_in_process_and_isolated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    for isolate in (False, True):
        codec = load_codec("codec:utf-8", isolate=isolate)
        try:
            assert codec.decode(b"\xc3\xa9").value == "\xe9"  # type: ignore[union-attr]
        finally:
            codec.close()
    done = subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", "check", "--quiet"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
