"""Files a user names (a vector file or directory, a baseline, --input-file) are read only when
they are regular files, and vector files and baselines only up to a size: a FIFO, a device or
a symlink to one is one line and exit 2 at once, never a hang or a fill of the memory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.vectors.named_file import LIMIT_VARIABLE, read_named

TIMEOUT = 300  # seconds a run may take on a loaded 2-core machine before the test gives up
BUILTIN = Path(__file__).resolve().parents[2] / "vectors" / "bom.yaml"


def utf8cert(
    *arguments: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "utf8cert.harness", "check", *arguments]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=TIMEOUT, env={**os.environ, **(env or {})}
    )


def special_files(tmp_path: Path) -> dict[str, Path]:
    """Return a FIFO (no writer: opening it for reading would wait), and symlinks to devices."""
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    zero, random = tmp_path / "zero.yaml", tmp_path / "random.yaml"
    zero.symlink_to("/dev/zero")
    random.symlink_to("/dev/urandom")
    return {"a FIFO": fifo, "a character device": zero, "a character device ": random}


@pytest.mark.parametrize("option", ["--vectors", "--baseline", "--input-file"])
def test_a_fifo_or_a_device_is_refused_in_one_line(tmp_path: Path, option: str) -> None:
    for kind, path in special_files(tmp_path).items():
        done = utf8cert(option, str(path))
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1
        assert done.stderr.startswith("utf8cert: error: ")
        assert f"{path.name}" in done.stderr
        assert f"{kind.strip()}, not a regular file" in done.stderr


def test_a_directory_holding_a_fifo_is_refused_too(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "a.yaml")
    done = utf8cert("--vectors", str(tmp_path))
    assert done.returncode == 2
    assert "a.yaml:1: file: a FIFO, not a regular file" in done.stderr


def test_a_symlink_to_a_regular_file_is_read(tmp_path: Path) -> None:
    link = tmp_path / "link.yaml"
    link.symlink_to(BUILTIN)
    assert read_named(link) == BUILTIN.read_bytes()


def test_a_vector_file_over_the_bound_is_refused_and_the_bound_can_be_raised(
    tmp_path: Path,
) -> None:
    large = tmp_path / "large.yaml"
    copy = BUILTIN.read_bytes().replace(b"id: bom-", b"id: copy-bom-")
    large.write_bytes(b"#" * (2 << 20) + b"\n" + copy)
    done = utf8cert("--vectors", str(large), "--quiet", env={LIMIT_VARIABLE: "1"})
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert f"2.0 MiB, more than the 1 MiB read (set {LIMIT_VARIABLE}" in done.stderr
    # Raised, the file is read: its vector copy-bom-1 is found and checked (one vector: the
    # reading is what the bound is about; an id no file read holds is exit 2).
    raised = ("--vectors", str(large), "--vector", "copy-bom-1", "--quiet")
    done = utf8cert(*raised, env={LIMIT_VARIABLE: "3"})
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_an_input_file_larger_than_the_bound_is_still_read(tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    page.write_bytes("naïve café 😀 ".encode() * 100_000)
    done = utf8cert("--input-file", str(page), "--quiet", env={LIMIT_VARIABLE: "1"})
    assert done.returncode == 0, done.stderr
