"""The INCOMPLETE report written at every report path of `check` before the codec first runs.

A judge killed mid-run (SIGKILL, which no handler sees; or a codec that kills it) writes no
report: without this, the previous run's passing reports would stay at those paths for CI to
read. So each path is first replaced by a report of its own format that says the run did not
finish and fails as CI reads it (JSON `certified` and `passed` false, JUnit a failing case
`complete`, Markdown and HTML an INCOMPLETE gate), made by the formats' own renderers from an
empty report: a run that ends replaces it with its own. It names the suite asked, as every
report does.
"""

from __future__ import annotations

import argparse
from typing import Final

from utf8cert.harness.check.report import Report
from utf8cert.harness.cli.main import UsageFailure
from utf8cert.harness.cli.outputs import STDOUT, write_outputs
from utf8cert.harness.reports.view import View
from utf8cert.harness.vectors.identity import suite_of
from utf8cert.harness.vectors.model import VectorSet

UNFINISHED: Final = (
    "the run did not finish: this report was written before the codec first ran, "
    "and a run that ends replaces it"
)
"""Why the placeholder is incomplete: its gate reads 'INCOMPLETE: the run did not finish …'."""


def placeholder_view(spec: str, asked: VectorSet, arguments: argparse.Namespace) -> View:
    """Return the view of a report of nothing checked, INCOMPLETE, naming the suite `asked`
    (of an empty set for a check of one input) and the gate of `arguments`."""
    report = Report(spec, frozenset(), VectorSet(()), incomplete=UNFINISHED)
    report.suite = suite_of(asked)
    return View(report, arguments.fail_on)


def write_placeholders(spec: str, asked: VectorSet, arguments: argparse.Namespace) -> None:
    """Write the INCOMPLETE report at each report file `arguments` names (not standard
    output, which holds only what the run ends with); UsageFailure (one line) if one cannot
    be written, before the codec runs."""
    to_files = argparse.Namespace(**vars(arguments))
    if to_files.json == STDOUT:
        to_files.json = None
    failed = write_outputs(placeholder_view(spec, asked, arguments), to_files)
    if failed:
        raise UsageFailure(f"could not write {failed[0]}")
