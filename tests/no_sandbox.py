"""A PATH without bwrap, for the tests of the process-only boundary (harness/codec/sandbox.py
then runs a codec's child as it is, as on a machine without bubblewrap)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

TOOLS = ("sh", "sleep", "env", "setsid", "cat", "kill")
"""The programs the tests' codecs start by name."""


def path_without_bwrap(directory: Path) -> str:
    """Return a PATH of `directory`, made to hold links to TOOLS, and the interpreter's
    directory: everything the tests' programs run, and no bwrap."""
    directory.mkdir(parents=True, exist_ok=True)
    for tool in TOOLS:
        found = shutil.which(tool)
        if found is not None and not (directory / tool).exists():
            (directory / tool).symlink_to(found)
    return os.pathsep.join([str(directory), str(Path(sys.executable).parent)])
