"""What an in-process codec that kills the interpreter (a segfault, an abort) leaves on stderr:
the question being asked and how to rerun the check in a child process.

Nothing in Python runs once the process has taken a fatal signal; `faulthandler` (enabled by
`enabled_to_stderr`) prints the Python stack then, and of each frame only its file name, line and
function name. So the codec is called through a one-line function whose code carries the note
as its file name (`caller`): the stack printed as the process dies shows

    File "utf8cert was asking vector sec-1 on decode in this process; ...", line 1 in asking

A codec that calls `os._exit` takes no signal: `os._exit` is replaced, within the same block,
by one that first writes the note of the question being asked (found by that frame's name),
then exits as asked.
"""

from __future__ import annotations

import faulthandler
import os
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


def _exit_noting(exit: Callable[[int], Any], stderr: int | None) -> Callable[[int], Any]:
    """Return `os._exit` that first writes, to the file descriptor `stderr` (None: the
    process's stderr), the note of the question an in-process codec was being asked (nothing
    when it was not called under `caller`)."""

    def noting(status: int) -> Any:
        frame: types.FrameType | None = sys._getframe(1)
        while frame is not None and frame.f_code.co_name != "asking":
            frame = frame.f_back
        if frame is not None:
            note = f"utf8cert: the codec called os._exit({status})\n{frame.f_code.co_filename}\n"
            try:
                stream = sys.__stderr__
                if stderr is not None:
                    os.write(stderr, note.encode(errors="replace"))
                elif stream is not None:
                    stream.write(note)
                    stream.flush()
            except (OSError, ValueError):  # stderr closed: exit all the same
                pass
        return exit(status)

    return noting


@contextmanager
def enabled_to_stderr(stderr: int | None = None) -> Iterator[None]:
    """Within the block, a fatal signal prints the Python stack to the process's stderr (as
    it was before any redirection) before the process dies, and `os._exit` the note of the
    question asked; the previous state comes back after. Where stderr is no file (a test's
    capture), faulthandler stays as it was. `stderr` is a file descriptor for the note where
    file descriptor 2 is captured (pytest: a copy of it taken before the capture)."""
    real_exit = os._exit
    os._exit = _exit_noting(real_exit, stderr)  # type: ignore[assignment]
    try:
        with _faulthandler_to_stderr():
            yield
    finally:
        os._exit = real_exit


@contextmanager
def _faulthandler_to_stderr() -> Iterator[None]:
    """Within the block, faulthandler writes to the process's stderr (if it is a file)."""
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
