"""A report as JUnit XML (`utf8cert check --junit-xml FILE`), the format CI systems ingest: one
test case per vector and capability checked, in a test suite per vector file (theme).

A case fails (`<failure>`, its type the level) when a difference at the gate's level is not in
the baseline; a case whose only differences are known from the baseline is `<skipped>`; other
differences (below the gate) are told in the case's `<system-out>`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from typing import Final

from utf8cert.harness.check.compare import Difference
from utf8cert.harness.check.run import capabilities_for
from utf8cert.harness.reports.explain import explain, grouped
from utf8cert.harness.reports.view import View
from utf8cert.harness.vectors.model import Vector

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
    view: View, theme: str, vector: Vector, capability: str, found: list[Difference]
) -> ElementTree.Element:
    """Return the <testcase> of one vector on one capability."""
    name, classname = f"{vector.id}[{capability}]", f"{SUITE_PREFIX}.{theme}"
    case = ElementTree.Element("testcase", name=name, classname=classname)
    case.set("file", vector.origin.file)
    case.set("line", str(vector.origin.line))
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


def report_junit(view: View) -> str:
    """Return the JUnit XML document: a <testsuites> of one <testsuite> per vector file, each
    with a <testcase> per vector and capability checked."""
    report = view.report
    by_case: dict[tuple[str, str], list[Difference]] = {}
    for difference in report.differences:
        by_case.setdefault((difference.vector, difference.capability), []).append(difference)
    root = ElementTree.Element("testsuites", name=_clean(f"utf8cert {report.codec}"))
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for file in report.vectors.files:
        suite = ElementTree.SubElement(root, "testsuite", name=f"{SUITE_PREFIX}.{file.theme}")
        counts = {"tests": 0, "failures": 0, "skipped": 0}
        for vector in file.vectors:
            for capability in capabilities_for(vector, report.capabilities):
                found = by_case.get((vector.id, capability), [])
                case = _case(view, file.theme, vector, capability, found)
                suite.append(case)
                counts["tests"] += 1
                counts["failures"] += case.find("failure") is not None
                counts["skipped"] += case.find("skipped") is not None
        for name, number in counts.items():
            suite.set(name, str(number))
            totals[name] += number
        suite.set("errors", "0")
        suite.set("timestamp", report.date.replace(" UTC", "").replace(" ", "T") + ":00")
    for name, number in totals.items():
        root.set(name, str(number))
    root.set("errors", "0")
    ElementTree.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, "unicode") + "\n"
