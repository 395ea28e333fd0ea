"""What an in-process codec that kills the interpreter (a segfault, an abort) leaves on stderr:
the question being asked and how to rerun the check in a child process.

Nothing in Python runs once the process has taken a fatal signal; `faulthandler` (enabled by
`enabled_to_stderr`) prints the Python stack then, and of each frame only its file name, line and
function name. So the codec is called through a one-line function whose code carries the note
as its file name (`caller`): the stack printed as the process dies shows

    File "utf8cert was asking vector sec-1 on decode in this process; ...", line 1 in asking
"""

from __future__ import annotations

import faulthandler
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

NOTE_LIMIT: Final = 480
"""faulthandler cuts a file name at 500 characters."""

Caller = Callable[..., Any]
"""Calls its first argument with the others, and returns what it returns."""


def _asking(function: Caller, *arguments: Any) -> Any:
    return function(*arguments)


def caller(note: str) -> Caller:
    """Return a function that calls its first argument with the others, under a frame whose
    file name is `note` (cut to NOTE_LIMIT characters)."""
    code = _asking.__code__.replace(
        co_filename=note[:NOTE_LIMIT], co_name="asking", co_firstlineno=0
    )
    return types.FunctionType(code, _asking.__globals__, "asking")


@contextmanager
def enabled_to_stderr() -> Iterator[None]:
    """Within the block, a fatal signal prints the Python stack to the process's stderr (as
    it was before any redirection) before the process dies; the previous state comes back
    after. Where stderr is no file (a test's capture), nothing changes."""
    stream, enabled = sys.__stderr__, False
    if stream is not None and not faulthandler.is_enabled():
        try:
            faulthandler.enable(file=stream)
            enabled = True
        except (AttributeError, OSError, ValueError):  # no file descriptor behind it
            pass
    try:
        yield
    finally:
        if enabled:
            faulthandler.disable()
