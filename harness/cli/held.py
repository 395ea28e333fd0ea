"""The signals that stop a run (check/interrupt.py), held while utf8cert starts: entry.py holds
them before it imports the command, environment.py releases them once the command can end
cleanly.

Their own module, which imports only `signal`: entry.py imports the command (main.py), which
imports environment.py, so neither of those two can take them from the other without a circle.
"""

from __future__ import annotations

import signal
from typing import Final

HELD_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""Ctrl-C, SIGTERM and SIGHUP."""
