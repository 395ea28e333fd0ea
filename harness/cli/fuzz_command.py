"""`utf8cert fuzz [SPEC]` and `utf8cert corpus build`: the fuzzing subcommands.

fuzz returns 0 when the campaign found nothing, 1 when it found differences, 2 for a usage or
load error (one line on stderr); a campaign stopped by SIGINT, SIGTERM or SIGHUP is a campaign
like another (libFuzzer is told, its summary printed), but a signal while the campaign's inputs
are being turned into findings stops that, the rest kept for the next campaign, and returns 128 +
the signal. corpus build returns 0, or 2.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from utf8cert.harness.check.profiles import PROFILES
from utf8cert.harness.codec.interface import CAPABILITIES
from utf8cert.harness.vectors.model import LEVELS

if TYPE_CHECKING:
    from utf8cert.harness.fuzzing.campaign import Campaign
    from utf8cert.harness.fuzzing.driver import Progress
    from utf8cert.harness.vectors.model import VectorSet

INTERRUPTED = 72
"""libFuzzer's exit status when it was sent SIGINT or SIGTERM (-interrupted_exitcode)."""
REPRODUCER_SHOWN = 300
"""Longer reproducer lines are left to the finding's .txt file."""


def register(subcommands: Any) -> None:
    """Add the `fuzz` and `corpus` subcommands' parsers."""
    from utf8cert.harness.fuzzing.campaign import DEFAULT_MAX_LEN, DEFAULT_TIMEOUT

    fuzz = subcommands.add_parser(
        "fuzz",
        help="fuzz a codec against the reference with atheris (libFuzzer)",
        description="Run a coverage-guided differential campaign: every input goes to every "
        "capability of the codec and is judged against the reference, as `check` judges "
        "vectors. Findings are minimized and written as vectors under --artifacts. Exit "
        "status: 0 nothing found, 1 findings, 2 usage or load error. libFuzzer flags go "
        "after `--` (e.g. -- -only_ascii=1).",
    )
    # The libFuzzer flags after `--` never reach this parser: cli.main splits them off first
    # (cli.PASSING_THROUGH) and hands them over as `arguments.passed`.
    fuzz.add_argument(
        "spec",
        nargs="?",
        metavar="SPEC",
        help="the codec (default: codec:utf-8); libFuzzer flags go last, after `--`",
    )
    fuzz.add_argument("--max-time", type=int, metavar="S", help="stop after S seconds")
    fuzz.add_argument("--runs", type=int, metavar="N", help="stop after N executions")
    fuzz.add_argument(
        "--max-len",
        type=int,
        default=DEFAULT_MAX_LEN,
        metavar="N",
        help=f"longest input in bytes (default {DEFAULT_MAX_LEN}: past the 64 KiB boundary)",
    )
    fuzz.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="worker processes (libFuzzer -fork=N)"
    )
    fuzz.add_argument(
        "--artifacts", default="artifacts", metavar="DIR", help="where findings go (artifacts)"
    )
    fuzz.add_argument(
        "--capability",
        action="append",
        choices=CAPABILITIES,
        help="fuzz only this capability (repeatable; default: all the codec offers)",
    )
    fuzz.add_argument("--seed", type=int, metavar="N", help="libFuzzer's random seed")
    fuzz.add_argument(
        "--keep-going",
        action="store_true",
        help="collect every kind of difference instead of stopping at the first",
    )
    fuzz.add_argument(
        "--fail-on", choices=LEVELS, default="must", help="least binding level that is a finding"
    )
    fuzz.add_argument(
        "--timeout",
        type=int,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds one input may take before it is a hang (default {DEFAULT_TIMEOUT})",
    )
    fuzz.add_argument(
        "--vectors",
        action="extend",
        nargs="+",
        default=[],
        metavar="PATH",
        help="extra vector files or directories to seed and splice from",
    )
    fuzz.add_argument(
        "--baseline",
        metavar="FILE",
        help="known deviations (utf8cert check --write-baseline FILE): not findings",
    )
    fuzz.add_argument(
        "--profile",
        default="rfc3629",
        choices=list(PROFILES),
        help="judge against a named dialect instead of RFC 3629 (default: rfc3629)",
    )
    fuzz.set_defaults(run=run_fuzz)

    corpus = subcommands.add_parser("corpus", help="manage the seed corpus")
    actions = corpus.add_subparsers(dest="action", metavar="ACTION", required=True)
    build = actions.add_parser(
        "build",
        help="write one seed file per vector input",
        description="Write the seed corpus: one raw file per distinct vector input, named "
        "after the vector; seeds of vectors that are gone are removed.",
    )
    build.add_argument(
        "--out",
        metavar="DIR",
        help="where to write (default: corpus/seeds/ of utf8cert's source tree)",
    )
    build.add_argument(
        "--vectors", action="extend", nargs="+", default=[], metavar="PATH", help="extra vectors"
    )
    build.set_defaults(run=run_corpus_build)


