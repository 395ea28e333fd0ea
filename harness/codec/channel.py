"""A running program's pipes: lines to it and from it without ever blocking, and the tail of
what it writes to stderr.

All three pipes are non-blocking and served by one selector (POSIX), so that a program that
stops reading, writes without end, or floods its stderr is caught by a deadline or a length
limit instead of stalling utf8cert or filling its memory or disk.
"""

from __future__ import annotations

import fcntl
import os
import selectors
import signal
import struct
import subprocess
import termios
import time
from typing import Final

from utf8cert.harness.codec import children

STDERR_KEPT: Final = 4096
"""Bytes of the program's stderr kept, for the last line quoted in a report."""
READ_SIZE: Final = 1 << 16


class Ended(Exception):
    """The program closed its output: it exited or died."""


class Overlong(Exception):
    """The program wrote more than the line limit without ending the line."""


class Channel:
    """One running program: what is still to be written to it, what it wrote and nobody has
    taken yet, and the end of its stderr."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdin and process.stdout and process.stderr
        self.process = process
        self._input = process.stdin.fileno()
        self._output = process.stdout.fileno()
        self._errors = process.stderr.fileno()
        for fd in (self._input, self._output, self._errors):
            os.set_blocking(fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._output, selectors.EVENT_READ)
        self._selector.register(self._errors, selectors.EVENT_READ)
        self._outgoing = bytearray()
        self._sent = 0
        """Bytes queued for the program since it started (send)."""
        self._unread = bytearray()
        self._searched = 0
        """The bytes at the start of _unread known to hold no newline: each chunk of a long
        answer is searched once, not the whole line again with every chunk (which made a 600 MB
        answer take minutes to take in: quadratic)."""
        self._stderr = bytearray()
        self._ended = False
        self.line_limit = 1 << 20
        """The longest line accepted; more without a newline raises Overlong."""

    def send(self, data: bytes) -> None:
        """Queue `data` for the program; it is written while lines are awaited."""
        if not self._outgoing and data:
            self._selector.register(self._input, selectors.EVENT_WRITE)
        self._outgoing += data
        self._sent += len(data)

    def read_nothing(self) -> bool:
        """Return whether the program has read none of what was sent to it since it started:
        every byte is still queued here or in the pipe (FIONREAD: Linux and the BSDs count a
        pipe's bytes from either end). False when nothing was sent, or the pipe cannot tell."""
        if not self._sent:
            return False
        try:
            raw = fcntl.ioctl(self._input, termios.FIONREAD, b"\0\0\0\0")
        except OSError:
            return False
        in_pipe: int = struct.unpack("i", raw)[0]
        return in_pipe + len(self._outgoing) >= self._sent

    @property
    def sending(self) -> bool:
        """Return whether queued data has not all been written yet."""
        return bool(self._outgoing)

    def lines(self, deadline: float, first_only: bool = False) -> list[str]:
        """Return the whole lines the program has written since last asked, in order, waiting
        until there is one or `deadline` (time.monotonic) passes ([] then); queued data is
        written meanwhile. A deadline already past just collects what has arrived. With
        `first_only`, one line is taken; the rest wait for the next call.

        Raises Ended when the output is closed and no whole line is left, Overlong when an
        unfinished line exceeds `line_limit`.
        """
        while True:
            found = self._take_lines(first_only)
            if found:
                return found
            if self._ended:
                raise Ended
            remaining = deadline - time.monotonic()
            self._serve(max(remaining, 0.0))
            if remaining <= 0:
                return self._take_lines(first_only)

    def pending(self, wait: float = 0.0) -> bool:
        """Return whether the program has written anything (even part of a line) not yet taken,
        waiting up to `wait` seconds for it (0: only what has arrived)."""
        deadline = time.monotonic() + wait
        while True:
            try:
                self._serve(max(0.0, deadline - time.monotonic()))
            except Overlong:
                return True
            if self._unread or self._ended or time.monotonic() >= deadline:
                return bool(self._unread)

    def unread_line(self) -> str:
        """Return the first line (or part of one) written and not yet taken ('' if none)."""
        return bytes(self._unread[:200]).split(b"\n", 1)[0].decode("utf-8", "replace")

    def _take_lines(self, first_only: bool) -> list[str]:
        start = self._searched
        end = self._unread.find(b"\n", start) if first_only else self._unread.rfind(b"\n", start)
        if end < 0:
            self._searched = len(self._unread)
            if len(self._unread) > self.line_limit:
                raise Overlong
            return []
        taken = bytes(self._unread[:end]).decode("utf-8", "replace").split("\n")
        del self._unread[: end + 1]
        self._searched = 0
        return [line.removesuffix("\r") for line in taken]

    def _serve(self, timeout: float) -> None:
        """Wait up to `timeout` seconds for the pipes, then read and write what they allow."""
        for key, _ in self._selector.select(timeout):
            if key.fd == self._output:
                self._read_output()
            elif key.fd == self._errors:
                self._read_errors()
            else:
                self._write()

    def _read_output(self) -> None:
        try:
            chunk = os.read(self._output, READ_SIZE)
        except BlockingIOError:
            return
        if chunk:
            self._unread += chunk
            too_long = len(self._unread) > self.line_limit
            if too_long and self._unread.find(b"\n", self._searched) < 0:
                raise Overlong
        else:
            self._ended = True
            self._selector.unregister(self._output)

    def _read_errors(self) -> bool:
        """Return whether more may follow: keep the end of what the program wrote to stderr."""
        try:
            chunk = os.read(self._errors, READ_SIZE)
        except BlockingIOError:
            return False
        if not chunk:
            self._selector.unregister(self._errors)
            return False
        self._stderr += chunk
        del self._stderr[:-STDERR_KEPT]
        return True

    def _write(self) -> None:
        try:
            written = os.write(self._input, self._outgoing)
        except BlockingIOError:
            return
        except BrokenPipeError:  # it closed its input: its output will tell the rest
            written = len(self._outgoing)
        del self._outgoing[:written]
        if not self._outgoing:
            self._selector.unregister(self._input)

    def stderr_tail(self) -> str:
        """Return the last few KiB the program wrote to stderr, reading what is there without
        waiting (a bounded number of reads: a flood of stderr cannot hold utf8cert here)."""
        for _ in range(64):
            if self._errors not in self._selector.get_map() or not self._read_errors():
                break
        return bytes(self._stderr).decode("utf-8", "replace")

    def ending(self, grace: float) -> int | None:
        """Return the program's exit status (negative: the signal), waiting at most `grace`
        seconds; None if it is still running (it is killed then)."""
        try:
            return children.exit_status(self.process, self.process.wait(timeout=grace))
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        """Kill the program with its process group, reap it, release the pipes."""
        children.stop(self.process)
        self._selector.close()


def describe_status(status: int | None) -> str:
    """Return how a program ended, in words: 'exited with status 3', 'was killed by SIGSEGV'."""
    if status is None:
        return "closed its output"
    if status < 0:
        try:
            return f"was killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"was killed by signal {-status}"
    return f"exited with status {status}"
