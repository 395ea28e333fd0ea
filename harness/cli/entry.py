"""The `utf8cert` console script (also the harness package's __main__.py): holds Ctrl-C, SIGTERM
and SIGHUP while utf8cert starts, then runs the command (main.py).

A signal that comes while the command's modules are imported would end it in a traceback, and
one that comes before `check` has replaced its report files would leave an earlier run's passing
reports in place. Held, it is acted on once the command can end cleanly: `check` releases it
once its INCOMPLETE reports are written (check_command.py), every other command before it runs
(main.py). This module imports nothing of utf8cert's until the signals are held but their names
(held.py, which imports only `signal`).
"""

from __future__ import annotations

import signal

from utf8cert.harness.cli.held import HELD_SIGNALS


def main() -> int:
    """Return the exit status of `utf8cert` with sys.argv's arguments (main.main)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    from utf8cert.harness.cli.main import main as command

    return command()
