"""Where the report of `utf8cert check` goes: the terminal (or standard error when standard
output carries JSON), and the files of --json, --markdown, --junit-xml, --html, --write-baseline,
checked before the run so that no report is lost to a bad path."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rich.console import Console

from utf8cert.harness.reports.view import View, plural

if TYPE_CHECKING:
    from utf8cert.harness.check.baseline import Baseline
    from utf8cert.harness.check.report import Report

STDOUT = "-"
"""The file name that stands for standard output (for --json)."""
FILE_OPTIONS = ("json", "markdown", "junit_xml", "html", "write_baseline")


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def output_problem(path: Path) -> str | None:
    """Return why a report cannot be written to `path` (None when it can): a directory, a
    missing or unwritable directory, an unwritable file."""
    if path.is_dir():
        return "is a directory"
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        return f"no directory {parent}"
    if path.exists() and not os.access(path, os.W_OK):
        return "not writable"
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return f"directory {parent} not writable"
    return None


def check_outputs(arguments: argparse.Namespace) -> None:
    """Raise UsageFailure (one line) for the first output file that cannot be written, before
    anything is run; `-` is standard output for --json only."""
    from utf8cert.harness.cli.main import UsageFailure

    if arguments.json == STDOUT and arguments.github:
        raise UsageFailure("--json - and --github both write to standard output: choose one")
    for name in FILE_OPTIONS:
        value = getattr(arguments, name, None)
        if value is None or (value == STDOUT and name == "json"):
            continue
        problem = output_problem(Path(value))
        if problem is not None:
            raise UsageFailure(f"{_option(name)} {value}: {problem}")


def write_outputs(view: View, arguments: argparse.Namespace) -> None:
    """Write every report file asked for (OSError if one fails after all)."""
    from utf8cert.harness.reports.html import report_html
    from utf8cert.harness.reports.json_report import report_json
    from utf8cert.harness.reports.junit import report_junit
    from utf8cert.harness.reports.markdown import report_markdown

    writers = {
        "json": report_json,
        "markdown": report_markdown,
        "junit_xml": report_junit,
        "html": report_html,
    }
    for name, writer in writers.items():
        value = getattr(arguments, name)
        if value is None:
            continue
        if value == STDOUT and name == "json":
            sys.stdout.write(writer(view))
            sys.stdout.flush()
        else:
            Path(value).write_text(writer(view), encoding="utf-8")


def write_new_baseline(
    arguments: argparse.Namespace, report: Report, baseline: Baseline | None, profile: str | None
) -> tuple[Baseline | None, str | None]:
    """Return the baseline the report is judged by and what --write-baseline did (None when it is
    not asked for): every difference of a complete run written as known, with those of the
    baseline given; an incomplete run is not written. OSError if the file cannot be written."""
    from utf8cert.harness.check.baseline import Baseline, write_baseline

    path = arguments.write_baseline
    if not path:
        return baseline, None
    if report.incomplete:
        return baseline, f"did not write {path}: the run is incomplete"
    count = write_baseline(path, report.codec, report.differences, profile)
    keys = frozenset(difference.key for difference in report.differences)
    known = keys | (baseline.keys if baseline is not None else frozenset())
    return Baseline(path, report.codec, profile, known), f"wrote {path}: {count} known deviations"


def console_for(stream: TextIO, color: str) -> Console:
    """Return the console of the terminal report: coloured by `color` (auto: on a terminal,
    unless NO_COLOR is set), never hard-wrapped when `stream` is not a terminal."""
    terminal = stream.isatty()
    return Console(
        file=stream,
        highlight=False,
        soft_wrap=not terminal,
        force_terminal=True if color == "always" else None,
        no_color=False if color == "always" else None,
        color_system=None if color == "never" else "auto",
    )


def show(view: View, arguments: argparse.Namespace, written: str | None) -> None:
    """Print the terminal report (to standard error when standard output carries the JSON),
    the GitHub annotations, and what --write-baseline wrote."""
    from utf8cert.harness.reports.github import workflow_commands
    from utf8cert.harness.reports.text import render, render_quiet

    stream = sys.stderr if arguments.json == STDOUT else sys.stdout
    console = console_for(stream, arguments.color)
    if arguments.quiet:
        render_quiet(view, console)
    else:
        render(view, console, arguments.verbose)
    if arguments.github:
        sys.stdout.write("".join(line + "\n" for line in workflow_commands(view)))
    if written is not None:
        behaviours = plural(len(view.known_groups), "behaviour")
        print(f"utf8cert: {written} ({behaviours})", file=sys.stderr)
