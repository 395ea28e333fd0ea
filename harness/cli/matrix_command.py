"""`utf8cert matrix`: returns 0 after checking every available adapter (or those named, and any
codec spec given beside them: the user's own codec) and writing the conformance matrix (2 for
an unknown adapter name that is no codec spec either, or an output path that cannot be written,
checked before the run; 2 after the run when a file could not be written after all,
the others written)."""

from __future__ import annotations

import argparse
import difflib
import functools
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from utf8cert.harness.cli.matrix_jobs import Progress
    from utf8cert.harness.reports.matrix import Column


def positive_jobs(text: str) -> int:
    """Return the number of jobs `--jobs` names; ArgumentTypeError unless it is 1 or more."""
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"expected a number of workers (1 or more), got {text!r}")
    return jobs


def register(subcommands: Any) -> None:
    """Add the `matrix` subcommand's parser."""
    parser = subcommands.add_parser(
        "matrix",
        help="check the shipped adapters side by side: Markdown, JSON, HTML",
        description="Check every available adapter (or those named, or any codec spec) as "
        "`utf8cert check` would, "
        "and write the conformance matrix: one column per codec, one row per theme of vectors "
        "on one capability (Markdown on standard output unless a file is named). Exit status: "
        "0 written, 2 an unknown adapter or a report that cannot be written.",
    )
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="adapters to run (default: every one), or any codec spec as `check` takes "
        "(MODULE:ATTR, cmd:COMMAND, codec:NAME), checked in a child process beside them",
    )
    parser.add_argument(
        "--python", action="store_true", help="only the Python adapters (no programs)"
    )
    parser.add_argument(
        "--markdown",
        metavar="FILE",
        help="write the Markdown summary (codecs x themes, a level a cell) to FILE (- for stdout)",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="write the matrix as JSON to FILE (- for stdout)"
    )
    parser.add_argument(
        "--html", metavar="FILE", help="write a self-contained HTML page to FILE (- for stdout)"
    )
    parser.add_argument(
        "--pages",
        metavar="DIR",
        help="write a page per codec and per theme of vectors into DIR (made if missing); the "
        "Markdown summary links to them",
    )
    parser.add_argument(
        "--isolate", action="store_true", help="run Python adapters in child processes"
    )
    parser.add_argument(
        "--jobs",
        type=positive_jobs,
        default=os.cpu_count() or 1,
        metavar="N",
        help="check N adapters at a time, each in a worker process (default: one per CPU)",
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Return 0 once every chosen adapter is checked (or skipped, with its reason) and the
    matrix written (Markdown on stdout when no file is named)."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.cli.matrix_jobs import check_adapters
    from utf8cert.harness.cli.outputs import check_paths, report_failures, write_reports
    from utf8cert.harness.reports.matrix import build, to_html, to_json
    from utf8cert.harness.reports.matrix_pages import pages, summary
    from utf8cert.harness.world.catalog import PYTHON_ADAPTERS, registry

    entries = dict(PYTHON_ADAPTERS) if arguments.python else registry()
    names = [_adapter_name(name, entries) for name in arguments.names]
    unknown = [name for name in names if name not in entries and ":" not in name]
    if unknown:
        # A near miss ("icu" for "pyicu") is the usual cause: name the adapters it resembles.
        near = sorted({m for n in unknown for m in difflib.get_close_matches(n, entries, 3, 0.5)})
        near += sorted({name for name in entries for n in unknown if n in name} - set(near))
        hint = f"; did you mean {', '.join(near[:5])}?" if near else ""
        raise UsageFailure(
            f"no adapter named {', '.join(unknown)} (see utf8cert adapters), nor a codec spec "
            f"(MODULE:ATTR, cmd:COMMAND, codec:NAME){hint}"
        )
    chosen = names or list(entries)
    paths = [("--markdown", arguments.markdown), ("--json", arguments.json)]
    paths.append(("--html", arguments.html))
    check_paths(paths, stdout_closed=getattr(arguments, "stdout_closed", False))
    pages_dir = None if arguments.pages is None else Path(arguments.pages)
    if pages_dir is not None:
        try:
            pages_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageFailure(f"--pages {pages_dir}: {error.strerror or error}") from None

    with _progress(len(chosen)) as progress:
        columns = check_adapters(chosen, arguments.jobs, arguments.isolate, progress)
    matrix = build(columns)
    matrix.measured = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    link = None
    if pages_dir is not None and arguments.markdown not in (None, "-"):
        link = os.path.relpath(pages_dir, Path(arguments.markdown).parent).replace(os.sep, "/")
    renders: dict[str, Callable[[], str]] = {
        "--markdown": lambda: summary(matrix, link),
        "--json": lambda: json.dumps(to_json(matrix), indent=1) + "\n",
        "--html": lambda: to_html(matrix),
    }
    if not any(path for _, path in paths) and pages_dir is None:
        sys.stdout.write(summary(matrix))
    outputs = [(name, path, renders[name]) for name, path in paths]
    if pages_dir is not None:
        for file, text in pages(matrix).items():
            outputs.append(("--pages", str(pages_dir / file), functools.partial(str, text)))
    return report_failures(write_reports(outputs))


def _adapter_name(name: str, entries: Mapping[str, object]) -> str:
    """Return the adapter a name or spec means (`adapter:sqlite` is `sqlite`), or the name as
    given: an adapter's name, or any other codec spec, checked as its own column."""
    bare = name.removeprefix("adapter:")
    return bare if bare in entries else name


def _done_line(column: Column, seconds: float) -> str:
    """Return the line told of an adapter once checked: its verdict or why it was skipped."""
    state = column.skipped or (column.cells.verdict if column.cells else "")
    return f"{column.name}: {state} ({seconds:.1f} s)"


@contextmanager
def _progress(total: int) -> Iterator[Progress]:
    """Yield what tells of each adapter checked: its line on stderr, above a bar counting
    'n of N' adapters when stderr is a terminal (a log gets the lines alone)."""
    if not sys.stderr.isatty():

        def tell(column: Column, seconds: float) -> None:
            print(_done_line(column, seconds), file=sys.stderr, flush=True)

        yield tell
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("checking adapters"),
        BarColumn(),
        TextColumn("{task.completed} of {task.total}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("adapters", total=total)

        def advance(column: Column, seconds: float) -> None:
            bar.console.print(_done_line(column, seconds), markup=False, highlight=False)
            bar.advance(task)

        yield advance
