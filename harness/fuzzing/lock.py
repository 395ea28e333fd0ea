"""One campaign at a time in an artifacts directory: an exclusive lock on a file in it.

Two campaigns on one directory race: each rewrites the other's target script, corpus and pending
findings (a segfault in one, a failed rename in the other). So a campaign takes a `flock` on
LOCK_NAME in the directory for as long as it runs and triages, and a second one is refused with
one line naming the directory. The kernel lets the lock go when its holder's file is closed or
the process dies (even by SIGKILL), so a stale lock file never blocks the next campaign.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import BinaryIO, Final

LOCK_NAME: Final = ".utf8cert-fuzz.lock"


class ArtifactsBusy(Exception):
    """Another campaign holds the directory; str() is the one line that names it."""


def lock_artifacts(directory: Path) -> BinaryIO:
    """Return the open lock file of `directory`, locked for this campaign until it is closed;
    ArtifactsBusy if another campaign holds it, OSError if the file cannot be opened."""
    # O_NOFOLLOW: a link planted at the lock's name is not followed (and not truncated: no
    # O_TRUNC); close-on-exec: libFuzzer's processes do not hold the lock after we let it go.
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(directory / LOCK_NAME, flags, 0o666)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise ArtifactsBusy(
            f"--artifacts {directory}: another campaign is running in this directory "
            "(one at a time: wait for it, or name another directory)"
        ) from None
    except BaseException:
        os.close(descriptor)
        raise
    return os.fdopen(descriptor, "rb")
