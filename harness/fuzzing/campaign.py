"""`utf8cert fuzz`: run a libFuzzer campaign on a codec, show its progress, and gather findings.

The campaign runs in a child process: a target script written into the artifacts directory,
executable, its shebang naming this interpreter (libFuzzer's -fork and -jobs modes re-execute
it, so `python script.py` would not do). The driver reads libFuzzer's status lines for the
progress display, and afterwards turns what the campaign left (pending differences, crash and
timeout files) into minimized findings (triage.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import IO, Final

from utf8cert.harness.check.interrupt import STOPPING
from utf8cert.harness.codec.children import death_signal
from utf8cert.harness.codec.interface import Capability
from utf8cert.harness.fuzzing.inflight import CRASHES
from utf8cert.harness.vectors.model import Level, VectorSet

DEFAULT_MAX_LEN: Final = 65536 + 512
"""Room for an input to straddle the 65536-byte boundary with a few hundred bytes after it."""
DEFAULT_TIMEOUT: Final = 20
"""Seconds one execution may take before libFuzzer calls it a hang."""
SCRIPT_NAME: Final = "utf8cert_fuzzer.py"

SCRIPT: Final = '''#!{python}
"""A utf8cert fuzz target for {spec}, written by `utf8cert fuzz`.

Run it with libFuzzer flags (and corpus directories) to fuzz again. Give it input files to
replay them: each difference is printed (capability, what, level, the input, expected and
actual), and it exits 0 when no input differs, 1 when one does. A crash or a hang kills the
replay: see the finding's .txt for the `utf8cert check --isolate` line.
"""

import sys

from utf8cert.harness.fuzzing.target import run

run(
    {spec!r},
    sys.argv,
    findings={findings!r},
    capabilities={capabilities!r},
    fail_on={fail_on!r},
    keep_going={keep_going!r},
    splices={splices!r},
    known={known!r},
    profile={profile!r},
)
'''


@dataclass(frozen=True)
class Campaign:
    """What the user asked of one campaign."""

    spec: str
    artifacts: Path
    capabilities: tuple[Capability, ...] | None = None
    fail_on: Level = "must"
    keep_going: bool = False
    max_len: int = DEFAULT_MAX_LEN
    max_time: int | None = None
    runs: int | None = None
    jobs: int = 1
    seed: int | None = None
    timeout: int = DEFAULT_TIMEOUT
    libfuzzer_flags: tuple[str, ...] = ()
    dictionary: Path | None = None
    profile: str = "rfc3629"
    """The dialect the codec is judged by (harness/check/profiles.py)."""
    known: frozenset[tuple[str, str, str]] = frozenset()
    """The behaviours of known deviations (from a baseline, known.py): no findings."""

    @property
    def corpus(self) -> Path:
        """Return the campaign's working corpus: every input libFuzzer keeps."""
        return self.artifacts / "corpus"

    built_seeds: Path | None = None
    """Seeds already built (corpus/seeds/ of the source tree, for the built-in vectors alone),
    used as they are; None: the campaign writes its own."""

    @property
    def seeds(self) -> Path:
        """Return the campaign's seeds: the vectors' inputs, read by libFuzzer and spliced by
        the mutator (ARTIFACTS/seeds, unless `built_seeds`)."""
        return self.artifacts / "seeds" if self.built_seeds is None else self.built_seeds

    @property
    def straddles(self) -> Path:
        """Return the campaign's seeds that straddle the 64- and 4096-byte boundaries."""
        return self.artifacts / "straddles"

    @property
    def crashes(self) -> Path:
        """Return where libFuzzer writes its crash-, timeout- and oom- files."""
        return self.artifacts / CRASHES

    @property
    def script(self) -> Path:
        """Return the path of the campaign's target script."""
        return self.artifacts / SCRIPT_NAME


def default_dictionary() -> Path | None:
    """Return the path of corpus/utf8.dict as installed (package data), None if it is missing."""
    candidate = Path(str(files("utf8cert.corpus").joinpath("utf8.dict")))
    return candidate if candidate.is_file() else None


def write_script(campaign: Campaign) -> Path:
    """Write the campaign's target script, executable; return its path."""
    text = SCRIPT.format(
        python=sys.executable,
        spec=campaign.spec,
        findings=str(campaign.artifacts),
        capabilities=campaign.capabilities,
        fail_on=campaign.fail_on,
        keep_going=campaign.keep_going,
        splices=str(campaign.seeds),
        known=sorted(campaign.known),
        profile=campaign.profile,
    )
    campaign.script.write_text(text, encoding="utf-8")
    campaign.script.chmod(0o755)
    return campaign.script


def libfuzzer_argv(campaign: Campaign) -> list[str]:
    """Return the command line of the campaign: the script, its corpus, then libFuzzer flags
    (the user's pass-through flags last, so that they win)."""
    argv = [
        str(campaign.script),
        str(campaign.corpus),  # libFuzzer writes new inputs into its first directory only
        str(campaign.seeds),
        str(campaign.straddles),
        f"-max_len={campaign.max_len}",
        f"-timeout={campaign.timeout}",
        f"-artifact_prefix={campaign.crashes}{os.sep}",
        "-print_final_stats=1",
    ]
    if campaign.dictionary is not None:
        argv.append(f"-dict={campaign.dictionary}")
    if campaign.runs is not None:
        argv.append(f"-runs={campaign.runs}")
    if campaign.max_time is not None:
        argv.append(f"-max_total_time={campaign.max_time}")
    if campaign.seed is not None:
        argv.append(f"-seed={campaign.seed}")
    if campaign.jobs > 1:
        # Fork mode: one corpus shared by `jobs` worker processes, merged as they finish.
        argv.append(f"-fork={campaign.jobs}")
        if campaign.keep_going:
            argv.append("-ignore_crashes=1")
    return argv + list(campaign.libfuzzer_flags)


