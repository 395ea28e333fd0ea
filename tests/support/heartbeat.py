"""A sign of life for a long test session (registered by conftest.py): after a minute in which
no test ended, one line a minute names the tests under way and for how long, so that a run at
"[ 500/1100]" for minutes under load shows what it is doing. In the xdist controller (the
workers' starts reach it) or in a run without xdist; never in a worker."""

from __future__ import annotations

import threading
import time

import pytest

SILENCE = 60.0
"""Seconds without a test ending before a line, and between lines."""


class Heartbeat:
    """The tests under way (node id: when it started) and the line written on silence."""

    def __init__(self, config: pytest.Config, silence: float = SILENCE) -> None:
        self.config = config
        self.silence = silence
        self.reporter: pytest.TerminalReporter | None = None
        self.under_way: dict[str, float] = {}
        self.last = time.monotonic()
        """When a test last ended (or the session started)."""
        self.written = self.last
        """When the last line was written."""
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.beat, name="heartbeat", daemon=True)

    def pytest_sessionstart(self) -> None:
        """Start listening, if the session writes to a terminal (not in an xdist worker)."""
        self.reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if self.reporter is not None and not hasattr(self.config, "workerinput"):
            self.thread.start()

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        """Note a test started."""
        with self.lock:
            self.under_way.setdefault(nodeid, time.monotonic())

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Note a test ended (its teardown reported)."""
        if report.when == "teardown":
            with self.lock:
                self.under_way.pop(report.nodeid, None)
                self.last = time.monotonic()

    def pytest_sessionfinish(self) -> None:
        """Stop."""
        self.stopped.set()

    def line(self, now: float) -> str:
        """Return the line naming the tests under way, longest first ('' if none)."""
        with self.lock:
            running = sorted(self.under_way.items(), key=lambda item: item[1])
        if not running:
            return ""
        names = ", ".join(f"{nodeid} ({minutes(now - started)})" for nodeid, started in running)
        return f"[still running, {minutes(now - self.last)} since a test ended: {names}]"

    def beat(self) -> None:
        """Write the line after each `silence` seconds without a test ending, until stopped."""
        while not self.stopped.wait(self.silence / 4):
            now = time.monotonic()
            if now - max(self.last, self.written) >= self.silence and (text := self.line(now)):
                assert self.reporter is not None  # started with one
                self.reporter.write_line(text)
                self.written = now


def minutes(seconds: float) -> str:
    """Return a duration as '2 min 05 s' (or '42 s')."""
    whole = int(seconds)
    return f"{whole // 60} min {whole % 60:02d} s" if whole >= 60 else f"{whole} s"
