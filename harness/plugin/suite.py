"""The conformance suite as pytest items: one per vector and capability, failing with the same
explanation as `utf8cert check`. Imported by the plugin only when the suite is asked for."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from utf8cert.harness.check.baseline import BaselineError, Key, load_baseline
from utf8cert.harness.check.compare import Difference
from utf8cert.harness.check.run import (
    capabilities_for,
    check_vector,
    utf8cert_version,
    vector_index,
)
from utf8cert.harness.check.schedule import Depth, Schedule, schedule
from utf8cert.harness.codec.interface import Capability, Codec
from utf8cert.harness.codec.spec import CodecSpecError, load_codec
from utf8cert.harness.reports.explain import explain, grouped
from utf8cert.harness.vectors.load import VectorLoadError, load_vectors
from utf8cert.harness.vectors.model import LEVELS, Level, Vector, VectorSet

SUITE_NODE_ID = "utf8cert"


class SuiteError(Exception):
    """The suite cannot be set up (bad spec, vector file or baseline); str() is one line."""


@dataclass
class Suite:
    """A loaded codec, its vectors and what fails: everything an item needs to run."""

    codec: Codec
    vectors: VectorSet
    fail_on: Level = "must"
    known: Collection[Key] = frozenset()
    depth: Depth = "default"
    schedule: Schedule = field(init=False)

    def __post_init__(self) -> None:
        self.schedule = schedule(self.vectors, self.depth)

    def cases(self) -> list[tuple[Vector, Capability]]:
        """Return (vector, capability) for every check to run, in vector order."""
        return [
            (vector, capability)
            for vector in self.vectors
            for capability in capabilities_for(vector, self.codec.capabilities)
        ]

    def failing(self, differences: Sequence[Difference]) -> list[Difference]:
        """Return the differences that fail an item: at `fail_on` or above, not known."""
        levels = LEVELS[: LEVELS.index(self.fail_on) + 1]
        return [d for d in differences if d.level in levels and d.key not in self.known]

    def failure_text(self, failing: Sequence[Difference]) -> str:
        """Return the explanation of failing differences, as `utf8cert check` prints it."""
        vectors = vector_index(self.vectors)
        blocks = [
            "\n".join(
                explain(first, vectors.get(first.vector), self.vectors.note, self.codec.spec, also)
            )
            for first, also in grouped(failing)
        ]
        return "\n\n".join(blocks)

    def check(self, vector: Vector, capability: Capability) -> list[Difference]:
        """Return the failing differences of one vector on one capability ([] passes)."""
        plan = self.schedule.plan(vector)
        return self.failing(check_vector(self.codec, vector, (capability,), plan=plan))


def load_suite(
    codec: str | Codec | None,
    *,
    vectors: Sequence[str | Path] = (),
    fail_on: str = "must",
    baseline: str | Path | None = None,
    isolate: bool = False,
    timeout: float = 10.0,
    depth: Depth = "default",
) -> Suite:
    """Return the suite for a codec (spec or Codec); SuiteError (one line) if it cannot load."""
    if fail_on not in LEVELS:
        raise SuiteError(f"fail_on must be one of {', '.join(LEVELS)}, not {fail_on!r}")
    level = LEVELS[LEVELS.index(fail_on)]
    try:
        vector_set = load_vectors(vectors)
        known = load_baseline(baseline) if baseline is not None else frozenset()
        if codec is None or isinstance(codec, str):
            codec = load_codec(codec, isolate=isolate, timeout=timeout)
    except (VectorLoadError, CodecSpecError, BaselineError) as error:
        raise SuiteError(str(error)) from None
    except OSError as error:
        raise SuiteError(f"{error.filename or ''}: {error.strerror or error}") from None
    return Suite(codec, vector_set, level, known, depth)


class ConformanceFailure(Exception):
    """An item's failing differences, explained."""


class VectorItem(pytest.Item):
    """One vector checked on one capability, in every variant."""

    def __init__(self, *, suite: Suite, vector: Vector, capability: Capability, **kw: Any):
        super().__init__(**kw)
        self.suite = suite
        self.vector = vector
        self.capability = capability

    def runtest(self) -> None:
        """Raise ConformanceFailure when the codec fails the vector at the chosen level."""
        failing = self.suite.check(self.vector, self.capability)
        self.user_properties.append(("differences", len(failing)))
        if failing:
            raise ConformanceFailure(self.suite.failure_text(failing))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """Return the explanation of the differences (a traceback only for a bug elsewhere)."""
        if isinstance(excinfo.value, ConformanceFailure):
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
        """Return the items, in vector order."""
        return [
            VectorItem.from_parent(
                self,
                name=f"{vector.id}[{capability}]",
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
        isolate: bool,
        timeout: float,
        depth: Depth = "default",
    ) -> SuitePlugin:
        """Return the plugin for the command-line options; pytest.UsageError (one line) if bad."""
        try:
            suite = load_suite(
                spec,
                vectors=vectors,
                fail_on=fail_on,
                baseline=baseline,
                isolate=isolate,
                timeout=timeout,
                depth=depth,
            )
        except SuiteError as error:
            raise pytest.UsageError(f"utf8cert: {error}") from None
        words = ["pytest", "--utf8-codec", spec, "--utf8-fail-on", fail_on]
        words += [word for path in vectors for word in ("--utf8-vectors", path)]
        words += ["--utf8-baseline", baseline] if baseline else []
        words += ["--utf8-isolate"] if isolate else []
        words += ["--utf8-depth", depth] if depth != "default" else []
        return cls(suite, " ".join(words))

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        """Return the lines that say what is checked and how to run it again."""
        suite = self.suite
        capabilities = ", ".join(sorted(suite.codec.capabilities)) or "none"
        return [
            f"utf8cert {utf8cert_version()}: codec {suite.codec.spec} ({capabilities}), "
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
        """Release the codec under test."""
        self.suite.codec.close()


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
        failing = suite.check(vector, capability)
        if failing:
            pytest.fail(suite.failure_text(failing), pytrace=False)

    return test_conformance
