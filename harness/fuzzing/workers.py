"""The fuzzing processes of one campaign: `--jobs` libFuzzer processes at once, each with its own
seed, all sharing the campaign's corpus directory.

libFuzzer's fork mode (-fork=N) restarts its workers every few seconds, each start importing,
instrumenting and reading the seeds again, and on two cores ran no more executions than one
process (bench/README.md, "## fuzz: past the seeds"). Independent processes run the whole
campaign instead; each rereads the shared corpus directory every second (libFuzzer's -reload,
on by default), so what one finds, the others build on. Their lines go to one log, each after
its job's number; the campaign ends when every process has ended, or, unless it keeps going, as
soon as one has recorded a finding (the others are stopped then, and what they were running
killed nothing). Keeping going, a process that stopped on a crash of the codec after its seed
pass is started again with the next seed while time is left, as fork mode's -ignore_crashes did.
"""

from __future__ import annotations

import contextlib
import math
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from typing import IO, Final

from utf8cert.harness.codec import sandbox
from utf8cert.harness.codec.child_environment import passed
from utf8cert.harness.fuzzing.campaign import INTERRUPTED, Campaign, libfuzzer_argv
from utf8cert.harness.fuzzing.differential import FINDING_EXIT
from utf8cert.harness.fuzzing.inflight import LABEL_VARIABLE, PREFIX, left_behind, settle
from utf8cert.harness.fuzzing.judge import Judge
from utf8cert.harness.fuzzing.recorder import CHANNEL_VARIABLE

GRACE: Final = 10.0
"""Seconds a process sent SIGTERM has to end before it is killed: libFuzzer prints its
statistics from its signal handler, and one was seen stuck there under load."""
IN_PROCESS_JUDGE: Final = (
    "none: --in-process, the codec runs in the judge's process, outside any sandbox (trusted)"
)
"""The boundary of a campaign whose codec the user trusts."""
APART: Final = "around the codec's process; the judge in utf8cert's own process"
"""What a campaign judged out of the codec's reach says after the sandbox of its codec's
process (apart_boundary)."""
READ_BUFFER: Final = 1 << 20
"""Bytes the judge reads from a codec's process's pipe at once: many frames a read."""
RESTARTS: Final = 100
"""At most this many restarts of processes stopped by a crash, in a campaign that keeps going
(a codec that crashes on every input would otherwise be restarted for the whole --max-time)."""


