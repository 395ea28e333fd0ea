"""The largest limits a codec in a child process may be given: beyond them the layers below fail
(a traceback, not a limit). The command line and the pytest plugin refuse larger values in one
line naming the option (cli/ranges.py, plugin/suite.py)."""

from __future__ import annotations

from typing import Final

MAX_SECONDS: Final = 7 * 24 * 3600
"""The longest time limit, in seconds: a week. A timeout goes to `select` and `setitimer`, which
take no infinity and overflow past a few hundred years; no run needs to wait longer than this."""
MAX_MEMORY_MIB: Final = 1 << 30
"""The largest memory limit, in MiB (1 PiB: far beyond any machine, and its count of bytes still
fits the 64 bits of `setrlimit`)."""