def _positive(name: str, value: int | None) -> None:
    from utf8cert.harness.cli.main import UsageFailure

    if value is not None and value < 1:
        raise UsageFailure(f"{name} must be at least 1, not {value}")


def run_fuzz(arguments: argparse.Namespace) -> int:
    """Return the exit status of one campaign, its progress and summary printed."""
    from utf8cert.harness.check.interrupt import Interrupted, Stop, watching
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.codec.spec import CodecSpecError, load_codec
    from utf8cert.harness.fuzzing.campaign import Campaign, default_dictionary
    from utf8cert.harness.fuzzing.corpus import default_seeds
    from utf8cert.harness.fuzzing.differential import FINDING_EXIT
    from utf8cert.harness.fuzzing.driver import fuzz
    from utf8cert.harness.fuzzing.flags import pass_through
    from utf8cert.harness.fuzzing.inflight import collect
    from utf8cert.harness.fuzzing.known import known_behaviours
    from utf8cert.harness.fuzzing.target import ATHERIS_MISSING
    from utf8cert.harness.fuzzing.triage import triage_crashes, triage_pending

    spec: str | None = arguments.spec
    flags: list[str] = getattr(arguments, "passed", [])
    for name in ("max_time", "runs", "max_len", "jobs", "timeout"):
        _positive(f"--{name.replace('_', '-')}", getattr(arguments, name))
    if importlib.util.find_spec("atheris") is None:
        raise UsageFailure(ATHERIS_MISSING)
    try:
        libfuzzer_flags = pass_through(flags)
        # The built-in vectors' seeds are in the source tree already: loading the vectors (half
        # a second of YAML and schema) is needed only for the user's own, or a baseline's ids.
        built_seeds = None if arguments.vectors or arguments.baseline else default_seeds()
        vectors = _load_vectors(arguments.vectors) if built_seeds is None else None
        known = frozenset() if vectors is None else known_behaviours(arguments.baseline, vectors)
        codec = load_codec(spec)
    except ValueError as error:  # a BaselineError is a ValueError
        raise UsageFailure(str(error)) from None
    except OSError as error:
        raise UsageFailure(f"{error.filename}: {error.strerror}") from None
    capabilities = tuple(arguments.capability) if arguments.capability else None
    offered = codec.capabilities & frozenset(capabilities or codec.capabilities)
    if not offered:
        asked = ", ".join(capabilities or ())
        raise UsageFailure(f"{codec.spec} offers none of the capabilities asked ({asked})")
    artifacts = Path(arguments.artifacts)
    try:
        artifacts.mkdir(parents=True, exist_ok=True)
    except OSError as error:
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
    )
    say(f"utf8cert fuzz: {codec.spec} — {', '.join(sorted(offered))}", sys.stderr)
    say(f"  artifacts {artifacts}, log {artifacts / 'libfuzzer.log'}", sys.stderr)
    view = ProgressView(campaign.artifacts)
    stop = Stop()
    try:
        artifacts.mkdir(parents=True, exist_ok=True)
        with (artifacts / "libfuzzer.log").open("w", encoding="utf-8") as log:
            status, progress = fuzz(campaign, vectors, view.show, log)
        view.close()  # the campaign has ended: no more progress lines while triaging
        # The input a codec died on without libFuzzer seeing it becomes a crash file.
        tally = collect(campaign.crashes, rescue=progress.interrupted is None)
        progress.executions = max(progress.executions, tally.executions)
        first_found = _first_found(campaign)
        # A signal now stops at once (closing the codec's child processes): what is left
        # stays under pending/ and the crash directory, for the next campaign to triage.
        with watching(stop), stop.interruptible():
            found = list(
                triage_pending(
                    codec.spec,
                    codec,
                    campaign.artifacts,
                    capabilities=capabilities,
                    fail_on=campaign.fail_on,
                    known=known,
                    profile=campaign.profile,
                )
            )
            found += triage_crashes(
                codec.spec,
                campaign.artifacts,
                campaign.crashes,
                capabilities=capabilities,
                fail_on=campaign.fail_on,
                timeout=float(campaign.timeout),
                known=known,
                profile=campaign.profile,
            )
    except (OSError, CodecSpecError) as error:
        raise UsageFailure(str(error)) from None
    except Interrupted:
        say(f"utf8cert fuzz: stopped by {stop.reason} while making findings; the inputs left")
        say(f"  are kept under {artifacts}: the next campaign there takes them up")
        return stop.exit_status()
    finally:
        view.close()
        codec.close()
    findings = [item for item in found if item.finding is not None]
    if status not in (0, FINDING_EXIT, INTERRUPTED) and not found:
        tail = _tail(artifacts / "libfuzzer.log")
        raise UsageFailure(f"libFuzzer stopped with status {status}: {tail}")
    say(progress.summary(len(findings), first_found))
    for item in found:
        if item.finding is None:
            say(f"unreproduced {item.source}: {item.problem}")
            continue
        finding = item.finding
        difference = finding.difference
        say(
            f"{difference.capability}: {difference.what} ({difference.level}), "
            f"{len(finding.data)} bytes, on {', '.join(finding.capabilities)}\n"
            f"  vector    {item.vector_file}"
        )
        assert item.vector_file is not None
        line = item.vector_file.with_suffix(".txt").read_text(encoding="utf-8").splitlines()[-1]
        shown = line if len(line) <= REPRODUCER_SHOWN else f"see {item.vector_file.stem}.txt"
        say(f"  {shown}")
    if tally.lesser and not found:
        weaker = LEVELS[LEVELS.index(campaign.fail_on) + 1]
        say(
            f"{tally.lesser:,} input(s) showed {weaker}-level differences: "
            f"rerun with --fail-on {weaker} to make them findings"
        )
    return 1 if found else 0


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
    lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def say(line: str, stream: TextIO | None = None) -> None:
    """Print one line of the command's output, at once (rich is left to the live status line:
    importing it would cost a tenth of the campaign's start)."""
    print(line, file=sys.stdout if stream is None else stream, flush=True)


