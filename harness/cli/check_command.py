"""`utf8cert check [SPEC]`: returns 0 when the codec passes at the chosen level, else 1 (2 for a
usage or load error, one line on stderr)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from utf8cert.harness.check.interrupt import DEADLINE_EXIT
from utf8cert.harness.check.profiles import PROFILES
from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB
from utf8cert.harness.vectors.model import LEVELS, VectorSet

if TYPE_CHECKING:
    from utf8cert.harness.check.breaker import Note
    from utf8cert.harness.check.interrupt import Stop
    from utf8cert.harness.reports.explain import Rerun

DEFAULT_TIMEOUT = 10.0
DEFAULT_PROFILE = "rfc3629"


def register(subcommands: Any) -> None:
    """Add the `check` subcommand's parser."""
    parser = subcommands.add_parser(
        "check",
        help="check a codec against every vector (default: CPython's utf-8)",
        description="Check a codec against every vector, each in all its variants, on every "
        "capability the codec offers. Exit status: 0 conformant at --fail-on, 1 differences "
        "or a capability not certified (too few questions answered), 2 usage or load error, "
        f"{DEADLINE_EXIT} stopped at --deadline, 128+N stopped by signal N (130 SIGINT, 143 "
        "SIGTERM): an incomplete report of the vectors checked until then.",
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
    parser.add_argument(
        "--vector",
        action="append",
        default=[],
        metavar="ID",
        help="check only the vector with this id (repeatable; built-in or from --vectors)",
    )
    add_output_arguments(parser)
    add_limit_arguments(parser)
    parser.add_argument(
        "--fail-on",
        choices=LEVELS,
        default="must",
        help="the least binding level that fails the run (default: must)",
    )
    parser.add_argument("--baseline", metavar="FILE", help="known deviations: only new ones fail")
    parser.add_argument(
        "--baseline-any-codec",
        action="store_true",
        help="use a baseline recorded for another codec or profile",
    )
    parser.add_argument(
        "--strict-baseline",
        action="store_true",
        help="fail when a known deviation no longer occurs (the baseline is out of date)",
    )
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
    given = parser.add_mutually_exclusive_group()
    given.add_argument(
        "--input",
        metavar="HEX",
        help="check one byte string instead of the vectors, each capability's answer shown "
        "beside the reference's; - reads the bytes (raw, not hex) from standard input",
    )
    given.add_argument(
        "--input-file", metavar="FILE", help="check the bytes of FILE as one input (as --input)"
    )
    parser.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        choices=list(PROFILES),
        help=f"check against a named dialect instead of RFC 3629 (default: {DEFAULT_PROFILE})",
    )


