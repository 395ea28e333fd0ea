"""Every reproducer in docs/findings.md, run as written, prints what the finding says it prints.

A finding is a `## N. title` section; its reproducer is a `sh` block followed by the `text`
block of its output. The commands need only the library they name (and `python`, this
interpreter); where that library or program is not installed here the reproducer is skipped,
saying which, so that a finding is verified wherever its library is, and never silently stale.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from utf8cert.harness.world.catalog import registry
from utf8cert.harness.world.programs.libraries import npm_prefix

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
    r"|Can't locate (\S+) in @INC"
    r"|cannot load such file -- (\S+)"
    r'|Class "(\w+)" not found'
    r"|Package (\S+) was not found in the pkg-config search path"
    r"|fatal error: (\S+): No such file or directory"
    r"|cannot find -l([^\s:]+)"
    r"|error: package (\S+) does not exist"
)
"""What a shell says when the reproducer's library or program is not installed: Python, Node,
Perl, Ruby, PHP, pkg-config, a C header, a C library, a Java package (its jar)."""
WHERE = re.compile(r"^- \*\*Where:\*\*.*?(?=^- \*\*)", re.MULTILINE | re.DOTALL)
"""A finding's Where line (it may wrap), up to the next field."""

ABSENT = {
    "python": "python -c 'import no_such_module_utf8cert'",
    "node": "node -e 'require(\"no-such-module-utf8cert\")'",
    "perl": "perl -MNo::Such::Utf8cert -e 1",
    "ruby": "ruby -rno_such_utf8cert -e 1",
    "php": "php -r 'new NoSuchUtf8cert;'",
    "pkg-config": "pkg-config --cflags no-such-utf8cert",
    "cc header": "echo '#include <no_such_utf8cert.h>' | cc -x c -c - -o /dev/null",
    "cc library": "echo 'int main(void){return 0;}' | cc -x c - -lno_such_utf8cert -o /dev/null",
}
"""A command per kind of reproducer that names a library that is installed nowhere."""


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
        absent = next(group for group in missing.groups() if group)
        pytest.skip(f"{title}: {absent} is not installed here")
    assert done.stdout == expected, f"{title}\nstderr: {done.stderr}"


def named_adapters() -> list[tuple[str, str, str]]:
    """Return (section title, its Where line, adapter name) for each adapter a finding's
    `**Where:**` line names (`adapter `NAME``, or NAME in backquotes among several)."""
    names = set(registry())
    cases = []
    for number, title, body in SECTION.findall(FINDINGS.read_text(encoding="utf-8")):
        where = WHERE.search(body)
        assert where is not None, f"{number}. {title} has no **Where:** line"
        for name in re.findall(r"`([a-z0-9-]+)`", where[0]):
            if name in names:
                cases.append((f"{number}. {title}", where[0], name))
    return cases


@pytest.mark.parametrize(
    ("title", "where", "name"),
    named_adapters(),
    ids=[f"{c[0][:30]} {c[2]}" for c in named_adapters()],
)
def test_the_finding_names_the_version_installed_here(title: str, where: str, name: str) -> None:
    # The version the adapter reports now (what the matrix records at run time) is the one the
    # finding was verified on: each of its numbers is written in the finding's Where line, so
    # that a finding is never left naming a version nobody ran it on.
    entry = registry()[name]
    reason = entry.unavailable()
    if reason is not None:
        pytest.skip(f"{title}: adapter:{name} is unavailable here: {reason}")
    numbers = re.findall(r"\d+(?:\.\d+)+", entry.version())
    assert numbers, f"adapter:{name} reports no version: {entry.version()!r}"
    missing = [number for number in numbers if number not in where]
    assert not missing, f"{title}: {name} is {entry.version()!r} here; the finding says {where!r}"


@pytest.mark.parametrize("kind", sorted(ABSENT))
def test_a_missing_library_is_recognised_as_missing(kind: str) -> None:
    # What each toolchain really says for a library that is not installed, so a reproducer is
    # skipped (not failed) where its library is absent; the tool itself must be here to ask it.
    tool = kind.split()[0]
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed here")
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(
        ["bash", "-c", ABSENT[kind]],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PATH": path},
        check=False,
    )
    missing = MISSING.search(done.stderr + done.stdout)
    assert done.returncode != 0
    assert missing, done.stderr
    assert "utf8cert" in next(group for group in missing.groups() if group).lower()
