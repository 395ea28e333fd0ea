"""Every reproducer in docs/findings.md, run as written, prints what the finding says it prints.

A finding is a `## N. title` section; its reproducer is a `sh` block followed by the `text`
block of its output. The commands need only the library they name (and `python`, this
interpreter); where that library or program is not installed here the reproducer is skipped,
saying which, so that a finding is verified wherever its library is, and never silently stale.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from utf8cert.harness.codec.programs.libraries import npm_prefix

FINDINGS = Path(__file__).resolve().parents[2] / "docs" / "findings.md"
SECTION = re.compile(r"^## (\d+)\. (.*?)$(.*?)(?=^## |\Z)", re.MULTILINE | re.DOTALL)
REPRODUCER = re.compile(
    r"^( *)```sh\n(?P<commands>.*?)^ *```\n\s*prints\n\s*^ *```text\n(?P<output>.*?)^ *```",
    re.MULTILINE | re.DOTALL,
)
MISSING = re.compile(
    r"ModuleNotFoundError: No module named '([^']+)'"
    r"|(\S+): command not found"
    r"|Cannot find module '([^']+)'"
)
"""What a shell says when the reproducer's library or program is not installed."""


def findings() -> list[tuple[str, str, str]]:
    """Return (section title, commands, expected output) for each finding's reproducer."""
    cases = []
    for number, title, body in SECTION.findall(FINDINGS.read_text(encoding="utf-8")):
        for match in REPRODUCER.finditer(body):
            commands = textwrap.dedent(match["commands"])
            cases.append((f"{number}. {title}", commands, textwrap.dedent(match["output"])))
    return cases


def test_every_finding_has_a_reproducer_with_its_output() -> None:
    sections = SECTION.findall(FINDINGS.read_text(encoding="utf-8"))
    reproduced = {title for title, _, _ in findings()}
    assert sections, "docs/findings.md has no '## N. title' sections"
    assert [f"{n}. {t}" for n, t, _ in sections if f"{n}. {t}" not in reproduced] == []


@pytest.mark.parametrize(
    ("title", "commands", "expected"), findings(), ids=[case[0][:40] for case in findings()]
)
def test_the_reproducer_prints_what_the_finding_says(
    title: str, commands: str, expected: str
) -> None:
    # `python` in a reproducer is the reader's Python: here, the one running the tests; an npm
    # package is where scripts/install-runtimes installs it.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    modules = npm_prefix() / "node_modules"
    done = subprocess.run(
        ["bash", "-c", commands],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PATH": path, "PYTHONIOENCODING": "utf-8", "NODE_PATH": str(modules)},
        check=False,
    )
    missing = MISSING.search(done.stderr + done.stdout)
    if missing:
        pytest.skip(f"{title}: {missing[1] or missing[2] or missing[3]} is not installed here")
    assert done.stdout == expected, f"{title}\nstderr: {done.stderr}"
