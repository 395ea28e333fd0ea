"""`utf8cert fuzz [SPEC]`: returns 0 when the campaign found nothing, 1 when it found differences,
2 for a usage or load error (one line on stderr).

A campaign stopped by SIGINT, SIGTERM or SIGHUP is a campaign like another (libFuzzer is told, its
summary printed), but one stopped before its first execution returns 128 + the signal (nothing
was fuzzed), and so does a signal while the campaign's inputs are being turned into findings,
which stops that, the rest kept for the next campaign.
"""

from __future__ import annotations

import argparse
import importlib.util
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from utf8cert.harness.cli.fuzz_judging import (
    campaign_boundary,
    configure_sandbox,
    judge_boundary,
    judge_of,
)
from utf8cert.harness.cli.fuzz_options import add_fuzz_arguments
from utf8cert.harness.cli.fuzz_view import ProgressView, say, show_found

if TYPE_CHECKING:
    from utf8cert.harness.check.behaviour import Behaviour
    from utf8cert.harness.fuzzing.campaign import Campaign
    from utf8cert.harness.fuzzing.triage import Triaged
    from utf8cert.harness.vectors.model import VectorSet


def register(subcommands: Any) -> None:
    """Add the `fuzz` subcommand's parser."""
    fuzz = subcommands.add_parser(
        "fuzz",
        help="fuzz a codec against the reference with atheris (libFuzzer)",
        description="Run a coverage-guided differential campaign: every input goes to every "
        "capability of the codec and is judged against the reference, as `check` judges "
        "vectors. Findings are minimized and written as vectors under --artifacts. Exit "
        "status: 0 nothing found, 1 findings, 2 usage or load error, 128+N stopped by "
        "signal N before its first execution or while making findings. libFuzzer flags go "
        "after `--` (e.g. -- -only_ascii=1).",
    )
    add_fuzz_arguments(fuzz)
    fuzz.set_defaults(run=run_fuzz)


