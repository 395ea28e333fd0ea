"""`utf8cert fuzz`'s driver: run a campaign in a child process, show its progress, and pass a
stop on to it.

The progress is read from the campaign's own records, never from libFuzzer's status lines: the
codec prints to the same stream, and a codec printing `#999999999 … exec/s: …` would otherwise
make the progress say so. Executions (and whether the seed pass is over) come from the header
each fuzzing process keeps in its in-flight file (inflight.py), the corpus from the files
libFuzzer keeps in the campaign's corpus directory. libFuzzer's own lines go to the log only.
Afterwards what the campaign left (pending differences, crash and timeout files) is turned into
minimized findings (triage.py).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Final

from utf8cert.harness.check.interrupt import STOPPING, heeded
from utf8cert.harness.codec.children import death_signal
from utf8cert.harness.fuzzing.campaign import Campaign, seed_corpus, write_script
from utf8cert.harness.fuzzing.differential import FINDING_EXIT, PENDING
from utf8cert.harness.fuzzing.inflight import running
from utf8cert.harness.fuzzing.judge import Judge
from utf8cert.harness.fuzzing.workers import Workers
from utf8cert.harness.vectors.model import VectorSet

POLL_EVERY: Final = 0.5
"""Seconds between two readings of the campaign's records while it runs."""


@dataclass
class Progress:
    """The campaign's state, as its own records last said."""

    executions: int = 0
    per_second: int = 0
    corpus: int = 0
    """Inputs libFuzzer added to the campaign's working corpus (ARTIFACTS/corpus): those
    mutation found (it keeps the seeds that add coverage in memory only)."""
    started: float = field(default_factory=time.time)
    ended: float | None = None
    mutating: bool = False
    """Whether libFuzzer had started mutating (False: everything ran in the seed pass)."""
    interrupted: str | None = None
    """The signal that stopped the campaign early (SIGINT, SIGTERM, SIGHUP), if one did."""
    late: int | None = None
    """A signal that came once the campaign had ended by itself (a finding made libFuzzer
    stop): meant for what comes next, the making of findings."""

    def refresh(self, campaign: Campaign) -> None:
        """Update from the campaign's records: its processes' in-flight files and its corpus."""
        tally = running(campaign.crashes)
        self.executions = max(self.executions, tally.executions)
        self.mutating = self.mutating or tally.mutating
        with contextlib.suppress(OSError):  # not made yet, or being rewritten
            self.corpus = sum(1 for path in campaign.corpus.iterdir() if path.is_file())
        elapsed = self.elapsed
        self.per_second = int(self.executions / elapsed) if elapsed > 0 else 0

    @property
    def elapsed(self) -> float:
        """Return the seconds the campaign ran (so far, while it runs)."""
        return (time.time() if self.ended is None else self.ended) - self.started

    def summary(self, findings: int, first: float | None) -> str:
        """Return the campaign in one line: executions (seed pass included), speed, corpus,
        findings and when the first came, and the signal that stopped it if one did."""
        rate = self.executions / self.elapsed if self.elapsed > 0 else 0.0
        line = f"{self.executions:,} executions in {self.elapsed:.1f} s ({rate:,.0f}/s), "
        if self.mutating:
            line += f"{self.corpus} new corpus inputs; "
        else:
            line += "all in the seed pass (before any mutation); "
        line += f"{findings} finding(s)"
        if first is not None:
            line += f", the first after {max(0.0, first - self.started):.1f} s"
        if self.interrupted is not None:
            line += f"; interrupted ({self.interrupted})"
        return line


def fuzz(
    campaign: Campaign,
    vectors: VectorSet | None,
    show: Callable[[Progress], None],
    log: IO[str],
    environment: dict[str, str] | None = None,
    judge: Judge | None = None,
) -> tuple[int, Progress]:
    """Run the campaign to its end; return libFuzzer's exit status and its last progress.

    Every line libFuzzer prints goes to `log`, after the seconds since the start, as it comes
    (`tail -f` follows it); `show` is called every POLL_EVERY seconds with the progress read
    from the campaign's records. The
    child runs with PYTHONHASHSEED=0, so that a given -seed replays the same campaign.
    """
    seed_corpus(campaign, vectors)
    write_script(campaign)
    env = dict(os.environ if environment is None else environment, PYTHONHASHSEED="0")
    progress = Progress()
    workers = Workers(campaign, env, log, lambda: progress.elapsed, die_with_parent(), judge)
    ended = threading.Event()
    if judge is not None:
        judge.found = workers.stop
        judge.heard = time.monotonic()
        judge.most = most_executions(campaign)

    def poll() -> None:
        while not ended.wait(POLL_EVERY):
            progress.refresh(campaign)
            if judge is not None:
                progress.executions = judge.judged
                watch(judge, workers, campaign, progress)
            show(progress)

    # Signals are passed on from before the first process starts: one that came after it
    # started but before the handler was set waited, unseen, for the whole campaign.
    with forwarding(workers, progress, campaign):
        workers.start()
        show(progress)
        poller = threading.Thread(target=poll, daemon=True)
        poller.start()
        try:
            status = workers.wait()
        finally:
            ended.set()
            poller.join()
            progress.ended = time.time()
            progress.refresh(campaign)
            log.flush()
    if judge is not None:
        if not workers.drained(DRAINED):
            judge.problem(f"a pipe to the judge was still open {DRAINED:.0f} s after the campaign")
        progress.executions = judge.judged
        if judge.problems or judge.ended_it:
            status = FINDING_EXIT  # the judge stopped it: a finding, or a problem
    return status, progress


