"""The directory utf8cert keeps what it builds in: programs, native runtimes, fetched sources."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """Return the directory builds are kept in (not created here): $UTF8CERT_CACHE, else
    $XDG_CACHE_HOME/utf8cert, else ~/.cache/utf8cert."""
    if os.environ.get("UTF8CERT_CACHE"):
        return Path(os.environ["UTF8CERT_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "utf8cert"
