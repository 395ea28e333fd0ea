"""`utf8cert check [SPEC]`: returns 0 when the codec passes at the chosen level, else 1 (2 for a
usage or load error, one line on stderr)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from utf8cert.harness.check.interrupt import DEADLINE_EXIT, default_deadline
from utf8cert.harness.check.profiles import PROFILES
from utf8cert.harness.cli.check_options import DEFAULT_PROFILE, add_check_arguments
from utf8cert.harness.vectors.model import VectorSet

if TYPE_CHECKING:
    from utf8cert.harness.check.interrupt import Stop


def register(subcommands: Any) -> None:
    """Add the `check` subcommand's parser."""
    parser = subcommands.add_parser(
        "check",
        help="check a codec against every vector (default: CPython's utf-8)",
        description="Check a codec against every vector, each in all its variants, on every "
        "capability the codec offers; a Python codec runs in a child process unless given "
        "--in-process. Exit status: 0 conformant at --fail-on, 1 differences "
        "or a capability not certified (too few questions answered), 2 usage or load error, "
        f"{DEADLINE_EXIT} stopped at --deadline, 128+N stopped by signal N (130 SIGINT, 143 "
        "SIGTERM): an incomplete report of the vectors checked until then.",
    )
    add_check_arguments(parser)
    # run() acts on Ctrl-C once its INCOMPLETE reports are written (entry.py).
    parser.set_defaults(run=run, releases_signals=True)


@contextmanager
def _one_line_errors(option: str = "") -> Iterator[None]:
    """Turn the errors of loading user input into UsageFailure (one line, exit 2), naming
    `option` first when the input is that option's file (`--baseline FILE: ...`)."""
    from utf8cert.harness.check.baseline import BaselineError
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.codec.spec import CodecSpecError
    from utf8cert.harness.vectors.load import VectorLoadError

    named = f"{option} " if option else ""
    try:
        yield
    except (VectorLoadError, CodecSpecError, BaselineError) as error:
        raise UsageFailure(f"{named}{error}") from None
    except OSError as error:
        raise UsageFailure(f"{named}{error.filename or ''}: {error.strerror or error}") from None


def run(arguments: argparse.Namespace) -> int:
    """Return the exit status of one `check` run, the report printed and files written; a run
    stopped by a signal or its --deadline writes what it checked until then, marked incomplete
    (interrupt.py), and returns 128 + the signal or DEADLINE_EXIT.

    Before anything can fail, each report file named is replaced by an INCOMPLETE one; a run
    that fails before its end (bad input: UsageFailure; Ctrl-C before the run watches for it)
    leaves one there that says why (placeholders.py), never an earlier run's report."""
    from utf8cert.harness.check.interrupt import Interrupted, Stop, watching
    from utf8cert.harness.cli.environment import release_signals
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.cli.placeholders import not_started, write_placeholders
    from utf8cert.harness.codec.spec import DEFAULT_SPEC

    spec = arguments.spec or DEFAULT_SPEC
    try:
        write_placeholders(spec, VectorSet(()), arguments)  # a path it cannot write: see below
        release_signals()  # held since the process started (entry.py): Ctrl-C may come now
        sandboxed(arguments)
        stop = Stop()
        with watching(stop, arguments.deadline, alarm=True):
            try:
                return _run(arguments, stop)
            except Interrupted:
                print(f"utf8cert: stopped by {stop.reason}", file=sys.stderr)
                return stop.exit_status()
    except UsageFailure as failure:
        write_placeholders(spec, VectorSet(()), arguments, not_started(str(failure)))
        raise
    except KeyboardInterrupt:
        write_placeholders(spec, VectorSet(()), arguments, not_started("interrupted (SIGINT)"))
        raise


