"""Standard output belongs to utf8cert while an in-process codec runs: `--json -` stays one JSON
document whatever the codec prints, and what it prints is on standard error (issue 23)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]


def check(spec: str, *options: str) -> subprocess.CompletedProcess[str]:
    """Return the finished `utf8cert check SPEC --quiet --json - OPTIONS`."""
    command = [sys.executable, "-m", "utf8cert.harness", "check", spec, "--quiet", "--json", "-"]
    command += options
    environment = dict(os.environ, PYTHONPATH=str(TESTS))
    return subprocess.run(command, capture_output=True, text=True, env=environment, check=False)


@pytest.mark.parametrize("where", [("--in-process",), ()], ids=["in process", "isolated"])
@pytest.mark.parametrize(
    "spec", ["support.printing_codecs:Printing", "support.printing_codecs:ClosingStdout"]
)
@pytest.mark.slow
def test_the_json_report_on_stdout_is_one_document_whatever_the_codec_does(
    spec: str, where: tuple[str, ...]
) -> None:
    done = check(spec, *where)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)  # the whole of stdout: nothing before or after it
    assert document["codec"] == spec
    assert document["summary"]["conformant"] is True


@pytest.mark.slow
def test_what_the_codec_prints_is_on_stderr() -> None:
    done = check(
        "support.printing_codecs:Printing", "--in-process"
    )  # fd 1 diverted in this process
    assert '{"forged": "json"}' in done.stderr
    assert "forged" not in done.stdout
