"""--jobs N runs N independent fuzzing processes (workers.py): each its own seed and share of
-runs, one finding stops the others (what they were running killed nothing), and a campaign that
keeps going starts a process stopped by a crash again. The processes here are small shell
scripts standing in for libFuzzer, so that each outcome is certain; test_fuzz_campaign.py runs
the real thing."""

from __future__ import annotations

import io
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from utf8cert.harness.fuzzing import workers
from utf8cert.harness.fuzzing.campaign import INTERRUPTED, Campaign
from utf8cert.harness.fuzzing.differential import FINDING_EXIT
from utf8cert.harness.fuzzing.inflight import InFlight, left_behind
from utf8cert.harness.fuzzing.workers import Workers


def campaign_of(tmp_path: Path, script: str, **options: object) -> Campaign:
    """Return a campaign whose target script is the shell `script` (it gets libFuzzer's flags
    as its arguments, and $CALLS names a file each start appends a line to)."""
    campaign = Campaign(spec="codec:utf-8", artifacts=tmp_path, **options)  # type: ignore[arg-type]
    campaign.crashes.mkdir(parents=True)
    campaign.script.write_text(f'#!/bin/sh\necho "$@" >> "$CALLS"\n{script}\n')
    campaign.script.chmod(0o755)
    return campaign


def run(campaign: Campaign, tmp_path: Path) -> tuple[int, list[str], str]:
    """Return the campaign's status, each start's arguments and the log."""
    log = io.StringIO()
    started = time.monotonic()
    calls = tmp_path / "calls"
    workers = Workers(campaign, {"CALLS": str(calls)}, log, lambda: time.monotonic() - started)
    workers.start()
    status = workers.wait()
    return status, calls.read_text().splitlines(), log.getvalue()


def test_each_process_has_its_own_seed_and_share_of_the_runs(tmp_path: Path) -> None:
    campaign = campaign_of(tmp_path, 'echo "#1 INITED"', jobs=2, seed=7, runs=1001)
    status, calls, log = run(campaign, tmp_path)
    assert status == 0
    assert {" ".join(call.split()[-2:]) for call in calls} == {
        "-seed=7 -runs=501",
        "-seed=8 -runs=501",
    }
    assert "job 1: #1 INITED" in log and "job 2: #1 INITED" in log


def test_one_finding_stops_the_other_processes_and_their_input_killed_nothing(
    tmp_path: Path,
) -> None:
    # The second process finds at once; the first is running an input (in flight) forever.
    script = f'case "$*" in *-seed=2*) exit {FINDING_EXIT};; esac\nexec sleep 60'
    campaign = campaign_of(tmp_path, script, jobs=2, seed=1)
    log = io.StringIO()
    workers = Workers(campaign, {"CALLS": str(tmp_path / "calls")}, log, lambda: 0.0)
    workers.start()
    sleeper = workers.running[1]
    # The in-flight record a fuzzing process keeps, as the sleeper's: an input being run.
    running = InFlight(campaign.crashes, 64)
    running.start(b"\xc3\xa9")
    record = running.path.rename(campaign.crashes / f"inflight-{sleeper.pid}")
    started = time.monotonic()
    status = workers.wait()
    assert status == FINDING_EXIT
    assert time.monotonic() - started < 30  # not the sleeper's 60 s
    assert sleeper.returncode is not None and workers.running == {}
    assert left_behind(record) == (left_behind(record)[0], None)  # nothing to rescue
    assert left_behind(record)[0].executions == 1


MUTATING = "\\377" * 8 + "\\001" + "\\0" * 15 + "\\001" + "\\0" * 7
"""An in-flight header (inflight.py): no input running, one execution, mutating."""


def test_kept_going_a_process_stopped_by_a_crash_is_started_again(tmp_path: Path) -> None:
    # Each start crashes (libFuzzer's exit 77) after its seed pass, until the fourth start,
    # which ends normally.
    script = (
        f"printf '{MUTATING}' > {tmp_path}/libfuzzer/inflight-$$\n"
        'test "$(wc -l < "$CALLS")" -ge 4 || exit 77'
    )
    campaign = campaign_of(tmp_path, script, jobs=2, seed=1, keep_going=True, max_time=60)
    status, calls, _ = run(campaign, tmp_path)
    assert status == 77  # the crashes are the campaign's to report
    assert len(calls) >= 4
    assert len({call.split("-seed=")[-1].split()[0] for call in calls}) == len(calls)  # last wins