def sandboxed(arguments: argparse.Namespace) -> None:
    """Set the OS sandbox of the codec's child from the options; UsageFailure (one line) if a
    writable path does not exist, or a sandbox is required and there is none (or the codec
    runs in process, in none)."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.codec import sandbox

    try:
        sandbox.configure(
            arguments.sandbox_writable, arguments.require_sandbox, arguments.sandbox_env
        )
    except sandbox.SandboxError as error:
        raise UsageFailure(str(error)) from None
    spec = arguments.spec or ""
    if arguments.require_sandbox and not arguments.isolate and not spec.startswith("cmd:"):
        raise UsageFailure("--require-sandbox: --in-process runs the codec in no sandbox")


def _run(arguments: argparse.Namespace, stop: Stop) -> int:
    """Return the exit status of `run`, the run obeying `stop`."""
    from utf8cert.harness.check.baseline import load_baseline
    from utf8cert.harness.check.fatal import enabled_to_stderr
    from utf8cert.harness.check.run import check_one_input, run_check
    from utf8cert.harness.cli.check_input import only_vectors, read_input
    from utf8cert.harness.cli.check_rerun import fatal_note, rerun_of
    from utf8cert.harness.cli.outputs import (
        check_outputs,
        report_failures,
        show,
        write_new_baseline,
        write_outputs,
    )
    from utf8cert.harness.cli.placeholders import require_placeholders
    from utf8cert.harness.codec.isolate import ProcessCodec
    from utf8cert.harness.codec.spec import DEFAULT_SPEC
    from utf8cert.harness.codec.stdout import codec_output_to_stderr
    from utf8cert.harness.reports.view import View
    from utf8cert.harness.vectors.load import load_vectors
    from utf8cert.harness.world.spec import load_codec

    # A reproducer and a baseline name the profile only when one other than RFC 3629 is chosen.
    profile = None if arguments.profile == DEFAULT_PROFILE else arguments.profile
    given = read_input(arguments)
    data, source = (None, None) if given is None else given
    check_outputs(arguments)
    with _one_line_errors():
        vectors = VectorSet(())
        if data is None:  # only the files that hold the vectors asked are read (load.py)
            vectors = load_vectors(arguments.vectors, wanted=arguments.vector)
            vectors = only_vectors(vectors, arguments.vector)
    with _one_line_errors("--baseline"):
        baseline = load_baseline(arguments.baseline) if arguments.baseline else None
    if arguments.deadline is None and data is None:
        # A run always ends: a codec slow on every question stops in minutes, not in a day.
        seconds = default_deadline(len(vectors))
        stop.arm(seconds, f"the default deadline of {seconds:g} s (--deadline S to change it)")
    # Before the codec first runs: a judge killed from now on leaves INCOMPLETE at every path.
    require_placeholders(arguments.spec or DEFAULT_SPEC, vectors, arguments)
    # Standard output is the report's: what a codec prints meanwhile goes to stderr.
    with codec_output_to_stderr():
        with _one_line_errors(), stop.interruptible():
            codec = load_codec(
                arguments.spec,
                isolate=arguments.isolate,
                timeout=arguments.timeout,
                memory_mb=arguments.memory,
            )
        try:
            if baseline is not None:
                with _one_line_errors("--baseline"):
                    baseline = baseline.matching(codec.spec, profile, arguments.baseline_any_codec)
            dialect = PROFILES[arguments.profile]
            in_process = not isinstance(codec, ProcessCodec)
            note = fatal_note(arguments, profile) if in_process else None
            if data is None:
                with _progress(len(vectors)) as progress, enabled_to_stderr():
                    depth = arguments.depth
                    report = run_check(
                        codec,
                        vectors,
                        progress,
                        profile=dialect,
                        depth=depth,
                        stop=stop,
                        note=note,
                        sweep=not arguments.vector,  # the built-in vectors whole (sweep.py)
                        seed=None if arguments.vector else arguments.seed,  # seeded.py
                    )
            else:
                report = check_one_input(codec, data, dialect, source, stop=stop)
        finally:
            codec.close()
    baseline, written, failed = write_new_baseline(arguments, report, baseline, profile)
    view = View(
        report,
        arguments.fail_on,
        baseline,
        rerun_of(arguments, vectors, profile, source, not in_process),
        arguments.strict_baseline,
        arguments.show_level,
    )
    failed += write_outputs(view, arguments)
    show(view, arguments, written)
    if failed:  # the verdict is shown and every other report written: name what failed
        return report_failures(failed)
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
