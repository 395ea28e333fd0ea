"""Processes a test started that outlived it.

Each run is tagged with an environment variable (TAG) that every process it starts inherits
(utf8cert passes its environment to isolated codecs, `cmd:` programs and libFuzzer); afterwards
/proc is searched for the tag. A process that died but was not reaped yet (a zombie) shows no
environment, and is not counted: it holds nothing.
"""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

TAG = "UTF8CERT_TEST_TAG"


def tagged_environment(**extra: str) -> tuple[dict[str, str], str]:
    """Return this environment with a fresh tag (and `extra` variables), and the tag."""
    tag = uuid.uuid4().hex
    return {**os.environ, TAG: tag, **extra}, tag


def tagged(tag: str) -> list[str]:
    """Return 'PID COMMAND LINE' of every live process carrying `tag` in its environment."""
    wanted = f"{TAG}={tag}".encode()
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if wanted not in environ.read_bytes().split(b"\0"):
                continue
            command = (environ.parent / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue  # gone meanwhile, or not ours
        found.append(f"{environ.parent.name} {command.decode(errors='replace').strip()}")
    return found


def survivors(tag: str, grace: float = 10.0) -> list[str]:
    """Return the processes carrying `tag` that are still alive after up to `grace` seconds
    ([] as soon as none is: a process told to die by its dying parent takes a moment)."""
    deadline = time.monotonic() + grace
    while (left := tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left
