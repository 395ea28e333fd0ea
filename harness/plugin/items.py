"""The conformance suite as pytest items: one per vector and capability, named
`THEME/VECTOR-ID[CAPABILITY]`, failing with the same explanation as `utf8cert check`, then one per
capability, `coverage[CAPABILITY]`, failing when the capability is not certified (too few of its
questions answered), as `utf8cert check` exits 1 then; then `stability`, failing when a question
asked again got another answer or a failure (check/recheck.py), as `utf8cert check` fails it at
the end of its run. An item whose only differences are known
from the baseline is an expected failure (xfail, strict): once the codec no longer shows them it
is an XPASS(strict) failure, the baseline to update.

The items are collected as any plugin's are: a collector, `utf8cert`, beside the session's
files, so that the counts, node ids (`utf8cert::THEME/VECTOR-ID[CAPABILITY]`), -k,
--collect-only, --lf, --sw and naming one item on the command line behave as for any test. When
the codec comes from the ini file alone, naming test files on the command line leaves the suite
out."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import pytest

from utf8cert.harness.check.baseline import Key
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.interrupt import Interrupted, Stop, watching
from utf8cert.harness.codec.interface import CAPABILITIES, Capability, Codec
from utf8cert.harness.plugin.suite import Suite, SuiteError, load_suite
from utf8cert.harness.vectors.model import Vector


class ConformanceFailure(Exception):
    """An item's failing differences, explained."""


class KnownDeviation(Exception):
    """An item's differences, all known from the baseline, explained (the item's xfail)."""


class NotCertified(Exception):
    """A capability answered too few of its questions, explained."""


Result = TypeVar("Result")


def stoppable(check: Callable[[Stop], Result]) -> Result:
    """Return what `check` returns, run under a Stop that SIGINT, SIGTERM and SIGHUP set: they
    stop it, even in a codec call that never returns, and end the session as a Ctrl-C does (its
    summary and --junitxml written); a KeyboardInterrupt the codec raises itself is a crash of
    the item alone."""
    stop = Stop()
    try:
        with watching(stop):
            result = check(stop)
            stop.check()
    except Interrupted:
        raise KeyboardInterrupt(f"utf8cert: stopped by {stop.reason}") from None
    return result


SUITE_SPEC: Final = "utf8cert_suite_spec"
"""The attribute naming the codec of a `conformance_suite` test function: a session that
certifies the same codec as utf8cert::… leaves its cases out (session.py)."""
DIFFERENCES: Final = "utf8cert_differences"
"""The user property under which an item passes its differences on to the session's summary
(as plain data: an xdist worker sends its reports' properties to the controller)."""


def record(item: pytest.Item, found: Sequence[Difference], known: frozenset[Key]) -> None:
    """Note the differences of an item the baseline does not know, for the summary by
    behaviour at the end of the session (session.py)."""
    new = [dataclasses.astuple(difference) for difference in found if difference.key not in known]
    if new:
        item.user_properties.append((DIFFERENCES, new))


def recorded(properties: Sequence[tuple[str, object]]) -> list[Difference]:
    """Return the differences an item's report carries (`record`; [] for none)."""
    return [
        Difference(*fields)
        for name, value in properties
        if name == DIFFERENCES
        for fields in cast(list[tuple[Any, ...]], value)  # record's astuple, back
    ]


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
        the baseline does not know, KnownDeviation when it deviates only as the baseline says
        (a signal stops it: `stoppable`)."""
        found = stoppable(lambda stop: self.suite.check(self.vector, self.capability, stop))
        record(self, found, self.suite.known)
        failing = self.suite.failing(found)
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


class CoverageItem(pytest.Item):
    """Whether one capability is certified: enough of its questions, over every vector,
    answered."""

    def __init__(self, *, suite: Suite, capability: Capability, **kw: Any):
        super().__init__(**kw)
        self.suite = suite
        self.capability = capability

    def runtest(self) -> None:
        """Raise NotCertified when the capability is not certified; the cases not checked in
        this process (-k, xdist, --lf) are checked now (a signal stops it: `stoppable`)."""
        coverage = stoppable(lambda stop: self.suite.coverage(self.capability, stop))
        if not coverage.certified:
            raise NotCertified(
                f"{self.suite.codec.spec} is not certified for {self.capability}: "
                f"{coverage.why_not_certified()} ({coverage.summary()})"
            )

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """Return why the capability is not certified (a traceback only for a bug elsewhere)."""
        if isinstance(excinfo.value, NotCertified):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, None, str]:
        """Return the item's title (it is written in no file)."""
        return self.path, None, f"coverage [{self.capability}]"


STABILITY: Final = "stability"
"""The name of the item (and parametrized case) of the questions asked again."""


