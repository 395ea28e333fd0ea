"""The plugin object registered for `--utf8-codec` (pytest_plugin.py registers it): the loaded
suite, which arguments of the session are the suite's, its collector beside the session's files,
the report header, the INCOMPLETE mark of an interrupted session's JUnit report, and the release
of the codec at the end."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Generator, Sequence
from pathlib import Path

import pytest

from utf8cert.harness.check.report import utf8cert_version
from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.plugin.items import CoverageItem, SuiteNode, VectorItem
from utf8cert.harness.plugin.signals import session_signals
from utf8cert.harness.plugin.suite import SUITE_NODE_ID, Suite, SuiteError, fatal_note, load_suite


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
        self.running: pytest.Item | None = None
        """The item under way (None between items)."""

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

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        """Return the item's outcome, noting the item under way (kept if a signal stops it)."""
        self.running = item
        outcome = yield
        self.running = None
        return outcome

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        """Return the loop's outcome, SIGTERM and SIGHUP ending it as a Ctrl-C does, between
        items too (signals.py): the session's summary and --junitxml are written."""
        with session_signals():
            return (yield)

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        """Note why the session was interrupted (a signal to an item: 'stopped by SIGTERM')."""
        self.stopped = str(excinfo.value).removeprefix("utf8cert: ") or "interrupted"

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Mark an interrupted session INCOMPLETE before its reports are written: the suite's
        item under way fails with why it stopped (in the summary and --junitxml, where pytest
        would write a case without a name), and --junitxml carries a property `utf8cert`."""
        if exitstatus != pytest.ExitCode.INTERRUPTED:
            return
        why = f"INCOMPLETE: {self.stopped or 'interrupted'}"
        if isinstance(self.running, VectorItem | CoverageItem):
            stopped = pytest.TestReport(
                self.running.nodeid, self.running.location, {}, "failed", why, "call"
            )
            session.config.hook.pytest_runtest_logreport(report=stopped)
        # Where the public record_testsuite_property fixture keeps the report: no hook gives it.
        from _pytest.junitxml import xml_key

        junit = session.config.stash.get(xml_key, None)
        if junit is not None:
            junit.add_global_property("utf8cert", why)

    def close(self) -> None:
        """Release the codec under test, and the copy of stderr."""
        self.suite.codec.close()
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
