"""A codec's child gets none of the judge's environment but what its runtime needs and what the
user names (harness/codec/child_environment.py): a CI job's secret, here a made-up GITHUB_TOKEN,
cannot be read by the codec, and so cannot reach a report, sandboxed or not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.no_sandbox import environment_without_bwrap

from utf8cert.harness.codec.child_environment import passed

SECRET = "secret123"

TELLING_CODEC = """
import os

def decode(data):
    # A correct decoder, but for what it finds in its environment: it writes that out as text.
    return os.environ.get("GITHUB_TOKEN", "") + data.decode("utf-8")
"""


def check(directory: Path, env: dict[str, str], *options: str) -> subprocess.CompletedProcess[str]:
    """Return `utf8cert check telling:decode --input 41 --json -` run in `directory`."""
    (directory / "telling.py").write_text(TELLING_CODEC)
    argv = [sys.executable, "-m", "utf8cert.harness", "check", "telling:decode", "--input", "41"]
    return subprocess.run(
        [*argv, "--json", "-", *options],
        cwd=directory,
        env={**env, "GITHUB_TOKEN": SECRET},
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize("boundary", ["as here", "process only"])
def test_a_secret_in_the_judges_environment_is_not_the_codecs(
    tmp_path: Path, boundary: str
) -> None:
    env = dict(os.environ) if boundary == "as here" else environment_without_bwrap(tmp_path)
    done = check(tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr  # it read no token: a correct decoder
    assert SECRET not in done.stdout + done.stderr
    assert json.loads(done.stdout)["summary"]["conformant"] is True


def test_a_variable_named_with_sandbox_env_is_passed(tmp_path: Path) -> None:
    """The same codec given the variable on purpose writes it out: a `must` difference, which
    shows the variable did reach it (and the reproducer carries the option)."""
    done = check(tmp_path, dict(os.environ), "--sandbox-env", "GITHUB_TOKEN")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["summary"]["conformant"] is False
    assert "--sandbox-env GITHUB_TOKEN" in done.stdout


def test_what_passes_is_the_runtimes_needs_the_named_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("UTF8CERT_SANDBOX_ENV", "EXTRA_ONE:EXTRA_TWO")
    given = {
        "PATH": "/usr/bin",
        "LC_CTYPE": "C.UTF-8",
        "PYTHONPATH": "/x",
        "UTF8CERT_NATIVE_RUNTIME": "/r.so",
        "AWS_SECRET_ACCESS_KEY": "k",
        "GITHUB_TOKEN": "t",
        "EXTRA_ONE": "1",
        "EXTRA_TWO": "2",
        "NAMED": "3",
    }
    assert passed(given, ["NAMED"]) == {
        "PATH": "/usr/bin",
        "LC_CTYPE": "C.UTF-8",
        "PYTHONPATH": "/x",
        "UTF8CERT_NATIVE_RUNTIME": "/r.so",
        "EXTRA_ONE": "1",
        "EXTRA_TWO": "2",
        "NAMED": "3",
    }
    assert passed({}) == {}


def test_a_name_that_is_no_variables_is_a_one_line_error(tmp_path: Path) -> None:
    done = check(tmp_path, dict(os.environ), "--sandbox-env", "A=B")
    assert done.returncode == 2
    assert done.stderr == "utf8cert: error: --sandbox-env 'A=B': not the name of a variable\n"