def run_fuzz(arguments: argparse.Namespace) -> int:
    """Return the exit status of one campaign, its progress and summary printed."""
    from utf8cert.harness.check.interrupt import Interrupted, Stop, watching
    from utf8cert.harness.cli.fuzz_report import fuzz_json, stop_reason, stopped_making_findings
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.cli.outputs import (
        STDOUT,
        OutputFailure,
        check_paths,
        open_log,
        report_failures,
        write_reports,
    )
    from utf8cert.harness.codec.spec import CodecSpecError
    from utf8cert.harness.fuzzing.campaign import (
        INTERRUPTED,
        Campaign,
        default_dictionary,
        max_len_notes,
    )
    from utf8cert.harness.fuzzing.corpus import default_seeds
    from utf8cert.harness.fuzzing.differential import FINDING_EXIT
    from utf8cert.harness.fuzzing.driver import fuzz
    from utf8cert.harness.fuzzing.flags import pass_through
    from utf8cert.harness.fuzzing.inflight import collect
    from utf8cert.harness.fuzzing.lock import ArtifactsBusy, lock_artifacts
    from utf8cert.harness.fuzzing.target import ATHERIS_MISSING
    from utf8cert.harness.fuzzing.triage import triage_crashes, triage_pending
    from utf8cert.harness.world.spec import load_codec

    spec: str | None = arguments.spec
    flags: list[str] = getattr(arguments, "passed", [])
    closed = getattr(arguments, "stdout_closed", False)
    check_paths([("--json", arguments.json)], stdout_closed=closed)
    if importlib.util.find_spec("atheris") is None:
        raise UsageFailure(ATHERIS_MISSING)
    try:
        libfuzzer_flags = pass_through(flags)
        # The built-in vectors' seeds are in the source tree already: loading the vectors (half
        # a second of YAML and schema) is needed only for the user's own, or a baseline's ids.
        built_seeds = None if arguments.vectors or arguments.baseline else default_seeds()
        vectors = _load_vectors(arguments.vectors) if built_seeds is None else None
        configure_sandbox(arguments)
        if arguments.in_process:  # else the codec is loaded in a child only: see below
            _import_in_a_child(spec)
        # Judged apart, the codec is loaded only in sandboxed children: here it would run in
        # the judge's process (a patch of the judge at import would decide the campaign).
        codec = load_codec(spec, isolate=not arguments.in_process)
    except ValueError as error:  # a CodecSpecError is a ValueError
        raise UsageFailure(str(error)) from None
    except OSError as error:
        raise UsageFailure(f"{error.filename}: {error.strerror}") from None
    try:
        known = _known(arguments, vectors, codec.spec)
    except BaseException:
        codec.close()
        raise
    capabilities = tuple(arguments.capability) if arguments.capability else None
    offered = codec.capabilities & frozenset(capabilities or codec.capabilities)
    if not offered:
        asked = ", ".join(capabilities or ())
        raise UsageFailure(f"{codec.spec} offers none of the capabilities asked ({asked})")
    artifacts = Path(arguments.artifacts)
    try:
        artifacts.mkdir(parents=True, exist_ok=True)
        lock = lock_artifacts(artifacts)  # held until the campaign and its triage are done
    except ArtifactsBusy as busy:
        codec.close()
        raise UsageFailure(str(busy)) from None
    except OSError as error:
        codec.close()
        raise UsageFailure(f"--artifacts {artifacts}: {error.strerror}") from None
    campaign = Campaign(
        spec=codec.spec,
        artifacts=artifacts.resolve(),
        capabilities=capabilities,
        fail_on=arguments.fail_on,
        keep_going=arguments.keep_going,
        max_len=arguments.max_len,
        max_time=arguments.max_time,
        runs=arguments.runs,
        jobs=arguments.jobs,
        seed=arguments.seed,
        timeout=arguments.timeout,
        libfuzzer_flags=libfuzzer_flags,
        dictionary=default_dictionary(),
        known=known,
        profile=arguments.profile,
        built_seeds=built_seeds,
        in_process=arguments.in_process,
    )
    judge = None if campaign.in_process else judge_of(campaign, codec)
    boundary = campaign_boundary(campaign)
    if not arguments.quiet:
        say(f"utf8cert fuzz: {codec.spec} — {', '.join(sorted(offered))}", sys.stderr)
        say(f"  artifacts {artifacts}, log {artifacts / 'libfuzzer.log'}", sys.stderr)
        say(f"  boundary: {boundary}", sys.stderr)
    for note in max_len_notes(campaign.max_len):
        say(f"utf8cert fuzz: note: {note}", sys.stderr)
    view = ProgressView(campaign.artifacts, shown=not arguments.quiet)
    stop = Stop()
    found: list[Triaged] = []
    progress = None
    try:
        # Watched from the start: a signal between the campaign and its findings is not lost.
        with watching(stop):
            with open_log(artifacts / "libfuzzer.log") as log:
                status, progress = fuzz(campaign, vectors, view.show, log, judge=judge)
            view.close()  # the campaign has ended: no more progress lines while triaging
            if progress.late is not None:  # the campaign had ended: the signal is for this
                stop.request(signal.Signals(progress.late).name, progress.late)
            # The input a codec died on without libFuzzer seeing it becomes a crash file.
            tally = collect(campaign.crashes, rescue=progress.interrupted is None)
            progress.executions = max(progress.executions, tally.executions)
            first_found = _first_found(campaign)
            if judge is not None:
                boundary = judge_boundary(judge, boundary)
                if not judge.problems and progress.interrupted is None:
                    judge.problems += judge.audit()
            # A signal now stops at once (closing the codec's child processes): what is left
            # stays under pending/ and the crash directory, for the next campaign to triage.
            saved: set[Behaviour] = set()  # one behaviour, one finding, from any source
            with stop.interruptible():
                found.extend(
                    triage_pending(
                        codec.spec,
                        codec,
                        campaign.artifacts,
                        capabilities=capabilities,
                        fail_on=campaign.fail_on,
                        known=known,
                        profile=campaign.profile,
                        saved=saved,
                        stop=stop,
                        boundary=boundary,
                    )
                )
                found.extend(
                    triage_crashes(
                        codec.spec,
                        campaign.artifacts,
                        campaign.crashes,
                        capabilities=capabilities,
                        fail_on=campaign.fail_on,
                        timeout=float(campaign.timeout),
                        known=known,
                        profile=campaign.profile,
                        saved=saved,
                        stop=stop,
                        boundary=boundary,
                    )
                )
    except (OSError, CodecSpecError, OutputFailure) as error:
        raise UsageFailure(str(error)) from None
    except Interrupted:
        say(stopped_making_findings(stop.reason, campaign, found), sys.stderr)
        return stop.exit_status()
    finally:
        view.close()
        codec.close()
        lock.close()
    findings = [item for item in found if item.finding is not None]
    explained = [item for item in found if not item.fails]
    found = [item for item in found if item.fails]
    if status not in (0, FINDING_EXIT, INTERRUPTED) and not found:
        tail = _tail(artifacts / "libfuzzer.log")
        raise UsageFailure(f"libFuzzer stopped with status {status}: {tail}")
    summary = progress.summary(len(findings), first_found)
    problems = [] if judge is None else judge.problems
    exit_status = 1 if found or problems else 0
    if progress.interrupted is not None and progress.executions == 0 and exit_status == 0:
        # Stopped before a single execution (while the sandbox was set up, the codec imported):
        # nothing was fuzzed, so no verdict of 0 findings; 128 + the signal, as `check`.
        exit_status = 128 + signal.Signals[progress.interrupted]
    # With --json -, standard output is the JSON's: the text goes to standard error.
    stream = sys.stderr if arguments.json == STDOUT else sys.stdout
    if arguments.quiet:
        say(summary, stream)
    else:
        lesser = tally.lesser if judge is None else judge.target.lesser
        show_found(found, summary, lesser, campaign.fail_on, stream)
    for line in problems:
        say(f"judge: {line}", stream)
    for item in explained:
        causes = "; ".join(str(behaviour) for behaviour in item.explained)
        say(f"no finding of its own: {item.source.name} holds the root causes of {causes}", stream)
    say(f"boundary: {boundary}", stream)
    if arguments.json is not None:
        reason = stop_reason(status, progress, campaign)
        document = fuzz_json(
            campaign,
            progress,
            found,
            reason,
            exit_status,
            boundary=boundary,
            problems=problems,
            explained=[(item.source, item.explained) for item in explained],
        )
        failed = write_reports([("--json", arguments.json, lambda: document)])
        if failed:
            return report_failures(failed)
    return exit_status