def test_kept_going_a_crash_in_the_seed_pass_is_not_started_again(tmp_path: Path) -> None:
    # No record of mutating: the same seeds would crash it again.
    campaign = campaign_of(tmp_path, "exit 77", jobs=2, seed=1, keep_going=True, max_time=60)
    status, calls, _ = run(campaign, tmp_path)
    assert (status, len(calls)) == (77, 2)


def test_not_kept_going_a_crash_ends_the_campaign(tmp_path: Path) -> None:
    script = 'case "$*" in *-seed=1*) exit 77;; esac\nexec sleep 60'
    campaign = campaign_of(tmp_path, script, jobs=2, seed=1)
    started = time.monotonic()
    status, calls, _ = run(campaign, tmp_path)
    assert status == 77
    assert time.monotonic() - started < 30  # the other process was stopped, not awaited
    assert len(calls) <= 2  # none started again (the other may be stopped before it starts)


def test_an_interrupted_campaign_is_interrupted_and_one_process_is_plain() -> None:
    from utf8cert.harness.fuzzing.workers import _status

    assert _status([INTERRUPTED, 0]) == INTERRUPTED
    assert _status([0, 77, INTERRUPTED]) == 77
    assert _status([0, FINDING_EXIT, 77]) == FINDING_EXIT
    assert _status([0, 0]) == 0


def test_a_process_that_ignores_sigterm_is_killed_after_the_grace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # libFuzzer prints its statistics from its SIGTERM handler; one stuck there must not hold
    # the campaign (the other process found something: the campaign is over).
    monkeypatch.setattr(workers, "GRACE", 0.5)
    script = f"case \"$*\" in *-seed=2*) exit {FINDING_EXIT};; esac\ntrap '' TERM\nexec sleep 60"
    campaign = campaign_of(tmp_path, script, jobs=2, seed=1)
    started = time.monotonic()
    status, _, _ = run(campaign, tmp_path)
    assert status == FINDING_EXIT
    assert time.monotonic() - started < 30


def test_an_interrupted_process_stuck_after_sigterm_is_killed_and_counts_as_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # libFuzzer's SIGTERM handler allocates and can deadlock: the campaign still ends, as an
    # interruption (not "libFuzzer stopped with status -9"), and the log says why.
    monkeypatch.setattr(workers, "GRACE", 0.5)
    campaign = campaign_of(tmp_path, "trap '' TERM\nexec sleep 60", jobs=1)
    log = io.StringIO()
    started = time.monotonic()
    running = Workers(campaign, {"CALLS": str(tmp_path / "calls")}, log, lambda: 0.0)
    running.start()
    threading.Timer(0.3, running.interrupt, args=(signal.SIGTERM,)).start()
    assert running.wait() == INTERRUPTED
    assert time.monotonic() - started < 30
    assert "job 1 had not ended 0 s after SIGTERM: killed" in log.getvalue()


def test_a_signal_as_the_first_process_starts_reaches_it_and_no_other_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: a signal between a process's start and the driver's handler waited, unseen, for
    # the whole campaign. Here it comes inside Popen, before the process is listed.
    campaign = campaign_of(tmp_path, "exec sleep 60", jobs=2)
    running = Workers(campaign, {"CALLS": str(tmp_path / "calls")}, io.StringIO(), lambda: 0.0)
    popen = subprocess.Popen

    def popen_then_signal(*arguments: Any, **options: Any) -> Any:
        process = popen(*arguments, **options)
        running.interrupt(signal.SIGTERM)
        return process

    monkeypatch.setattr(subprocess, "Popen", popen_then_signal)
    assert not running.ended()  # none started yet: not "the campaign has ended by itself"
    started = time.monotonic()
    running.start()
    assert running.wait() == INTERRUPTED
    assert time.monotonic() - started < 30  # the sleeping process was stopped, not awaited
    assert len(running.statuses) == 1  # the second was never started
