"""What `utf8cert fuzz` shows: the campaign's progress on stderr while it runs, then its summary,
its findings and the inputs that did not reproduce on stdout."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TextIO

from utf8cert.harness.vectors.model import LEVELS

if TYPE_CHECKING:
    from utf8cert.harness.fuzzing.driver import Progress
    from utf8cert.harness.fuzzing.triage import Triaged
    from utf8cert.harness.vectors.model import Level

REPRODUCER_SHOWN = 300
"""Longer reproducer lines are left to the finding's .txt file."""


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
    """The campaign's progress on stderr, each line after the clock time: a live line on a
    terminal, refreshed as the driver reads the campaign's records; otherwise (a CI log, a file)
    a line every PROGRESS_EVERY seconds, from a thread of its own."""

    def __init__(self, artifacts: Path, *, shown: bool = True) -> None:
        self.pending = artifacts / "pending"
        self.progress: Progress | None = None
        self.stopped = threading.Event()
        self.status = _live_status() if shown and sys.stderr.isatty() else None
        self.ticker = None
        if self.status is None and shown:
            self.ticker = threading.Thread(target=self._tick, daemon=True)
            self.ticker.start()
        self.last_update = time.monotonic()

    def _text(self, progress: Progress) -> str:
        """Return the progress line of `progress`, with the findings saved under pending/."""
        found = len(list(self.pending.glob("*.bin"))) if self.pending.is_dir() else 0
        return (
            f"{time.strftime('%H:%M:%S')} {progress.elapsed:.0f} s: "
            f"{progress.executions:,} execs, {progress.per_second:,}/s, "
            f"new corpus inputs {progress.corpus}, findings {found}"
        )

    def _tick(self) -> None:
        """Return once closed, having printed the latest progress every PROGRESS_EVERY seconds."""
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


def show_found(
    found: Sequence[Triaged],
    summary: str,
    lesser: int,
    fail_on: Level,
    stream: TextIO | None = None,
) -> None:
    """Print to `stream` (standard output) the campaign's summary line, then each finding (its
    difference, vector file and reproducer line) or input that did not reproduce (its problem);
    when nothing was found but `lesser` inputs showed differences below `fail_on`, the option
    that makes them findings."""
    say(summary, stream)
    for item in found:
        if item.finding is None:
            say(f"unreproduced {item.source}: {item.problem}", stream)
            continue
        finding = item.finding
        difference = finding.difference
        say(
            f"{difference.capability}: {difference.what} ({difference.level}), "
            f"{len(finding.data)} bytes, on {', '.join(finding.capabilities)}\n"
            f"  vector    {item.vector_file}",
            stream,
        )
        assert item.vector_file is not None
        line = item.vector_file.with_suffix(".txt").read_text(encoding="utf-8").splitlines()[-1]
        shown = line if len(line) <= REPRODUCER_SHOWN else f"see {item.vector_file.stem}.txt"
        say(f"  {shown}", stream)
    if lesser and not found:
        weaker = LEVELS[LEVELS.index(fail_on) + 1]
        say(
            f"{lesser:,} input(s) showed {weaker}-level differences: "
            f"rerun with --fail-on {weaker} to make them findings",
            stream,
        )
