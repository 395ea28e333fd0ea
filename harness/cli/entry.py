"""The `utf8cert` console script (also the harness package's __main__.py): holds Ctrl-C, SIGTERM
and SIGHUP while utf8cert starts, then runs the command (main.py).

A signal that comes while the command's modules are imported would end it in a traceback, and
one that comes before `check` has replaced its report files would leave an earlier run's passing
reports in place. Held, it is acted on once the command can end cleanly: `check` releases it
once its INCOMPLETE reports are written (check_command.py), every other command before it runs
(main.py). This module imports nothing of utf8cert's until the signals are held but their names
(held.py, which imports only `signal`).

A SIGKILL cannot be held: so the report files a `check` names are removed first of all, before
the imports (`withdraw_reports`), and a run killed before its INCOMPLETE reports are written
leaves no report rather than an earlier run's pass.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Final

from utf8cert.harness.cli.held import HELD_SIGNALS

REPORT_OPTIONS: Final = ("--json", "--junit-xml", "--markdown", "--html")
"""The options of `check` that name a report file (cli/check_options.py)."""


def main() -> int:
    """Return the exit status of `utf8cert` with sys.argv's arguments (main.main)."""
    withdraw_reports(sys.argv[1:])  # first: once the signals are held, no pass is left
    signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    from utf8cert.harness.cli.main import main as command

    return command()


def withdraw_reports(arguments: Sequence[str]) -> list[str]:
    """Return the report files of a `check` with `arguments` (also a plain `utf8cert`) that
    were removed: the existing regular files or links its REPORT_OPTIONS name (`-`, standard
    output, none; the options' full names only). Other commands' arguments are left alone."""
    if arguments and not (arguments[0] == "check" or arguments[0].startswith("-")):
        return []
    named = []
    for index, word in enumerate(arguments):
        if word == "--":
            break
        option, equals, value = word.partition("=")
        if option not in REPORT_OPTIONS:
            continue
        if not equals:
            value = arguments[index + 1] if index + 1 < len(arguments) else ""
        if value and value != "-":
            named.append(value)
    removed = []
    for path in named:
        with contextlib.suppress(OSError, ValueError):
            if os.path.islink(path) or os.path.isfile(path):
                os.unlink(path)
                removed.append(path)
    return removed
