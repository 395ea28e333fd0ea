"""Codec modules hostile at import (tests/hostile_imports/) under `utf8cert check --isolate`:
the judge never imports them itself, so none of them can end, crash, bloat or rewrite it. A
module that cannot be imported in the child is a one-line load error (exit 2), within
`--timeout`; one that can is judged on what its child answers (a failing report, exit 1).
Never exit 0, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.leftovers import survivors, tagged_environment

MODULES = Path(__file__).resolve().parents[1] / "hostile_imports"
TIMEOUT = 300  # seconds a run may take on a loaded 2-core machine before the test gives up
VECTOR = "imp-1"  # FE or FF: Latin-1 reads it as a character, a wrong answer

LOAD_ERRORS = {
    "exit_at_import": "SystemExit: 0",
    "hang_at_import": "no handshake within 5 s",
    "segfault_at_import": "killed by SIGSEGV before the handshake",
    "interrupt_at_import": "KeyboardInterrupt",
    "allocate_at_import": "MemoryError",
}
"""Each module the child cannot import, and what the one line says of why."""


def isolated(module: str) -> subprocess.CompletedProcess[str]:
    """Return the finished `utf8cert check MODULE:decode --isolate --timeout 5` on one vector."""
    env, tag = tagged_environment()
    command = [sys.executable, "-m", "utf8cert.harness", "check", f"{module}:decode", "--isolate"]
    done = subprocess.run(
        [*command, "--timeout", "5", "--vector", VECTOR],
        cwd=MODULES,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert survivors(tag) == []
    return done


@pytest.mark.parametrize("module", sorted(LOAD_ERRORS))
def test_a_module_the_child_cannot_import_is_a_one_line_load_error(module: str) -> None:
    done = isolated(module)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"utf8cert: error: codec spec '{module}:decode': ")
    assert LOAD_ERRORS[module] in done.stderr


@pytest.mark.parametrize("module", ["exit_at_exit", "patch_judge"])
def test_a_wrong_module_that_would_end_or_patch_the_judge_still_fails(module: str) -> None:
    done = isolated(module)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "FAIL" in done.stdout + done.stderr
