"""A large input is given time in proportion to its length (harness/codec/pace.py, PER_BYTE): the
time limit of a question, which a vector never comes near, would fail CPython's own codec for a
hang on a 100 MB `--input-file` (its child takes tens of seconds to read, decode and write back
200 MB of request line on a loaded machine). The evidence that the answer is right: CPython
decodes the same bytes without error, so its codec is conformant on them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

LINE: Final = "The quick brown fox jumps over the lazy dog; naïve café, 東京, Ελληνικά, 😀\n"
"""Mostly ASCII, with 2-, 3- and 4-byte characters."""
DENSE: Final = "😀€éa" * 16 + "\n"
"""Two and a half bytes a character: 100 MB of it is 40 million characters, whose answers fit
the child's default 2048 MiB (100 MB of LINE, 90 million characters, do not: MemoryError)."""


def text_file(path: Path, megabytes: int, text: str = LINE) -> Path:
    """Return `path`, written with about `megabytes` MB of well-formed UTF-8 `text`."""
    line = text.encode("utf-8")
    data = line * (megabytes * 10**6 // len(line))
    data.decode("utf-8")  # CPython finds it well-formed: the codec must answer it so
    path.write_bytes(data)
    return path


def check_input(path: Path, *options: str) -> tuple[int, dict[str, object], str]:
    """Return the exit status, JSON report and standard error of checking CPython's codec,
    in its child process, on the bytes of `path`."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "utf8cert.harness",
            "check",
            "--input-file",
            str(path),
            "--json",
            "-",
            "-q",
            *options,
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    return done.returncode, json.loads(done.stdout), done.stderr


@pytest.mark.slow
def test_a_ten_megabyte_input_is_answered_under_a_one_second_timeout(tmp_path: Path) -> None:
    # 20 MB of request line, hex: one second is too little to move it twice through a pipe
    # and decode it (bench/README.md); the length's allowance adds 100 s.
    status, report, err = check_input(text_file(tmp_path / "ten", 10), "--timeout", "1")
    assert report["differences"] == [], (err, report["differences"])
    assert status == 0 and report["certified"] is True


@pytest.mark.exhaustive
def test_cpython_on_a_hundred_megabyte_input_is_certified(tmp_path: Path) -> None:
    status, report, err = check_input(text_file(tmp_path / "hundred", 100, DENSE))
    assert report["differences"] == [], (err, report["differences"])
    assert status == 0 and report["certified"] is True
