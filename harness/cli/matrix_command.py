"""`utf8cert matrix`: returns 0 after checking every available adapter (or those named) and
writing the conformance matrix (2 for an unknown adapter name or an output path that cannot
be written, checked before the run; 2 after the run when a file could not be written after all,
the others written)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any


def register(subcommands: Any) -> None:
    """Add the `matrix` subcommand's parser."""
    parser = subcommands.add_parser(
        "matrix", help="check the shipped adapters side by side: Markdown, JSON, HTML"
    )
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help="adapters to run (default: every one)"
    )
    parser.add_argument(
        "--python", action="store_true", help="only the Python adapters (no programs)"
    )
    parser.add_argument(
        "--markdown", metavar="FILE", help="write the Markdown matrix to FILE (- for stdout)"
    )
    parser.add_argument(
        "--json", metavar="FILE", help="write the matrix as JSON to FILE (- for stdout)"
    )
    parser.add_argument(
        "--html", metavar="FILE", help="write a self-contained HTML page to FILE (- for stdout)"
    )
    parser.add_argument(
        "--isolate", action="store_true", help="run Python adapters in child processes"
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Return 0 once every chosen adapter is checked (or skipped, with its reason) and the
    matrix written (Markdown on stdout when no file is named)."""
    from utf8cert.harness.check.run import run_check
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.cli.outputs import check_paths, report_failures, write_reports
    from utf8cert.harness.codec.adapters import PYTHON_ADAPTERS, registry
    from utf8cert.harness.codec.spec import CodecSpecError, load_codec
    from utf8cert.harness.reports.matrix import Column, build, to_html, to_json, to_markdown
    from utf8cert.harness.vectors.load import load_vectors

    entries = dict(PYTHON_ADAPTERS) if arguments.python else registry()
    unknown = [name for name in arguments.names if name not in entries]
    if unknown:
        raise UsageFailure(f"no adapter named {', '.join(unknown)} (see utf8cert adapters)")
    chosen = arguments.names or list(entries)
    paths = [("--markdown", arguments.markdown), ("--json", arguments.json)]
    paths.append(("--html", arguments.html))
    check_paths(paths, stdout_closed=getattr(arguments, "stdout_closed", False))
    vectors = load_vectors()
    columns: list[Column] = []
    for name in chosen:
        entry = entries[name]
        started = time.perf_counter()
        reason = entry.unavailable()
        column = Column(name, entry.description, entry.version(), skipped=reason)
        if reason is None:
            try:
                codec = load_codec(f"adapter:{name}", isolate=arguments.isolate)
            except CodecSpecError as error:
                column = Column(name, entry.description, column.version, skipped=error.problem)
            else:
                try:
                    report = run_check(codec, vectors)
                finally:
                    codec.close()
                column = Column(name, entry.description, column.version, report)
        state = column.skipped or (column.report.verdict() if column.report else "")
        print(f"{name}: {state} ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
        columns.append(column)
    matrix = build(columns)
    renders: dict[str, Callable[[], str]] = {
        "--markdown": lambda: to_markdown(matrix),
        "--json": lambda: json.dumps(to_json(matrix), indent=1) + "\n",
        "--html": lambda: to_html(matrix),
    }
    if not any(path for _, path in paths):
        sys.stdout.write(to_markdown(matrix))
    return report_failures(write_reports((name, path, renders[name]) for name, path in paths))
