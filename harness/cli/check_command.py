"""`utf8cert check [SPEC]`: returns 0 when the codec passes at the chosen level, else 1 (2 for a
usage or load error, one line on stderr)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from utf8cert.harness.check.profiles import PROFILES
from utf8cert.harness.vectors.model import LEVELS, Level

DEFAULT_TIMEOUT = 10.0


def register(subcommands: Any) -> None:
    """Add the `check` subcommand's parser."""
    parser = subcommands.add_parser(
        "check",
        help="check a codec against every vector (default: CPython's utf-8)",
        description="Check a codec against every vector, each in all its variants, on every "
        "capability the codec offers. Exit status: 0 conformant at --fail-on, 1 differences "
        "or a capability not certified (too few questions answered), 2 usage or load error.",
    )
    add_check_arguments(parser)
    parser.set_defaults(run=run)


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of `check` to `parser`."""
    parser.add_argument(
        "spec",
        nargs="?",
        metavar="SPEC",
        help="MODULE:ATTR, codec:NAME[:ERRORS], cmd:COMMAND or adapter:NAME (default: codec:utf-8)",
    )
    parser.add_argument(
        "--vectors",
        action="extend",
        nargs="+",
        default=[],
        metavar="PATH",
        help="extra vector files or directories, checked with the built-in ones",
    )
    parser.add_argument("--json", metavar="FILE", help="write the report as JSON")
    parser.add_argument("--markdown", metavar="FILE", help="write a markdown certificate")
    parser.add_argument(
        "--fail-on",
        choices=LEVELS,
        default="must",
        help="the least binding level that fails the run (default: must)",
    )
    parser.add_argument("--baseline", metavar="FILE", help="known deviations: only new ones fail")
    parser.add_argument(
        "--write-baseline", metavar="FILE", help="write every difference found as known"
    )
    parser.add_argument(
        "--isolate", action="store_true", help="run a Python codec in a child process"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds allowed per call in a child process (default: {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--depth",
        choices=("default", "full"),
        default="default",
        help="default: every vector as is, mid-stream and byte by byte, the shifts, straddles "
        "and every-point cuts spread over the vectors; full: every variant of every vector",
    )
    parser.add_argument(
        "--input",
        metavar="HEX",
        help="check one byte string instead of the vectors, each capability's answer shown "
        "beside the reference's",
    )
    parser.add_argument(
        "--profile",
        default="rfc3629",
        choices=list(PROFILES),
        help="check against a named dialect instead of RFC 3629 (default: rfc3629)",
    )


@contextmanager
def _one_line_errors() -> Iterator[None]:
    """Turn the errors of loading user input into UsageFailure (one line, exit 2)."""
    from utf8cert.harness.check.baseline import BaselineError
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.codec.spec import CodecSpecError
    from utf8cert.harness.vectors.load import VectorLoadError

    try:
        yield
    except (VectorLoadError, CodecSpecError, BaselineError) as error:
        raise UsageFailure(str(error)) from None
    except OSError as error:
        raise UsageFailure(f"{error.filename or ''}: {error.strerror or error}") from None


def parse_hex(text: str) -> bytes:
    """Return the bytes of a hex string (spaces and colons allowed); UsageFailure if not hex."""
    from utf8cert.harness.cli.main import UsageFailure

    digits = "".join(text.replace(":", " ").split())
    try:
        return bytes.fromhex(digits)
    except ValueError:
        raise UsageFailure(f"--input {text!r}: not a hex byte string (e.g. e282ac)") from None


def run(arguments: argparse.Namespace) -> int:
    """Return the exit status of one `check` run, the report printed and files written."""
    from rich.console import Console

    from utf8cert.harness.check.baseline import load_baseline, write_baseline
    from utf8cert.harness.check.run import check_one_input, run_check
    from utf8cert.harness.codec.spec import load_codec
    from utf8cert.harness.reports.markdown import report_markdown
    from utf8cert.harness.reports.text import render, report_json
    from utf8cert.harness.vectors.load import load_vectors
    from utf8cert.harness.vectors.model import VectorSet

    data = None if arguments.input is None else parse_hex(arguments.input)
    with _one_line_errors():
        vectors = load_vectors(arguments.vectors) if data is None else VectorSet(())
        known: Collection[tuple[str, str, str, str]] = (
            load_baseline(arguments.baseline) if arguments.baseline else frozenset()
        )
        codec = load_codec(arguments.spec, isolate=arguments.isolate, timeout=arguments.timeout)
    profile = PROFILES[arguments.profile]
    try:
        if data is None:
            with _progress(len(vectors)) as progress:
                report = run_check(codec, vectors, progress, profile=profile, depth=arguments.depth)
        else:
            report = check_one_input(codec, data, profile)
    finally:
        codec.close()
    fail_on: Level = arguments.fail_on
    with _one_line_errors():
        if arguments.write_baseline:
            write_baseline(arguments.write_baseline, report.codec, report.differences)
            known = set(known) | {difference.key for difference in report.differences}
        if arguments.json:
            Path(arguments.json).write_text(report_json(report, fail_on, known), encoding="utf-8")
        if arguments.markdown:
            text = report_markdown(report, fail_on, known)
            Path(arguments.markdown).write_text(text, encoding="utf-8")
    render(report, Console(highlight=False), fail_on, known)
    return 1 if report.failing(fail_on, known) or not report.covered else 0


@contextmanager
def _progress(total: int) -> Iterator[Any]:
    """Yield a progress callback: a bar on a terminal's stderr, nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("checking vectors", total=total)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done)

        yield advance
