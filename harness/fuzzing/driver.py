"""`utf8cert fuzz`'s driver: run a campaign in a child process, show its progress, and pass a
stop on to it.

The driver reads libFuzzer's status lines for the progress display; afterwards what the campaign
left (pending differences, crash and timeout files) is turned into minimized findings
(triage.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Final

from utf8cert.harness.check.interrupt import STOPPING
from utf8cert.harness.codec.children import death_signal
from utf8cert.harness.fuzzing.campaign import Campaign, libfuzzer_argv, seed_corpus, write_script
from utf8cert.harness.vectors.model import VectorSet

# `#4096	pulse  cov: 46 ft: 74 corp: 17/66b lim: 64 exec/s: 2048 rss: 41Mb`, and in fork mode
# `#8192: cov: 46 ft: 74 corp: 17 exec/s: 4096 oom/timeout/crash: 0/0/0 time: 2s job: 3`.
_STATUS_LINE: Final = re.compile(r"^#(\d+):?\s")
_STATUS_FIELDS: Final = re.compile(r"(ft|corp|exec/s):? (\d+)")
"""The coverage read is libFuzzer's features (`ft`): its `cov` counts edges in one process but
something larger in fork mode (147 against 804 on one codec in the same time), while the
features of the two modes agree (903 and 1,029)."""


@dataclass
class Progress:
    """The campaign's state as libFuzzer last reported it."""

    executions: int = 0
    per_second: int = 0
    corpus: int = 0
    coverage: int = 0
    """libFuzzer's coverage features (`ft`), on one scale with and without fork mode."""
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
            if name == "ft":
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