def _live_status() -> Any:
    """Return rich's live status line on stderr, started."""
    from rich.console import Console

    status = Console(stderr=True, highlight=False).status("starting libFuzzer")
    status.start()
    return status


PROGRESS_EVERY: Final = 5.0
"""Seconds between progress lines when stderr is not a terminal (a CI log, a file)."""


class ProgressView:
    """The campaign's progress on stderr: a live line on a terminal, refreshed as libFuzzer
    reports; otherwise (a CI log, a file) a line every PROGRESS_EVERY seconds, from a thread
    of its own, so that a campaign between libFuzzer's status lines still shows it is alive."""

    def __init__(self, artifacts: Path) -> None:
        self.pending = artifacts / "pending"
        self.progress: Progress | None = None
        self.stopped = threading.Event()
        self.status = _live_status() if sys.stderr.isatty() else None
        self.ticker = None
        if self.status is None:
            self.ticker = threading.Thread(target=self._tick, daemon=True)
            self.ticker.start()
        self.last_update = time.monotonic()

    def _text(self, progress: Progress) -> str:
        found = len(list(self.pending.glob("*.bin"))) if self.pending.is_dir() else 0
        return (
            f"{progress.elapsed:.0f} s: {progress.executions:,} execs, "
            f"{progress.per_second:,}/s, corpus {progress.corpus}, coverage "
            f"{progress.coverage}, findings {found}"
        )

    def _tick(self) -> None:
        while not self.stopped.wait(PROGRESS_EVERY):
            if self.progress is not None:
                say(self._text(self.progress), sys.stderr)

    def show(self, progress: Progress) -> None:
        """Note the campaign's state (shown at most twice a second on a terminal)."""
        self.progress = progress
        now = time.monotonic()
        if self.status is None or now - self.last_update < 0.5:
            return
        self.last_update = now
        self.status.update(self._text(progress))

    def close(self) -> None:
        """Stop showing progress."""
        self.stopped.set()
        if self.status is not None:
            self.status.stop()
        if self.ticker is not None:
            self.ticker.join()


def run_corpus_build(arguments: argparse.Namespace) -> int:
    """Return 0 after writing the seed corpus, printing what changed."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.fuzzing.corpus import build_corpus, default_seeds
    from utf8cert.harness.vectors.load import VectorLoadError, load_vectors

    out = default_seeds() if arguments.out is None else Path(arguments.out)
    if out is None:
        raise UsageFailure(
            "corpus build: utf8cert is installed without its source tree (no corpus/seeds/ "
            "beside it): give --out DIR"
        )
    try:
        vectors = load_vectors(arguments.vectors)
        change = build_corpus(vectors, out)
    except VectorLoadError as error:
        raise UsageFailure(str(error)) from None
    except OSError as error:
        raise UsageFailure(f"--out {out}: {error.strerror}") from None
    print(
        f"{out}: {change.written} written, {change.removed} removed, {change.unchanged} unchanged",
        file=sys.stdout,
    )
    return 0