def _positive(text: str) -> float:
    """Return the positive number `text` says; argparse's error (one line, exit 2) if not."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options that bound a whole run and each call of an isolated codec."""
    parser.add_argument(
        "--deadline",
        type=_positive,
        metavar="S",
        help="stop after S seconds in all, with a report of the vectors checked until then "
        f"marked INCOMPLETE (exit {DEADLINE_EXIT})",
    )
    parser.add_argument(
        "--memory",
        type=int,
        metavar="MB",
        default=DEFAULT_MEMORY_MB,
        help="memory allowed to an isolated codec or cmd: program, in MiB (default: "
        f"{DEFAULT_MEMORY_MB}); more is a finding",
    )


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options that say how the report is shown and which files it goes to."""
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "-v", "--verbose", action="store_true", help="explain every difference, not one a behaviour"
    )
    shown.add_argument("-q", "--quiet", action="store_true", help="print the verdict line only")
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the report (default: auto, on a terminal unless NO_COLOR is set)",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="write the report as JSON (- for standard output)"
    )
    parser.add_argument("--markdown", metavar="FILE", help="write a markdown certificate")
    parser.add_argument(
        "--junit-xml", metavar="FILE", help="write JUnit XML: a test case per vector and capability"
    )
    parser.add_argument("--html", metavar="FILE", help="write a self-contained HTML report")
    parser.add_argument(
        "--github",
        action="store_true",
        help="print GitHub Actions annotations, one per behaviour",
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


def read_input(arguments: argparse.Namespace) -> tuple[bytes, str | None] | None:
    """Return the one input asked for and where it came from (None for --input HEX): the
    bytes of --input-file FILE, of standard input for `--input -`, or of --input HEX; None
    when none is asked for. UsageFailure (one line) for a file that cannot be read or bad hex."""
    from utf8cert.harness.cli.main import UsageFailure

    one_input = arguments.input_file is not None or arguments.input is not None
    for option, given in (("--vectors", arguments.vectors), ("--vector", arguments.vector)):
        if one_input and given:
            # One input is checked alone: vectors would be silently ignored.
            raise UsageFailure(f"{option} has no effect on a check of one input (--input)")
    if arguments.input_file is not None:
        try:
            return Path(arguments.input_file).read_bytes(), arguments.input_file
        except OSError as error:
            problem = error.strerror or str(error)
            raise UsageFailure(f"--input-file {arguments.input_file}: {problem}") from None
    if arguments.input == "-":
        return sys.stdin.buffer.read(), "-"
    return None if arguments.input is None else (parse_hex(arguments.input), None)


def only_vectors(vectors: VectorSet, ids: Sequence[str]) -> VectorSet:
    """Return the vectors whose ids are given (all of them for no ids); UsageFailure naming an
    id that no vector has."""
    from utf8cert.harness.cli.main import UsageFailure

    if not ids:
        return vectors
    unknown = sorted(set(ids) - {vector.id for vector in vectors})
    if unknown:
        raise UsageFailure(f"--vector {unknown[0]}: no such vector (built-in or in --vectors)")
    return VectorSet(
        tuple(
            replace(file, vectors=tuple(v for v in file.vectors if v.id in ids))
            for file in vectors.files
        )
    )


def _rerun(
    arguments: argparse.Namespace, vectors: VectorSet, profile: str | None, source: str | None
) -> Rerun:
    """Return what reproduces a difference of this run: spec, isolation, timeout, memory,
    profile, the user's vector files, and the file the one input was read from (`source`; not
    standard input, which cannot be read again)."""
    from utf8cert.harness.reports.explain import Rerun, user_vector_ids

    return Rerun(
        arguments.spec or "codec:utf-8",
        isolate=arguments.isolate,
        timeout=arguments.timeout,
        profile=profile,
        vectors=tuple(arguments.vectors),
        user_vectors=user_vector_ids(vectors),
        input_file=None if source in (None, "-") else source,
        memory=_memory(arguments),
    )


def _memory(arguments: argparse.Namespace) -> int | None:
    """Return the --memory a reproducer must carry: None for the default."""
    return None if arguments.memory == DEFAULT_MEMORY_MB else int(arguments.memory)


def run(arguments: argparse.Namespace) -> int:
    """Return the exit status of one `check` run, the report printed and files written; a run
    stopped by a signal or its --deadline writes what it checked until then, marked incomplete
    (interrupt.py), and returns 128 + the signal or DEADLINE_EXIT."""
    from utf8cert.harness.check.interrupt import Interrupted, Stop, watching
    from utf8cert.harness.cli.main import UsageFailure

    if arguments.memory < 1:
        raise UsageFailure(f"--memory must be at least 1 MiB, not {arguments.memory}")
    stop = Stop()
    with watching(stop, arguments.deadline):
        try:
            return _run(arguments, stop)
        except Interrupted:
            print(f"utf8cert: stopped by {stop.reason}", file=sys.stderr)
            return stop.exit_status()


def _fatal_note(arguments: argparse.Namespace, profile: str | None) -> Note:
    """Return the note an in-process codec that kills the interpreter leaves on stderr: the
    vector and capability asked, and the command that asks them again in a child process."""
    import shlex

    from utf8cert.harness.reports.explain import Rerun

    rerun = Rerun(
        arguments.spec or "codec:utf-8", True, arguments.timeout, profile, memory=_memory(arguments)
    )
    command = ["utf8cert", "check", rerun.spec, *rerun.options()]
    command += [word for path in arguments.vectors for word in ("--vectors", path)]

    def note(vector: str, capability: str) -> str:
        again = shlex.join([*command, "--vector", vector])
        return (
            f"utf8cert: the codec was asked vector {vector} on {capability} in this process and "
            f"took it down; in a child process that is a finding: {again}"
        )

    return note


def _run(arguments: argparse.Namespace, stop: Stop) -> int:
    """Return the exit status of `run`, the run obeying `stop`."""
    from utf8cert.harness.check.baseline import Baseline, load_baseline, write_baseline
    from utf8cert.harness.check.fatal import enabled_to_stderr
    from utf8cert.harness.check.run import check_one_input, run_check
    from utf8cert.harness.cli.outputs import check_outputs, show, write_outputs
    from utf8cert.harness.codec.isolate import ProcessCodec
    from utf8cert.harness.codec.spec import load_codec
    from utf8cert.harness.reports.view import View
    from utf8cert.harness.vectors.load import load_vectors

    # A reproducer and a baseline name the profile only when one other than RFC 3629 is chosen.
    profile = None if arguments.profile == DEFAULT_PROFILE else arguments.profile
    given = read_input(arguments)
    data, source = (None, None) if given is None else given
    check_outputs(arguments)
    with _one_line_errors():
        vectors = load_vectors(arguments.vectors) if data is None else VectorSet(())
        vectors = only_vectors(vectors, arguments.vector) if data is None else vectors
        baseline = load_baseline(arguments.baseline) if arguments.baseline else None
        with stop.interruptible():
            codec = load_codec(
                arguments.spec,
                isolate=arguments.isolate,
                timeout=arguments.timeout,
                memory_mb=arguments.memory,
            )
    try:
        if baseline is not None:
            with _one_line_errors():
                baseline = baseline.matching(codec.spec, profile, arguments.baseline_any_codec)
        dialect = PROFILES[arguments.profile]
        in_process = not isinstance(codec, ProcessCodec)
        note = _fatal_note(arguments, profile) if in_process else None
        if data is None:
            with _progress(len(vectors)) as progress, enabled_to_stderr():
                depth = arguments.depth
                report = run_check(
                    codec, vectors, progress, profile=dialect, depth=depth, stop=stop, note=note
                )
        else:
            report = check_one_input(codec, data, dialect, source, stop=stop)
    finally:
        codec.close()
    written = None
    if arguments.write_baseline and report.incomplete:
        written = f"did not write {arguments.write_baseline}: the run is incomplete"
    elif arguments.write_baseline:
        with _one_line_errors():
            count = write_baseline(
                arguments.write_baseline, report.codec, report.differences, profile
            )
        keys = frozenset(difference.key for difference in report.differences)
        known = keys | (baseline.keys if baseline is not None else frozenset())
        baseline = Baseline(arguments.write_baseline, report.codec, profile, known)
        written = f"wrote {arguments.write_baseline}: {count} known deviations"
    view = View(
        report,
        arguments.fail_on,
        baseline,
        _rerun(arguments, vectors, profile, source),
        arguments.strict_baseline,
    )
    with _one_line_errors():
        write_outputs(view, arguments)
    show(view, arguments, written)
    if report.incomplete:
        return stop.exit_status()
    return 0 if view.passed else 1


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
