"""A program that lies about itself is blamed once, never on innocent vectors; utf8cert's own
failure is utf8cert's error (issue 23)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]


def check(*words: str, files: int | None = None) -> subprocess.CompletedProcess[str]:
    """Return the finished `utf8cert check WORDS`, under a limit of `files` descriptors."""

    def limited() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    command = [sys.executable, "-m", "utf8cert.harness", "check", *words]
    return subprocess.run(
        command, capture_output=True, text=True, preexec_fn=limited, timeout=600, check=False
    )


def test_a_program_whose_handshake_changes_when_restarted_is_one_protocol_failure(
    tmp_path: Path,
) -> None:
    program = (
        f"cmd:{sys.executable} {TESTS / 'support' / 'shifting_program.py'} {tmp_path / 'mark'}"
    )
    done = check(program, "--json", "-")
    assert done.returncode == 1, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    protocol = [d for d in document["differences"] if d["what"] == "broke the protocol"]
    assert len(protocol) == 1
    assert (
        "announces another handshake: version 1, decode, not version 1, decode replace"
        in (protocol[0]["actual"])
    )
    # The crash that made it restart, on a vector holding C0, and nothing on any other vector.
    crashed = {d["vector"] for d in document["differences"] if d["what"] == "crashed"}
    assert len(crashed) == 1
    assert len(document["differences"]) == 2
    skipped = document["coverage"]["decode"]["skipped_for"]
    assert any("announces another handshake" in reason for reason in skipped)
    assert document["certified"] is False


def test_running_out_of_descriptors_is_utf8certs_own_one_line_error() -> None:
    program = f"cmd:{sys.executable} {TESTS / 'support' / 'hostile_programs.py'} exit"
    done = check(program, files=16)
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("utf8cert: error: cannot start ")
    assert "Too many open files (utf8cert's own limit" in line