class Workers:
    """The campaign's libFuzzer processes, started, logged, stopped and waited for."""

    def __init__(
        self,
        campaign: Campaign,
        environment: Mapping[str, str],
        log: IO[str],
        elapsed: Callable[[], float],
        preexec: Callable[[], None] | None = None,
        judge: Judge | None = None,
    ) -> None:
        self.campaign, self.environment, self.log = campaign, dict(environment), log
        self.elapsed, self.preexec = elapsed, preexec
        self.judge = judge
        """The judge each process sends its answers to (None: --in-process, each judges)."""
        self.boundary = IN_PROCESS_JUDGE if judge is None else ""
        """What keeps the codec from the judge, as the reports name it (set at each start)."""
        self._reading: list[threading.Thread] = []
        """The judge's threads reading each process's pipe."""
        self._sandboxed: set[int] = set()
        """The pids of the processes started in bubblewrap."""
        self._confined: dict[int, sandbox.Confined] = {}
        """Each process confined by Landlock where bubblewrap cannot start, by pid: its scratch
        directory is removed when it ends."""
        self._labels: dict[int, str] = {}
        """Each process's label (its in-flight file's name), by pid."""
        self.running: dict[int, subprocess.Popen[str]] = {}
        """Each process still running, by its job number (1, 2, …)."""
        self.statuses: list[int] = []
        """The exit status of each process that ended by itself."""
        self.stopping = False
        """Set once the campaign is being ended: no process is started again."""
        self._terminated: float | None = None
        """When the processes were last sent SIGTERM (None: never)."""
        self._stopped: set[int] = set()
        """The pids of processes stopped by the campaign, not by themselves."""
        self._killed: set[int] = set()
        """The pids of processes killed because they outlived the grace after a SIGTERM."""
        self._interrupting: set[int] = set()
        """The signals interrupt() passed on: a process they ended (before libFuzzer had set
        its own handler, at its start) was interrupted, not failed."""
        self._lock = threading.Lock()
        self._ended: queue.Queue[tuple[int, subprocess.Popen[str]]] = queue.Queue()
        self._started = 0
        self.started = False
        """Set once start() has returned: until then no process has ended."""
        self.passed_on: int | None = None
        """The signal interrupt() last passed on."""

    def start(self) -> None:
        """Start `campaign.jobs` processes, none more once interrupt() has come (its signal
        handler runs between any two steps here)."""
        for job in range(1, self.campaign.jobs + 1):
            if self.stopping:
                break
            self._start(job)
            if self.passed_on is not None:  # it may have come before the process was listed
                self.signal(self.running[job], self.passed_on)
        self.started = True

    def _start(self, job: int) -> None:
        """Start job `job`'s process (the `self._started`-th process of the campaign)."""
        argv = libfuzzer_argv(self.campaign)
        seed, jobs = self.campaign.seed, self.campaign.jobs
        if jobs > 1:
            if seed is not None:  # every process its own, and the same on each run
                argv.append(f"-seed={seed + self._started}")
            if self.campaign.runs is not None:
                argv.append(f"-runs={math.ceil(self.campaign.runs / jobs)}")
        if self._started >= jobs and self.campaign.max_time is not None:
            left = max(1, int(self.campaign.max_time - self.elapsed()))
            argv.append(f"-max_total_time={left}")
        label = f"{job}-{self._started}"  # in a sandbox, where every pid is the same
        self._started += 1
        env = dict(self.environment)
        reader: int | None = None
        kept: tuple[int, ...] = ()
        wrapped, confined = False, None
        if self.judge is not None:
            env[LABEL_VARIABLE] = label
            reader, writer = os.pipe()
            env[CHANNEL_VARIABLE] = str(writer)
            env = passed(env, sandbox.policy().environment)
            argv, wrapped, confined = sandboxed(argv, env, self.campaign)
            if confined is not None:
                env.update(confined.environment)  # HOME and TMPDIR: its scratch directory
            self.boundary = self.judge.boundary = apart_boundary()
            kept = (writer,)
        prepare = self.preexec if confined is None else _then(self.preexec, confined.prepare)
        try:
            process = subprocess.Popen(
                argv,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                text=True,
                errors="replace",
                start_new_session=True,  # a Ctrl-C reaches libFuzzer only as the driver passes it
                preexec_fn=prepare,
                pass_fds=kept,
            )
        except BaseException:
            if confined is not None:
                confined.ended()
            raise
        finally:
            for fd in kept:
                os.close(fd)  # the child's now: the pipe ends when the child does
            if confined is not None:
                confined.started()
        if wrapped:
            self._sandboxed.add(process.pid)
        if confined is not None:
            self._confined[process.pid] = confined
        self._labels[process.pid] = label if LABEL_VARIABLE in env else str(process.pid)
        self.running[job] = process
        if self.judge is not None and reader is not None:
            stream = os.fdopen(reader, "rb", buffering=READ_BUFFER)
            who = (
                f"the codec's process (job {job})"
                if self.campaign.jobs > 1
                else "the codec's process"
            )
            reading = threading.Thread(target=self.judge.serve, args=(stream, who), daemon=True)
            reading.start()
            self._reading.append(reading)
        prefix = f"job {job}: " if jobs > 1 else ""
        threading.Thread(target=self._copy, args=(job, process, prefix), daemon=True).start()

    def note(self, line: str) -> None:
        """Write one line of utf8cert's own to the log, among libFuzzer's."""
        with self._lock:
            self.log.write(f"{self.elapsed():9.2f}  utf8cert: {line}\n")
            self.log.flush()

    def _copy(self, job: int, process: subprocess.Popen[str], prefix: str) -> None:
        """Write the process's lines to the log as they come, then report its end."""
        assert process.stdout is not None
        for line in process.stdout:
            with self._lock:
                self.log.write(f"{self.elapsed():9.2f}  {prefix}{line}")
                self.log.flush()
        process.wait()
        self._ended.put((job, process))

    def wait(self) -> int:
        """Wait until every process has ended; return the campaign's status: FINDING_EXIT if a
        process recorded a finding, else the first other failure of a process (a crash it saw),
        else INTERRUPTED if one was interrupted, else 0."""
        while self.running:
            try:
                job, process = self._ended.get(timeout=0.5)
            except queue.Empty:
                self._kill_the_late()
                continue
            del self.running[job]
            confined = self._confined.pop(process.pid, None)
            if confined is not None:
                confined.ended()
            if process.pid in self._stopped:
                settle(self.campaign.crashes, self._labels[process.pid])  # it killed nothing
                continue
            # Killed after the grace, it was stopping as told: an interruption, not a failure.
            returned = process.returncode
            if process.pid in self._sandboxed:  # bubblewrap's 128 + N for its program's signal
                returned = sandbox.signal_status(returned)
            told = process.pid in self._killed or -returned in self._interrupting
            status = INTERRUPTED if told else returned
            self.statuses.append(status)
            if status in (0, INTERRUPTED) or self.stopping:
                continue
            if (
                self.campaign.keep_going
                and status != FINDING_EXIT
                and self._again(self._labels[process.pid])
            ):
                self._start(job)  # a crash of the codec: go on, as -ignore_crashes did
            elif not self.campaign.keep_going:
                self.stop()  # one finding ends the campaign
        return _status(self.statuses)

    def _kill_the_late(self) -> None:
        """Kill each process still running GRACE seconds after it was sent SIGTERM, noting it
        in the log."""
        if self._terminated is None or time.monotonic() < self._terminated + GRACE:
            return
        for job, late in list(self.running.items()):
            if late.pid not in self._killed:
                self._killed.add(late.pid)
                self.note(f"job {job} had not ended {GRACE:.0f} s after SIGTERM: killed")
                self.signal(late, signal.SIGKILL)

    def _again(self, label: str) -> bool:
        """Return True when process `label`, stopped by a crash, may be started again: it had
        started mutating (one that crashed in the seed pass would crash there again), and time
        and restarts are left."""
        try:
            if not left_behind(self.campaign.crashes / f"{PREFIX}{label}")[0].mutating:
                return False
        except OSError:
            return False  # it died before it kept a record: at its start
        campaign = self.campaign
        if campaign.jobs == 1 or campaign.runs is not None:
            return False  # one process stops at a crash, as libFuzzer does; -runs are counted
        if self._started >= campaign.jobs + RESTARTS:
            return False
        return campaign.max_time is None or campaign.max_time - self.elapsed() >= 1

    def stop(self) -> None:
        """End the campaign: SIGTERM to every process still running (libFuzzer prints its
        statistics and exits), none started again."""
        self.stopping = True
        self._terminated = time.monotonic()
        for process in list(self.running.values()):
            self._stopped.add(process.pid)
            self.signal(process, signal.SIGTERM)

    def interrupt(self, signum: int) -> None:
        """Pass `signum` on to every process still running (each is killed if it has not ended
        GRACE seconds after a SIGTERM); none is started again."""
        self.stopping = True
        self._interrupting.add(signum)
        self.passed_on = signum
        if signum == signal.SIGTERM:
            self._terminated = time.monotonic()
        for process in list(self.running.values()):
            self.signal(process, signum)

    def signal(self, process: subprocess.Popen[str], signum: int) -> None:
        """Send `signum` to `process`'s group (the process and what it started); for a process
        in the sandbox, to libFuzzer inside it (bubblewrap passes no signal on, and its death
        would SIGKILL libFuzzer before it says anything), SIGKILL to the whole sandbox. A
        sandbox still being set up is killed whole (sandbox.end_unstarted: a signal to
        bubblewrap then ended it alone, and libFuzzer started later and fuzzed to its end); it
        ran nothing, so it counts as interrupted."""
        if process.pid in self._sandboxed and signum != signal.SIGKILL:
            inner = sandbox.innermost(process.pid)
            if inner != process.pid:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(inner, signum)
                return
            if process.poll() is None and sandbox.end_unstarted(process.pid):
                self._killed.add(process.pid)
                return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signum)

    def drained(self, seconds: float) -> bool:
        """Return True once the judge has read every frame the processes sent (their pipes
        closed), False if a pipe is still open after `seconds` (something the codec started
        holds it): judging must be over before the findings are made with the same child."""
        deadline = time.monotonic() + seconds
        for reading in self._reading:
            reading.join(max(0.0, deadline - time.monotonic()))
        return not any(reading.is_alive() for reading in self._reading)

    def ended(self) -> bool:
        """Return True once every process started has ended (False while they start)."""
        running = list(self.running.values())
        return self.started and all(process.poll() is not None for process in running)