def _import_in_a_child(spec: str | None) -> None:
    """Return once the module a Python codec spec names has been imported in a child process
    and answered its handshake; CodecSpecError (one line) if it did not. The campaign loads the
    codec in utf8cert's own process: a module that ends the process at import (`os._exit(0)`)
    would end utf8cert there, with the module's status, and the campaign would seem to pass."""
    from utf8cert.harness.world.spec import load_codec

    if spec is None or spec.startswith(("codec:", "adapter:", "cmd:", "native:")):
        return  # Python's registry, the shipped adapters, a program, a library: no module
    load_codec(spec, isolate=True).close()


def _known(
    arguments: argparse.Namespace, vectors: VectorSet | None, spec: str
) -> frozenset[Behaviour]:
    """Return the behaviours --baseline makes known (none without one); UsageFailure (one
    line) for a baseline that does not load, or was recorded for another codec or profile and
    --baseline-any-codec is not given (as `check` refuses it)."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.fuzzing.known import known_behaviours

    if vectors is None:
        return frozenset()
    # As `check` names it: a profile only when one other than RFC 3629 is chosen.
    profile = None if arguments.profile == "rfc3629" else arguments.profile
    try:
        return known_behaviours(
            arguments.baseline,
            vectors,
            spec=spec,
            profile=profile,
            any_codec=arguments.baseline_any_codec,
        )
    except ValueError as error:  # a BaselineError is a ValueError
        raise UsageFailure(f"--baseline {error}") from None
    except OSError as error:
        raise UsageFailure(f"--baseline {error.filename}: {error.strerror}") from None


def _load_vectors(paths: list[str]) -> VectorSet:
    """Return the built-in vectors and those of `paths`; UsageFailure (one line) if one does
    not load. Imported here: the loader and its schema take a fifth of a second to import."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.vectors.load import VectorLoadError, load_vectors

    try:
        return load_vectors(paths)
    except VectorLoadError as error:
        raise UsageFailure(str(error)) from None


def _first_found(campaign: Campaign) -> float | None:
    """Return when the campaign's first finding was saved (the time of its file), None if none."""
    from utf8cert.harness.fuzzing.differential import PENDING

    saved = [*(campaign.artifacts / PENDING).glob("*.bin"), *campaign.crashes.glob("*-*")]
    return min((path.stat().st_mtime for path in saved if path.is_file()), default=None)


def _tail(log: Path) -> str:
    """Return the last line of libFuzzer's `log` that is not blank, "(no output)" if none is."""
    lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"
