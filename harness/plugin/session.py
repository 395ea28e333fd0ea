"""The plugin object registered for `--utf8-codec` (pytest_plugin.py registers it): the loaded
suite, which arguments of the session are the suite's, its collector beside the session's files,
the report header, SIGTERM and SIGHUP ending the session as a Ctrl-C does, the INCOMPLETE mark of
an interrupted session's JUnit report, and the release of the codec at the end."""

from __future__ import annotations

import os
import shlex
import signal
import sys
import threading
from collections.abc import Generator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.interrupt import heeded
from utf8cert.harness.check.report import utf8cert_version
from utf8cert.harness.codec import sandbox
from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.plugin.items import SUITE_SPEC, SuiteNode, recorded
from utf8cert.harness.plugin.suite import SUITE_NODE_ID, Suite, SuiteError, fatal_note, load_suite
from utf8cert.harness.plugin.summary import summary_lines


def sandboxed(
    writable: Sequence[str], environment: Sequence[str], *, required: bool, in_process: bool
) -> None:
    """Set the OS sandbox of the codec's child process (codec/sandbox.py: the paths it may
    write, the variables it gets besides the few its runtime needs) and make this process
    non-dumpable; pytest.UsageError (one line) if a writable path does not exist, a name is no
    variable's, or a sandbox is `required` and none can be made or the codec runs `in_process`."""
    try:
        sandbox.configure(writable, required, environment)
    except sandbox.SandboxError as error:
        raise pytest.UsageError(f"utf8cert: {error}") from None
    if required and in_process:
        problem = "--utf8-require-sandbox: without --utf8-isolate the codec runs in no sandbox"
        raise pytest.UsageError(f"utf8cert: {problem}")
    sandbox.protect_judge()


def take_suite_arguments(config: pytest.Config) -> tuple[bool, tuple[str, ...]]:
    """Return whether the session collects the suite, and the items named on the command line
    (`utf8cert::NAME`; () for all), taking those arguments out of the session's, where pytest
    would look for a file. The suite is collected when `--utf8-codec` is on the command line,
    when pytest was given no test path, or when an item of the suite is named."""
    ours = [
        argument
        for argument in config.args
        if argument.partition("::")[0] == SUITE_NODE_ID and not Path(SUITE_NODE_ID).exists()
    ]
    config.args[:] = [argument for argument in config.args if argument not in ours]
    named = tuple(name for argument in ours if (name := argument.partition("::")[2]))
    on_command_line = config.getoption("--utf8-codec") is not None
    no_path = config.args_source is not pytest.Config.ArgsSource.ARGS
    if ours and len(named) < len(ours):  # `utf8cert` alone: the whole suite
        named = ()
    return bool(ours) or on_command_line or no_path, named


