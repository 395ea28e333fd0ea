"""A report as JUnit XML (`utf8cert check --junit-xml FILE`), the format CI systems ingest: one
test case per vector and capability checked, in a test suite per vector file (theme).

A case fails (`<failure>`, its type the level) when a difference at the gate's level is not in
the baseline; a case whose only differences are known from the baseline is `<skipped>`; other
differences (below the gate) are told in the case's `<system-out>`.

What a whole check asks after the vectors has a suite of its own, `utf8cert.sweep` and
`utf8cert.seeded`, a case per capability checked (`seeded[validate]`), failing as a vector's does.
The document carries the run's verdict as the exit status does: a suite `utf8cert.coverage` holds a
case per capability checked, failing when the capability is not certified (too few questions
answered), and a run stopped before its end (a signal, --deadline) has a suite `utf8cert.run`
whose one case, `complete`, fails with why it stopped. Every suite has the properties that name
the suite of vectors judged by (its SHA-256, its count) and utf8cert's version. The layout is the
xunit2 family's, pytest's default (junit-10.xsd): no file or line on a case, no skipped count on
the root.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from typing import Final

from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.run import capabilities_for
from utf8cert.harness.check.seeded import SEEDED
from utf8cert.harness.check.sweep import SWEEP
from utf8cert.harness.reports.explain import explain, grouped
from utf8cert.harness.reports.view import View

SUITE_PREFIX: Final = "utf8cert"
_UNFIT: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""What XML 1.0 cannot carry, even escaped: a codec's error message may hold such characters."""


def _clean(text: str) -> str:
    """Return text with the characters XML 1.0 cannot carry replaced by U+FFFD."""
    return _UNFIT.sub("\ufffd", text)


def _explained(view: View, differences: Sequence[Difference]) -> str:
    blocks = []
    note, rerun = view.report.vectors.note, view.rerun
    for first, also in grouped(differences):
        lines = explain(first, view.vectors.get(first.vector), note, rerun, also)
        blocks.append("\n".join(lines))
    return _clean("\n\n".join(blocks))


def _case(
    view: View, theme: str, vector: str, capability: str, found: list[Difference]
) -> ElementTree.Element:
    """Return the <testcase> of one vector (by id; or of what was asked after the vectors:
    sweep, seeded) on one capability."""
    name, classname = f"{vector}[{capability}]", f"{SUITE_PREFIX}.{theme}"
    case = ElementTree.Element("testcase", name=name, classname=classname)
    failing_keys = {d.key for d in view.failing}
    failing = [d for d in found if d.key in failing_keys]
    known = [d for d in found if d.key in view.known]
    if failing:
        first = failing[0]
        failure = ElementTree.SubElement(
            case, "failure", message=_clean(f"{first.level}: {first.what}"), type=first.level
        )
        failure.text = _explained(view, failing)
    elif known and len(known) == len(found):
        ElementTree.SubElement(case, "skipped", message="known deviation, in the baseline")
    elif found:
        out = ElementTree.SubElement(case, "system-out")
        out.text = _explained(view, found)
    return case


def _coverage_cases(view: View) -> list[ElementTree.Element]:
    """Return a <testcase> per capability checked, failing when it is not certified ([] for a
    check of one input, whose verdict needs no coverage)."""
    report = view.report
    if report.subject:
        return []
    uncertified = view.uncovered  # as the gate counts them: a known crash may be excused
    cases = []
    for capability, coverage in report.coverage.ordered():
        if not coverage.offered:
            continue
        case = ElementTree.Element(
            "testcase", name=f"coverage[{capability}]", classname=f"{SUITE_PREFIX}.coverage"
        )
        if capability in uncertified:
            why = coverage.why_not_certified()
            failure = ElementTree.SubElement(
                case, "failure", message=f"not certified for {capability}: {why}"
            )
            failure.set("type", "not certified")
            failure.text = _clean(f"not certified for {capability} ({why}): {view.gate()}")
        cases.append(case)
    return cases