# `#4096	pulse  cov: 46 ft: 74 corp: 17/66b lim: 64 exec/s: 2048 rss: 41Mb`, and in fork mode
# `#8192: cov: 46 ft: 74 corp: 17 exec/s: 4096 oom/timeout/crash: 0/0/0 time: 2s job: 3`.
_STATUS_LINE: Final = re.compile(r"^#(\d+):?\s")
_STATUS_FIELDS: Final = re.compile(r"(cov|corp|exec/s):? (\d+)")


@dataclass
class Progress:
    """The campaign's state as libFuzzer last reported it."""

    executions: int = 0
    per_second: int = 0
    corpus: int = 0
    coverage: int = 0
    started: float = field(default_factory=time.time)
    ended: float | None = None
    reported: bool = False
    """Whether libFuzzer printed a status line (none while the seed pass has not ended)."""
    interrupted: str | None = None
    """The signal that stopped the campaign early (SIGINT, SIGTERM, SIGHUP), if one did."""

    def read(self, line: str) -> bool:
        """Update from one line of libFuzzer's output; return True if it was a status line."""
        status = _STATUS_LINE.match(line)
        if status is None:
            return False
        self.executions = int(status.group(1))
        self.reported = True
        for name, value in _STATUS_FIELDS.findall(line):
            if name == "cov":
                self.coverage = int(value)
            elif name == "corp":
                self.corpus = int(value)
            else:
                self.per_second = int(value)
        return True

    @property
    def elapsed(self) -> float:
        """Return the seconds the campaign ran (so far, while it runs)."""
        return (time.time() if self.ended is None else self.ended) - self.started

    def summary(self, findings: int, first: float | None) -> str:
        """Return the campaign in one line: executions (seed pass included), speed, corpus,
        coverage, findings and when the first came, and the signal that stopped it if one did."""
        rate = self.executions / self.elapsed if self.elapsed > 0 else 0.0
        line = f"{self.executions:,} executions in {self.elapsed:.1f} s ({rate:,.0f}/s), "
        if self.reported:
            line += f"corpus {self.corpus} inputs, coverage {self.coverage}; "
        else:
            line += "all in the seed pass (before any mutation); "
        line += f"{findings} finding(s)"
        if first is not None:
            line += f", the first after {max(0.0, first - self.started):.1f} s"
        if self.interrupted is not None:
            line += f"; interrupted ({self.interrupted})"
        return line


def seed_corpus(campaign: Campaign, vectors: VectorSet | None) -> None:
    """Create the campaign's directories, write the vectors' inputs as its seeds (None: the
    campaign's `built_seeds` are used as they are), and the straddling seeds."""
    from utf8cert.harness.fuzzing.corpus import build_corpus, straddling_seeds
    from utf8cert.harness.fuzzing.finding import write_atomically

    for directory in (campaign.crashes, campaign.corpus, campaign.straddles):
        directory.mkdir(parents=True, exist_ok=True)
    if vectors is not None:
        build_corpus(vectors, campaign.seeds)
    for name, data in straddling_seeds(campaign.max_len).items():
        if not (campaign.straddles / name).is_file():
            write_atomically(campaign.straddles / name, data)


def fuzz(
    campaign: Campaign,
    vectors: VectorSet | None,
    show: Callable[[Progress], None],
    log: IO[str],
    environment: dict[str, str] | None = None,
) -> tuple[int, Progress]:
    """Run the campaign to its end; return libFuzzer's exit status and its last progress.

    Every line libFuzzer prints goes to `log`, after the seconds since the start, as it comes
    (`tail -f` follows it); `show` is called on each status line. The
    child runs with PYTHONHASHSEED=0, so that a given -seed replays the same campaign.
    """
    seed_corpus(campaign, vectors)
    write_script(campaign)
    env = dict(os.environ if environment is None else environment, PYTHONHASHSEED="0")
    progress = Progress()
    process = subprocess.Popen(
        libfuzzer_argv(campaign),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        env=env,
        text=True,
        errors="replace",
        start_new_session=True,  # a Ctrl-C reaches libFuzzer only through `forwarding`
        preexec_fn=die_with_parent(),
    )
    assert process.stdout is not None
    show(progress)
    with forwarding(process, progress):
        try:
            for line in process.stdout:
                log.write(f"{progress.elapsed:9.2f}  {line}")
                log.flush()
                if progress.read(line):
                    show(progress)
        finally:
            status = process.wait()
            progress.ended = time.time()
            log.flush()
    return status, progress


@contextlib.contextmanager
def forwarding(process: subprocess.Popen[str], progress: Progress) -> Iterator[None]:
    """Within the block, a SIGINT, SIGTERM or SIGHUP to this process is passed on to the
    campaign's process group as SIGTERM (libFuzzer then prints its final statistics and exits
    72), and noted in `progress.interrupted`; a second one kills the group."""

    def forward(signum: int, frame: object) -> None:
        stop = signal.SIGKILL if progress.interrupted else signal.SIGTERM
        progress.interrupted = signal.Signals(signum).name
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, stop)

    previous = {signum: signal.signal(signum, forward) for signum in STOPPING}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def die_with_parent() -> Callable[[], None] | None:
    """Return what the child runs before libFuzzer starts: on Linux, a call asking the kernel to
    send it SIGTERM when utf8cert dies (PR_SET_PDEATHSIG), so that a killed driver leaves no
    campaign running (SIGTERM, not SIGKILL: libFuzzer then prints its summary); None
    elsewhere."""
    return death_signal(signal.SIGTERM)
