"""The default check fails a table-driven codec with one wrong entry that only the vectors of
vectors/automaton.yaml read (issue 30): an F0 lead taken where a continuation is due after E0,
in the decoder's transition table or in the validator's packed copy of it. Both were certified
before the automaton's vectors (measured against main at 5e32c47: `conformant to RFC 3629`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DFA = ROOT / "bench" / "mutation" / "dfa.py"

WRONG = {
    "transition": (
        "    1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # AFTER_E0",
        "    1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,  # AFTER_E0",
    ),
    "packed": ("    0x11111111112111,  # AFTER_E0", "    0x11112111112111,  # AFTER_E0"),
}


@pytest.mark.slow
@pytest.mark.parametrize("table", sorted(WRONG))
def test_a_wrong_entry_after_e0_fails_the_default_check(table: str, tmp_path: Path) -> None:
    right, wrong = WRONG[table]
    source = DFA.read_text(encoding="utf-8")
    assert source.count(right) == 1
    (tmp_path / "wrong_dfa.py").write_text(source.replace(right, wrong), encoding="utf-8")
    command = [sys.executable, "-m", "utf8cert.harness", "check", "wrong_dfa:Subject"]
    done = subprocess.run(
        [*command, "--in-process", "--quiet"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith("NOT conformant to RFC 3629")