class SuitePlugin:
    """The plugin object registered for `--utf8-codec`: adds the items and the header."""

    def __init__(
        self, suite: Suite, reproduce: str, collected: bool = True, named: Sequence[str] = ()
    ) -> None:
        self.suite = suite
        self.reproduce = reproduce
        self.collected = collected
        """Whether the session collects the suite (take_suite_arguments)."""
        self.named = tuple(named)
        self.stopped = ""
        """Why the session was interrupted ('' until it is)."""
        self.begun: dict[tuple[str, object], pytest.TestReport] = {}
        """The setup report of each item begun and not ended, by node id and xdist worker."""
        self.found: list[Difference] = []
        """The differences the items found (the baseline's known ones left out)."""
        self.deselected = 0
        """How many cases of the project's own conformance_suite were left out."""
        self.previous: dict[int, Any] = {}
        """The handlers of SIGTERM and SIGHUP before the session's (restored by `close`)."""

    @classmethod
    def from_options(
        cls,
        spec: str,
        *,
        vectors: Sequence[str],
        fail_on: str,
        baseline: str | None,
        profile: str | None,
        isolate: bool,
        timeout: float,
        depth: str = "default",
        memory_mb: int = DEFAULT_MEMORY_MB,
        collected: bool = True,
        named: Sequence[str] = (),
    ) -> SuitePlugin:
        """Return the plugin for the command-line options; pytest.UsageError (one line) if bad.
        `collected` and `named`: as take_suite_arguments returns them."""
        try:
            suite = load_suite(
                spec,
                vectors=vectors,
                fail_on=fail_on,
                baseline=baseline,
                profile=profile,
                isolate=isolate,
                timeout=timeout,
                depth=depth,
                memory_mb=memory_mb,
            )
        except SuiteError as error:
            raise pytest.UsageError(f"utf8cert: {error}") from None
        words = ["pytest", "--utf8-codec", spec, "--utf8-fail-on", fail_on]
        words += [word for path in vectors for word in ("--utf8-vectors", path)]
        words += ["--utf8-baseline", baseline] if baseline else []
        words += ["--utf8-profile", profile] if profile else []
        words += ["--utf8-isolate", "--utf8-timeout", f"{timeout:g}"] if isolate else []
        if memory_mb != DEFAULT_MEMORY_MB and (isolate or spec.startswith("cmd:")):
            words += ["--utf8-memory", str(memory_mb)]
        words += ["--utf8-depth", depth] if depth != "default" else []
        if not isinstance(suite.codec, ProcessCodec):
            suite.note = fatal_note(words)
            suite.stderr = _uncaptured_stderr()
        return cls(suite, shlex.join(words), collected, named)

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        """Return the lines that say what is checked and how to run it again."""
        suite = self.suite
        capabilities = ", ".join(sorted(suite.codec.capabilities)) or "none"
        return [
            f"utf8cert {utf8cert_version()}: codec {suite.codec.spec} ({capabilities}), "
            f"profile {suite.profile.name}, "
            f"{len(suite.vectors)} vectors in {len(suite.vectors.files)} files, "
            f"fail on {suite.fail_on}, {len(suite.known)} known deviations",
            f"utf8cert reproduce: {self.reproduce}",
            f"utf8cert boundary: {sandbox.held_by(suite.codec)}",
        ]

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(
        self, collector: pytest.Collector
    ) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
        """Return the session's collect report with the suite's collector after its files."""
        report = yield
        if isinstance(collector, pytest.Session) and self.collected and report.passed:
            node = SuiteNode.from_parent(
                collector, name=SUITE_NODE_ID, nodeid=SUITE_NODE_ID, suite=self.suite,
                named=self.named,
            )  # fmt: skip
            report.result.append(node)
        return report

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """End the session as a Ctrl-C does on SIGTERM and SIGHUP too (a CI job cancelled, a
        terminal closed), wherever it is: collecting, between items, in an xdist controller
        (within an item, `stoppable` watches them)."""
        if threading.current_thread() is not threading.main_thread():
            return  # no handler can be set: the session runs unwatched

        def on_signal(number: int, frame: FrameType | None) -> None:
            raise KeyboardInterrupt(f"utf8cert: stopped by {signal.Signals(number).name}")

        for number in heeded((signal.SIGTERM, signal.SIGHUP)):  # nohup's SIGHUP stays ignored
            self.previous[number] = signal.signal(number, on_signal)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Note the items begun (set up) and not ended (torn down): those a signal stops; and
        the differences each item found, for the summary by behaviour."""
        key = (report.nodeid, getattr(report, "node", None))  # an xdist report names its worker
        if report.when == "call":
            self.found += recorded(report.user_properties)
        if report.when == "setup":
            self.begun[key] = report
        elif report.when == "teardown":
            self.begun.pop(key, None)

    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        """Leave out the cases of a project's own `conformance_suite` of the codec the session
        certifies as utf8cert::…: the suite runs once, not twice."""
        if not self.collected:
            return
        spec = self.suite.codec.spec
        twice = [
            item
            for item in items
            if getattr(getattr(item, "function", None), SUITE_SPEC, None) == spec
        ]
        if twice:
            config.hook.pytest_deselected(items=twice)
            left = set(twice)
            items[:] = [item for item in items if item not in left]
            self.deselected = len(twice)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Write the behaviours the session's items found, as `utf8cert check` sums them up:
        one line each, most binding first, with the command that reproduces its simplest
        example (nothing when no item found a difference)."""
        reporter = terminalreporter
        if self.deselected:
            reporter.write_line(
                f"utf8cert: {self.deselected} cases of the project's own conformance_suite of "
                f"{self.suite.codec.spec} deselected: the suite ran once, as {SUITE_NODE_ID}::…"
            )
        if not self.found:
            return
        reporter.write_sep("=", "utf8cert: behaviours")
        for line in summary_lines(self.suite, self.found):
            reporter.write_line(line)

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        """Note why the session was interrupted (a signal: 'stopped by SIGTERM')."""
        self.stopped = str(excinfo.value).removeprefix("utf8cert: ") or "interrupted"

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Mark an interrupted session INCOMPLETE before its reports are written: each item
        under way fails with why it stopped (in the summary and --junitxml, where pytest would
        write a case without a name, invalid in the JUnit schema), and --junitxml carries a
        property `utf8cert`. Every --junitxml carries the property `utf8cert_boundary`: what kept
        the codec from the judge."""
        # Where the public record_testsuite_property fixture keeps the report: no hook gives it.
        from _pytest.junitxml import xml_key

        junit = session.config.stash.get(xml_key, None)
        if junit is not None:
            junit.add_global_property("utf8cert_boundary", sandbox.held_by(self.suite.codec))
        if exitstatus != pytest.ExitCode.INTERRUPTED:
            return
        why = f"INCOMPLETE: {self.stopped or 'interrupted'}"
        for (nodeid, worker), setup in list(self.begun.items()):
            stopped = pytest.TestReport(nodeid, setup.location, {}, "failed", why, "call")
            if worker is not None:
                stopped.node = worker  # type: ignore[attr-defined]  # xdist's, as junitxml keys it
            session.config.hook.pytest_runtest_logreport(report=stopped)
        if junit is not None:
            junit.add_global_property("utf8cert", why)

    def close(self) -> None:
        """Release the codec under test, the signals and the copy of stderr."""
        self.suite.codec.close()
        for number, handler in self.previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
        self.previous.clear()
        if self.suite.stderr is not None:
            os.close(self.suite.stderr)
            self.suite.stderr = None


def _uncaptured_stderr() -> int | None:
    """Return a copy of the file descriptor of stderr, taken while pytest does not capture it
    (it captures nothing while plugins are configured), or None when there is none."""
    stream = sys.__stderr__
    try:
        return os.dup(stream.fileno()) if stream is not None else None
    except (OSError, ValueError):  # no file descriptor behind it
        return None