class StabilityItem(pytest.Item):
    """Whether the codec gives every question one answer: the questions kept as the cases ask
    them, asked again until each capability has been asked 10,000 times (check/recheck.py), as
    `utf8cert check` does at the end of its run."""

    def __init__(self, *, suite: Suite, **kw: Any):
        super().__init__(**kw)
        self.suite = suite

    def runtest(self) -> None:
        """Raise ConformanceFailure, explained, when an answer changed; the cases not checked
        in this process are checked first (a signal stops it: `stoppable`)."""
        found = stoppable(self.suite.stability)
        record(self, found, self.suite.known)
        failing = self.suite.failing(found)
        if failing:
            raise ConformanceFailure(self.suite.failure_text(failing))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        """Return the explanation of the answers that changed (a traceback only for a bug)."""
        if isinstance(excinfo.value, ConformanceFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, None, str]:
        """Return the item's title (it is written in no file)."""
        return self.path, None, "stability (questions asked again)"


class SuiteNode(pytest.Collector):
    """The suite's collector: one VectorItem per vector and capability, then one CoverageItem
    per capability, then the StabilityItem (of those named on the command line only, when some
    are)."""

    def __init__(self, *, suite: Suite, named: Sequence[str] = (), **kw: Any):
        super().__init__(**kw)
        self.suite = suite
        self.named = tuple(named)

    def _wanted(self, name: str) -> bool:
        """Return True when the item `name` is to be collected: no item was named, or it was
        (a name without brackets names every capability: bom/bom-1 names bom/bom-1[decode])."""
        return not self.named or any(
            name == each or name.startswith(f"{each}[") for each in self.named
        )

    def child_id(self, name: str) -> str:
        """Return the node id of the item `name`: `utf8cert::security/sec-1[decode]`.

        Given as this string, the id is the one pytest reads back from its cache (--lf, --sw),
        from xdist and from reports: pytest 9.2+ parses an id, the `[...]` at its end as the
        parameters, and a child id it made itself (the name whole, brackets included) would
        compare unequal to that parse. Before 9.2 an id is this string alone."""
        return f"{self.nodeid}::{name}"

    def collect(self) -> list[pytest.Item]:
        """Return the items, in vector order, named THEME/VECTOR-ID[CAPABILITY], then
        coverage[CAPABILITY] in the usual order of capabilities, then `stability`."""
        themes = self.suite.themes()
        cases = self.suite.cases()
        items: list[pytest.Item] = [
            VectorItem.from_parent(
                self,
                name=name,
                nodeid=self.child_id(name),
                suite=self.suite,
                vector=vector,
                capability=capability,
            )
            for vector, capability in cases
            if self._wanted(name := f"{themes[vector.id]}/{vector.id}[{capability}]")
        ]
        offered = {capability for _, capability in cases}
        items += [
            CoverageItem.from_parent(
                self, name=name, nodeid=self.child_id(name), suite=self.suite, capability=capability
            )
            for capability in CAPABILITIES
            if capability in offered and self._wanted(name := f"coverage[{capability}]")
        ]
        if offered and self._wanted(STABILITY):
            items.append(
                StabilityItem.from_parent(
                    self, name=STABILITY, nodeid=self.child_id(STABILITY), suite=self.suite
                )
            )
        return items


def suite_function(
    codec: str | Codec,
    *,
    vectors: Sequence[str | Path] = (),
    fail_on: str = "must",
    baseline: str | Path | None = None,
) -> Callable[..., None]:
    """Return a test function parametrized over the suite's (vector, capability) cases, then
    over its capabilities (vector None: whether the capability is certified), then once more
    (vector None, `stability`: whether every question asked again got its first answer)."""
    try:
        suite = load_suite(codec, vectors=vectors, fail_on=fail_on, baseline=baseline)
    except SuiteError as error:
        raise pytest.UsageError(f"utf8cert: {error}") from None
    cases: list[tuple[Vector | None, str]] = [*suite.cases()]
    offered = {capability for _, capability in cases}
    cases += [(None, capability) for capability in CAPABILITIES if capability in offered]
    cases += [(None, STABILITY)] if offered else []
    ids = [
        f"{v.id}-{c}" if v is not None else (c if c == STABILITY else f"coverage-{c}")
        for v, c in cases
    ]

    @pytest.mark.parametrize(("vector", "capability"), cases, ids=ids)
    def test_conformance(vector: Vector | None, capability: str) -> None:
        """Return if the codec passes the vector on the capability, or (vector None) if the
        capability is certified or (`stability`) every answer stood; fail, explained, if not."""
        if vector is None and capability == STABILITY:
            failing = suite.failing(suite.stability())
        elif vector is None:
            coverage = suite.coverage(cast(Capability, capability))
            if not coverage.certified:
                reason = f"{coverage.why_not_certified()} ({coverage.summary()})"
                pytest.fail(f"not certified for {capability}: {reason}", pytrace=False)
            return
        else:
            failing = suite.failing(suite.check(vector, cast(Capability, capability)))
        if failing:
            pytest.fail(suite.failure_text(failing), pytrace=False)

    setattr(test_conformance, SUITE_SPEC, suite.codec.spec)  # session.py runs it once
    return test_conformance
