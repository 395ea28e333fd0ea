"""A slow codec is not a hung one: a question fails for a timeout only after the whole
`--timeout`, and the reproducer printed for a timeout reproduces it (codec/pace.py).

The codec is Node.js's own TextDecoder (examples/node/textdecoder.js), made to take 2 s on one
input, F0 90 80 80, hundreds of times slower than its other answers.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "node" / "textdecoder.js"
SLOW_INPUT = "f0908080"
# Node has no sleep: Atomics.wait on a buffer nobody notifies blocks the thread for 2000 ms.
SLEEP = (
    f'  if (line === "decode {SLOW_INPUT}") '
    "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);\n"
)

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def slow_program(directory: Path) -> Path:
    """Return a copy of the node example that answers `decode f0908080` after 2 s."""
    source = EXAMPLE.read_text(encoding="utf-8")
    opening = "function answer(line) {\n"
    assert opening in source
    program = directory / "slow.js"
    program.write_text(source.replace(opening, opening + SLEEP), encoding="utf-8")
    return program


def check(directory: Path, *options: str) -> tuple[int, dict[str, Any]]:
    """Return the exit status and JSON report of checking the slow program."""
    spec = "cmd:node " + shlex.quote(str(slow_program(directory)))
    command = ["utf8cert", "check", spec, "--json", "-", *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


@pytest.mark.slow
def test_a_program_slow_on_one_input_is_certified_at_the_default_timeout(tmp_path: Path) -> None:
    status, document = check(tmp_path)
    assert [d for d in document["differences"] if d["level"] == "must"] == []
    assert document["summary"]["conformant"] is True
    assert all(counted["certified"] for counted in document["coverage"].values())
    assert status == 0


@pytest.mark.slow
def test_a_timeout_shorter_than_the_answer_fails_it_and_its_reproducer_reproduces(
    tmp_path: Path,
) -> None:
    status, document = check(tmp_path, "--timeout", "1.5")
    assert status == 1
    [timeout] = [d for d in document["differences"] if d["level"] == "must"]
    assert timeout["what"] == "timed out"
    assert timeout["actual"].startswith("timeout: no answer within 1.5 s")
    words = shlex.split(timeout["reproduce"])
    assert words[words.index("--timeout") + 1] == "1.5"
    again = subprocess.run(
        [*words, "--json", "-"], capture_output=True, text=True, timeout=600, check=False
    )
    assert again.returncode == 1, again.stderr
    [reproduced] = [d for d in json.loads(again.stdout)["differences"] if d["level"] == "must"]
    assert reproduced["what"] == "timed out"
