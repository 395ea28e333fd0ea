"""Where reports go, each written whole or not at all: the terminal (or standard error when
standard output carries a report), and the files every subcommand writes (check's --json,
--markdown, --junit-xml, --html, --write-baseline; matrix's; vectors export; fuzz's log).

Every file is checked before the run (so that no report is lost to a bad path), written to a
temporary file beside it and renamed into place (so that a full disk leaves no half report and a
symbolic link planted at the path is replaced, not followed), and refused when something other
than a regular file is there (a FIFO would block, a device swallow it). One report that cannot be
written does not stop the others, nor the verdict: it is named on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import errno
import functools
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rich.console import Console

from utf8cert.harness.cli.main import USAGE_ERROR, UsageFailure
from utf8cert.harness.reports.view import View, plural

if TYPE_CHECKING:
    from utf8cert.harness.check.baseline import Baseline
    from utf8cert.harness.check.report import Report

STDOUT = "-"
"""The file name that stands for standard output."""
FILE_OPTIONS = ("json", "markdown", "junit_xml", "html", "write_baseline")


class OutputFailure(Exception):
    """A report that could not be written; str() is the one line naming the option and path."""


def option_name(name: str) -> str:
    """Return the command-line spelling of the argparse destination `name` (`--junit-xml`)."""
    return "--" + name.replace("_", "-")


def output_problem(path: Path) -> str | None:
    """Return why a report cannot be written to `path` (None when it can): anything there that
    is not a regular file (a symbolic link is never followed: a link planted in a repository
    would have its target overwritten), a missing or unwritable directory."""
    try:
        mode: int | None = path.lstat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        return error.strerror or str(error)
    if mode is not None and stat.S_ISLNK(mode):
        return "is a symbolic link (not followed: remove it or name another path)"
    if mode is not None and stat.S_ISDIR(mode):
        return "is a directory"
    if mode is not None and not stat.S_ISREG(mode):
        return "is not a regular file"
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        return f"no directory {parent}"
    # The report is renamed into place: its directory must be writable even if the file is.
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"directory {parent} not writable"
    return None


def check_paths(paths: Iterable[tuple[str, str | None]], *, stdout_closed: bool = False) -> None:
    """Raise UsageFailure (one line) for the first (option, path) whose path cannot take a
    report, before anything is run; `-` is standard output, which one option at most may take
    (matrix has three that might)."""
    given = [(option, path) for option, path in paths if path is not None]
    to_stdout = [option for option, path in given if path == STDOUT]
    if len(to_stdout) > 1:
        named = " and ".join(f"{option} -" for option in to_stdout)
        every = "both" if len(to_stdout) == 2 else "all"
        raise UsageFailure(f"{named} {every} write to standard output: choose one")
    if to_stdout and stdout_closed:
        raise UsageFailure(f"{to_stdout[0]} -: standard output is closed")
    _refuse_shared_files([(option, path) for option, path in given if path != STDOUT])
    for option, path in given:
        problem = None if path == STDOUT else output_problem(Path(path))
        if problem is not None:
            raise UsageFailure(f"{option} {path}: {problem}")


def file_identity(path: str) -> tuple[object, ...]:
    """Return what names one file whatever the spelling of `path`: its device and inode when it
    exists (a hard link is the same file), else its absolute path, directories resolved."""
    try:
        found = os.stat(path)
    except OSError:
        return (os.path.realpath(path),)
    return (found.st_dev, found.st_ino)


def _refuse_shared_files(given: list[tuple[str, str]]) -> None:
    """Raise UsageFailure (one line) when two options name one file: the second report would
    silently replace the first (`--json r --markdown r`)."""
    seen: dict[tuple[object, ...], tuple[str, str]] = {}
    for option, path in given:
        identity = file_identity(path)
        if identity in seen:
            first, first_path = seen[identity]
            raise UsageFailure(
                f"{first} {first_path} and {option} {path} name one file: give each its own path"
            )
        seen[identity] = (option, path)


def _new_file_mode(path: Path) -> int:
    """Return the permissions a report written to `path` gets: those of the file it replaces,
    else what the umask leaves of rw-rw-rw- (as open() would have given)."""
    try:
        return stat.S_IMODE(path.lstat().st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def write_report(path: str | Path, text: str) -> None:
    """Write `text` to `path` (`-`: standard output) whole or not at all: through a temporary
    file beside it, renamed into place, so that a full disk leaves the old file (or none) and a
    symbolic link at `path` is replaced, never followed. OutputFailure (one line) on failure."""
    if str(path) == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    path = Path(path)
    problem = output_problem(path)
    if problem is not None:
        raise OutputFailure(f"{path}: {problem}")
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as error:
        raise OutputFailure(f"{path}: {error.strerror or error}") from None
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(text.encode("utf-8"))
            file.flush()
            os.fsync(file.fileno())
            os.fchmod(file.fileno(), _new_file_mode(path))
        os.replace(temporary, path)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise OutputFailure(f"{path}: {error.strerror or error}") from None
        raise


def write_reports(reports: Iterable[tuple[str, str | None, Callable[[], str]]]) -> list[str]:
    """Write each (option, path, render) whose path is given; return one line per report that
    could not be written, naming its option (each is tried: one failure stops no other)."""
    failed = []
    for option, path, render in reports:
        if path is None:
            continue
        try:
            write_report(path, render())
        except OutputFailure as failure:
            failed.append(f"{option} {failure}")
    return failed


def open_log(path: Path) -> TextIO:
    """Return `path` opened for writing a log as it grows (truncated), refusing what is not a
    regular file: a symbolic link is not followed, a FIFO does not block. OutputFailure if not."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as error:
        reason = output_problem(path) or error.strerror or str(error)
        raise OutputFailure(f"{path}: {reason}") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise OutputFailure(f"{path}: is not a regular file")
    os.set_blocking(descriptor, True)
    os.ftruncate(descriptor, 0)
    return os.fdopen(descriptor, "w", encoding="utf-8")


