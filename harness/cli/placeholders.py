"""The INCOMPLETE report written at every report path of `check` before anything can fail, and
again, saying why, when the run fails before it ends.

A judge killed mid-run (SIGKILL, which no handler sees; or a codec that kills it) writes no
report, and a run that stops on bad input (a vector file, a path, the codec's spec, Ctrl-C) has
none to write: without this, the previous run's passing reports would stay at those paths for CI
to read. So each path is first replaced by a report of its own format that says the run did not
finish and fails as CI reads it (JSON `certified` and `passed` false, JUnit a failing case
`complete`, Markdown and HTML an INCOMPLETE gate), made by the formats' own renderers from an
empty report: a run that ends replaces it with its own. It names the suite asked (once the
vectors are read) and the boundary the codec would have run behind, as every report does.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Final

from utf8cert.harness.check.report import Report
from utf8cert.harness.cli.main import UsageFailure
from utf8cert.harness.cli.outputs import (
    FILE_OPTIONS,
    STDOUT,
    file_identity,
    output_problem,
    write_outputs,
)
from utf8cert.harness.codec import sandbox
from utf8cert.harness.reports.view import View
from utf8cert.harness.vectors.identity import suite_of
from utf8cert.harness.vectors.model import VectorSet

UNFINISHED: Final = (
    "the run did not finish: this report was written before the codec first ran, "
    "and a run that ends replaces it"
)
"""Why the placeholder is incomplete: its gate reads 'INCOMPLETE: the run did not finish …'."""


def not_started(why: str) -> str:
    """Return why the placeholder of a run that failed before its end is incomplete."""
    return f"the run did not finish: {why}"


def placeholder_view(
    spec: str, asked: VectorSet, arguments: argparse.Namespace, why: str = UNFINISHED
) -> View:
    """Return the view of a report of nothing checked, INCOMPLETE for `why`, naming the suite
    `asked` (of an empty set for a check of one input, or before the vectors are read), the
    boundary the codec runs behind and the gate of `arguments`."""
    report = Report(spec, frozenset(), VectorSet(()), incomplete=why)
    report.suite = suite_of(asked)
    in_process = not arguments.isolate and not spec.startswith(("cmd:", "native:"))
    report.boundary = sandbox.IN_PROCESS if in_process else sandbox.boundary()
    return View(report, arguments.fail_on)


def write_placeholders(
    spec: str, asked: VectorSet, arguments: argparse.Namespace, why: str = UNFINISHED
) -> list[str]:
    """Write the INCOMPLETE report at each report file `arguments` names that can take one (not
    standard output, which holds only what the run ends with; not a path the run refuses: one
    `output_problem` names, such as a symbolic link, or one file named by two options); return
    one line per file that could not be written (each is tried)."""
    to_files = argparse.Namespace(**vars(arguments))
    named = Counter(
        file_identity(path)
        for name in FILE_OPTIONS
        if (path := getattr(arguments, name, None)) not in (None, STDOUT)
    )
    for name in FILE_OPTIONS:
        path = getattr(to_files, name, None)
        if path is None:
            continue
        if path == STDOUT or output_problem(Path(path)) or named[file_identity(path)] > 1:
            setattr(to_files, name, None)
    return write_outputs(placeholder_view(spec, asked, arguments, why), to_files)


def require_placeholders(spec: str, asked: VectorSet, arguments: argparse.Namespace) -> None:
    """Write the INCOMPLETE reports; UsageFailure (one line) if one cannot be written, before
    the codec runs."""
    failed = write_placeholders(spec, asked, arguments)
    if failed:
        raise UsageFailure(f"could not write {failed[0]}")