def _incomplete_case(view: View) -> ElementTree.Element:
    """Return the <testcase> `complete`, failing with why the run stopped before its end."""
    case = ElementTree.Element("testcase", name="complete", classname=f"{SUITE_PREFIX}.run")
    stopped = view.report.incomplete
    failure = ElementTree.SubElement(case, "failure", message=_clean(f"INCOMPLETE: {stopped}"))
    failure.set("type", "incomplete")
    failure.text = _clean(view.gate())
    return case


def suite_properties(view: View) -> ElementTree.Element:
    """Return the <properties> that bind the report to its suite: the digest and count of the
    vectors asked (identity.py), the utf8cert version that judged them, and what was asked
    after the vectors (the sweep's questions, the seeded pass's seed and inputs) when it was."""
    report = view.report
    properties = ElementTree.Element("properties")
    named = [
        ("utf8cert.suite.sha256", report.suite.sha256),
        ("utf8cert.suite.vectors", str(report.suite.vectors)),
        ("utf8cert.version", report.version),
    ]
    if report.sweep:
        named.append(("utf8cert.sweep.questions", str(report.sweep_questions)))
    if report.seeded is not None:
        named.append(("utf8cert.seeded.seed", str(report.seeded.seed)))
        named.append(("utf8cert.seeded.inputs", str(report.seeded.inputs)))
    for name, value in named:
        ElementTree.SubElement(properties, "property", name=name, value=_clean(value))
    return properties


def _suite(
    root: ElementTree.Element,
    name: str,
    cases: list[ElementTree.Element],
    view: View,
) -> None:
    """Append a <testsuite> of `cases` to `root`, its counts set, the suite's identity in its
    properties."""
    suite = ElementTree.SubElement(root, "testsuite", name=name)
    suite.append(suite_properties(view))
    suite.extend(cases)
    failures = sum(case.find("failure") is not None for case in cases)
    skipped = sum(case.find("skipped") is not None for case in cases)
    for key, number in (("tests", len(cases)), ("failures", failures), ("errors", 0)):
        suite.set(key, str(number))
    suite.set("skipped", str(skipped))


def report_junit(view: View) -> str:
    """Return the JUnit XML document: a <testsuites> of one <testsuite> per vector file, each
    with a <testcase> per vector and capability checked."""
    report = view.report
    by_case: dict[tuple[str, str], list[Difference]] = {}
    for difference in report.differences:
        by_case.setdefault((difference.vector, difference.capability), []).append(difference)
    root = ElementTree.Element("testsuites", name=_clean(f"utf8cert {report.codec}"))
    timestamp = report.date.replace(" UTC", "").replace(" ", "T") + ":00"
    for file in report.vectors.files:
        cases = [
            _case(view, file.theme, vector.id, capability, by_case.get((vector.id, capability), []))
            for vector in file.vectors
            for capability in capabilities_for(vector, report.capabilities)
        ]
        _suite(root, f"{SUITE_PREFIX}.{file.theme}", cases, view)
    # What a whole run asks after the vectors: a case per capability it asked them of.
    for asked, name in ((report.sweep, SWEEP), (report.seeded is not None, SEEDED)):
        if asked:
            cases = [
                _case(view, name, name, capability, by_case.get((name, capability), []))
                for capability in report.checked
            ]
            _suite(root, f"{SUITE_PREFIX}.{name}", cases, view)
    if coverage := _coverage_cases(view):
        _suite(root, f"{SUITE_PREFIX}.coverage", coverage, view)
    if report.incomplete:
        _suite(root, f"{SUITE_PREFIX}.run", [_incomplete_case(view)], view)
    for suite in root:
        suite.set("timestamp", timestamp)
        # JUnit's <properties> come first in a <testsuite>: what kept the codec from the judge.
        properties = ElementTree.Element("properties")
        ElementTree.SubElement(properties, "property", name="boundary", value=report.boundary)
        suite.insert(0, properties)
    for key in ("tests", "failures", "errors"):
        root.set(key, str(sum(int(suite.get(key, "0")) for suite in root)))
    ElementTree.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, "unicode") + "\n"