def report_failures(failed: list[str]) -> int:
    """Return the exit status after the reports written: 2 when one failed (each named on
    stderr, after the verdict), else 0."""
    for line in failed:
        print(f"utf8cert: error: could not write {line}", file=sys.stderr)
    return USAGE_ERROR if failed else 0


def check_outputs(arguments: argparse.Namespace) -> None:
    """Raise UsageFailure (one line) for the first output file of `check` that cannot be
    written, before anything is run; `-` is standard output for --json only."""
    if arguments.json == STDOUT and arguments.github:
        raise UsageFailure("--json - and --github both write to standard output: choose one")
    for name in FILE_OPTIONS:
        if name != "json" and getattr(arguments, name, None) == STDOUT:
            raise UsageFailure(f"{option_name(name)} -: only --json writes to standard output")
    closed = getattr(arguments, "stdout_closed", False)
    check_paths(
        ((option_name(name), getattr(arguments, name, None)) for name in FILE_OPTIONS),
        stdout_closed=closed,
    )


def write_outputs(view: View, arguments: argparse.Namespace) -> list[str]:
    """Return one line per report file asked for that could not be written (each is tried)."""
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
    return write_reports(
        (option_name(name), getattr(arguments, name), functools.partial(writer, view))
        for name, writer in writers.items()
    )


def write_new_baseline(
    arguments: argparse.Namespace, report: Report, baseline: Baseline | None, profile: str | None
) -> tuple[Baseline | None, str | None, list[str]]:
    """Return the baseline the report is judged by, what --write-baseline did (None when it is
    not asked for) and the failure to write it ([] or one line): every difference of a complete
    run written as known, with those of the baseline given; an incomplete run is not written."""
    from utf8cert.harness.check.baseline import Baseline, baseline_text

    path = arguments.write_baseline
    if not path:
        return baseline, None, []
    if report.incomplete:
        return baseline, f"did not write {path}: the run is incomplete", []
    text = baseline_text(report.codec, report.differences, profile)
    try:
        write_report(path, text)
    except OutputFailure as failure:
        return baseline, None, [f"--write-baseline {failure}"]
    keys = frozenset(difference.key for difference in report.differences)
    known = keys | (baseline.keys if baseline is not None else frozenset())
    written = f"wrote {path}: {len(keys)} known deviations"
    return Baseline(path, report.codec, profile, known), written, []


class _Console(Console):
    """A rich Console whose broken pipe is the command's (main: exit 141), not rich's exit 1,
    which would read as a verdict of differences."""

    def on_broken_pipe(self) -> None:
        """Never return: stop writing, and raise BrokenPipeError for main to end quietly."""
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def console_for(stream: TextIO, color: str) -> Console:
    """Return the console of the terminal report: coloured by `color` (auto: on a terminal,
    unless NO_COLOR is set), never hard-wrapped when `stream` is not a terminal."""
    terminal = stream.isatty()
    return _Console(
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