DRAINED: Final = 30.0
"""Seconds the judge may take, once the codec's processes have ended, to judge what they sent."""
OVERRUN: Final = 30.0
"""Seconds the codec's processes may run past the campaign's --max-time before they are stopped
(libFuzzer ends itself at -max_total_time, but it runs in the codec's process)."""


def silence(campaign: Campaign) -> float:
    """Return the seconds the codec's processes may send nothing before they are stopped: more
    than libFuzzer's own -timeout for one input, with room for a slow start."""
    return max(60.0, 3.0 * campaign.timeout)


def most_executions(campaign: Campaign) -> int | None:
    """Return the most executions a campaign of --runs N may send the judge (its processes run
    every seed once, then N in all: this leaves room for both in each process), None without
    --runs."""
    if campaign.runs is None:
        return None
    seeds = 0
    for directory in (campaign.seeds, campaign.straddles, campaign.corpus):
        with contextlib.suppress(OSError):
            seeds += sum(1 for _ in directory.iterdir())
    return campaign.jobs * (campaign.runs + seeds) + 1000


def watch(judge: Judge, workers: Workers, campaign: Campaign, progress: Progress) -> None:
    """Stop a campaign whose codec's processes went silent, overran its time or sent more
    executions than --runs allows (see fuzz)."""
    if workers.stopping:
        return
    quiet = time.monotonic() - judge.heard
    if judge.most is not None and judge.judged > judge.most:
        judge.problem(
            f"the codec's processes sent {judge.judged:,} executions, more than --runs"
            f" {campaign.runs:,} allows: stopped"
        )
        return
    if workers.started and not workers.ended() and quiet > silence(campaign):
        judge.problem(
            f"the codec's process sent nothing to judge for {quiet:.0f} s: stopped"
            " (a hang libFuzzer did not end)"
        )
    elif campaign.max_time is not None and progress.elapsed > campaign.max_time + OVERRUN:
        workers.note(f"the codec's process ran {OVERRUN:.0f} s past --max-time: stopped")
        workers.stop()


@contextlib.contextmanager
def forwarding(workers: Workers, progress: Progress, campaign: Campaign) -> Iterator[None]:
    """Within the block, a SIGINT, SIGTERM or SIGHUP to this process is passed on to the
    campaign's processes as SIGTERM (libFuzzer then prints its final statistics and exits
    72), and noted in `progress.interrupted`; a second one kills them. One that comes once
    the campaign has ended by itself (its processes gone, or a finding recorded that stops it)
    is noted in `progress.late` instead: it is meant for the making of findings."""

    def forward(signum: int, frame: object) -> None:
        if progress.interrupted is None and _ended(workers, campaign):
            progress.late = signum
            return
        stop = signal.SIGKILL if progress.interrupted else signal.SIGTERM
        progress.interrupted = signal.Signals(signum).name
        workers.interrupt(stop)

    previous = {signum: signal.signal(signum, forward) for signum in heeded(STOPPING)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _ended(workers: Workers, campaign: Campaign) -> bool:
    """Return True if the campaign has ended by itself: its processes have exited or are being
    stopped after a finding, a crash file is saved (one process: libFuzzer stops there), or
    (unless it keeps going) a finding is recorded, on which its process exits at once."""
    if workers.ended() or workers.stopping:  # stopping: after a finding (not a signal)
        return True
    if campaign.jobs == 1 and any(campaign.crashes.glob("crash-*")):
        return True  # libFuzzer stops at a crash it saw (kept going, other processes go on)
    return not campaign.keep_going and any((campaign.artifacts / PENDING).glob("*.bin"))


def die_with_parent() -> Callable[[], None] | None:
    """Return what the child runs before libFuzzer starts: on Linux, a call asking the kernel to
    send it SIGKILL when utf8cert dies (PR_SET_PDEATHSIG), so that a killed driver leaves no
    campaign running; None elsewhere. SIGKILL, not SIGTERM: libFuzzer prints its statistics
    from its SIGTERM handler, for a reader that is gone, and under load one was seen still
    running 60 s after the SIGTERM (bench/bench_child_tests.py)."""
    return death_signal(signal.SIGKILL)
