"""The conformance suite as pytest items: one per vector and capability, named
`THEME/VECTOR-ID[CAPABILITY]`, failing with the same explanation as `utf8cert check`. An item
whose only differences are known from the baseline is an expected failure (xfail, strict): once
the codec no longer shows them it is an XPASS(strict) failure, the baseline to update."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from utf8cert.harness.check.interrupt import Interrupted, Stop, watching
from utf8cert.harness.check.report import utf8cert_version
from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.codec.isolate import ProcessCodec
from utf8cert.harness.plugin.suite import SUITE_NODE_ID, Suite, SuiteError, fatal_note, load_suite
from utf8cert.harness.vectors.model import Vector


class ConformanceFailure(Exception):
    """An item's failing differences, explained."""


class KnownDeviation(Exception):
    """An item's differences, all known from the baseline, explained (the item's xfail)."""


class VectorItem(pytest.Item):
    """One vector checked on one capability, in every variant."""

    def __init__(self, *, suite: Suite, vector: Vector, capability: Capability, **kw: Any):
        super().__init__(**kw)
        self.suite = suite
        self.vector = vector
        self.capability = capability
        if suite.known_on(vector, capability):
            self.add_marker(
                pytest.mark.xfail(
                    reason="known deviation, in the baseline", raises=KnownDeviation, strict=True
                )
            )

    def runtest(self) -> None:
        """Raise ConformanceFailure when the codec fails the vector at the chosen level in a way
        the baseline does not know, KnownDeviation when it deviates only as the baseline says.

        SIGINT, SIGTERM and SIGHUP stop the item, even in a codec call that never returns, and
        end the session as a Ctrl-C does (its summary and --junitxml written); a
        KeyboardInterrupt the codec raises itself is a crash of this item alone."""
        stop = Stop()
        try:
            with watching(stop):
                found = self.suite.check(self.vector, self.capability, stop)
                stop.check()
        except Interrupted:
            raise KeyboardInterrupt(f"utf8cert: stopped by {stop.reason}") from None
        failing = self.suite.failing(found)
        self.user_properties.append(("differences", len(failing)))
        if failing:
            raise ConformanceFailure(self.suite.failure_text(failing))
        known = [d for d in found if d.key in self.suite.known]
        if known:
            raise KnownDeviation(self.suite.failure_text(known))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """Return the explanation of the differences (a traceback only for a bug elsewhere)."""
        if isinstance(excinfo.value, ConformanceFailure | KnownDeviation):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        """Return where the vector is written, and the item's title."""
        origin = self.vector.origin
        return Path(origin.file), origin.line - 1, f"{self.vector.id} [{self.capability}]"


class SuiteNode(pytest.Collector):
    """The suite's collector: one VectorItem per vector and capability."""

    def __init__(self, *, suite: Suite, **kw: Any):
        super().__init__(**kw)
        self.suite = suite

    def collect(self) -> list[pytest.Item]:
        """Return the items, in vector order, named THEME/VECTOR-ID[CAPABILITY]."""
        themes = self.suite.themes()
        return [
            VectorItem.from_parent(
                self,
                name=f"{themes[vector.id]}/{vector.id}[{capability}]",
                suite=self.suite,
                vector=vector,
                capability=capability,
            )
            for vector, capability in self.suite.cases()
        ]


class SuitePlugin:
    """The plugin object registered for `--utf8-codec`: adds the items and the header."""

    def __init__(self, suite: Suite, reproduce: str) -> None:
        self.suite = suite
        self.reproduce = reproduce

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
    ) -> SuitePlugin:
        """Return the plugin for the command-line options; pytest.UsageError (one line) if bad."""
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
        return cls(suite, shlex.join(words))

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

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        """Add the suite's items, before -k and -m deselect (hence tryfirst)."""
        node = SuiteNode.from_parent(
            session, name=SUITE_NODE_ID, nodeid=SUITE_NODE_ID, suite=self.suite
        )
        items.extend(node.collect())

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


def suite_function(
    codec: str | Codec,
    *,
    vectors: Sequence[str | Path] = (),
    fail_on: str = "must",
    baseline: str | Path | None = None,
) -> Callable[..., None]:
    """Return a test function parametrized over the suite's (vector, capability) cases."""
    try:
        suite = load_suite(codec, vectors=vectors, fail_on=fail_on, baseline=baseline)
    except SuiteError as error:
        raise pytest.UsageError(f"utf8cert: {error}") from None
    cases = suite.cases()

    @pytest.mark.parametrize(("vector", "capability"), cases, ids=[f"{v.id}-{c}" for v, c in cases])
    def test_conformance(vector: Vector, capability: Capability) -> None:
        """Return if the codec passes the vector on the capability; fail, explained, if not."""
        failing = suite.failing(suite.check(vector, capability))
        if failing:
            pytest.fail(suite.failure_text(failing), pytrace=False)

    return test_conformance