def _status(statuses: list[int]) -> int:
    """Return the status of a campaign whose processes ended with `statuses` (see wait)."""
    if FINDING_EXIT in statuses:
        return FINDING_EXIT
    failures = [status for status in statuses if status not in (0, INTERRUPTED)]
    if failures:
        return failures[0]
    return INTERRUPTED if INTERRUPTED in statuses else 0


def apart_boundary() -> str:
    """Return the boundary of a campaign judged apart whose codec's processes start now: the OS
    sandbox `check`'s children get here (sandbox.boundary: bubblewrap, else Landlock and
    seccomp, else the process alone, each with why the one before cannot be made), around the
    codec's process, and the judge in utf8cert's own process."""
    return f"{sandbox.boundary()} {APART}"


def sandboxed(
    argv: list[str], env: dict[str, str], campaign: Campaign
) -> tuple[list[str], bool, sandbox.Confined | None]:
    """Return the command that runs the codec's process `argv` in the OS sandbox, as `check`'s
    children run (sandbox.wrap, else sandbox.confine), whether it is in bubblewrap, and its
    Landlock confinement where bubblewrap cannot start (None: in bubblewrap, or the process
    alone where Landlock cannot hold it either); in either sandbox able to write only what
    libFuzzer writes (the working corpus and the crash directory). SandboxError where a
    sandbox is required and none can be made, OSError where the kernel refuses the ruleset."""
    written = [str(campaign.corpus), str(campaign.crashes)]
    wrapped = sandbox.wrap(argv, env)
    if wrapped is None:
        return argv, False, sandbox.confine(argv, env, written)
    end = wrapped.index("--")  # bubblewrap's options end there; later ones win
    more = []
    for directory in written:
        more += ["--bind", directory, directory]
    # Set again last, whatever the sandbox's own environment options do before.
    more += ["--setenv", CHANNEL_VARIABLE, env[CHANNEL_VARIABLE]]
    more += ["--setenv", LABEL_VARIABLE, env[LABEL_VARIABLE]]
    return [*wrapped[:end], *more, *wrapped[end:]], True, None


def _then(first: Callable[[], None] | None, then: Callable[[], None]) -> Callable[[], None]:
    """Return what a child runs between fork and exec: `first` (if any), then `then`."""

    def both() -> None:
        if first is not None:
            first()
        then()

    return both
