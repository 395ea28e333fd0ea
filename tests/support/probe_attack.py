"""One run of a judge against tests/support/sandbox_probe.py (or sandbox_probe.sh): where its
reports go, the evidence outside the sandbox (the installed package and vectors hashed before
and after, the reports read back after every process of the run has had time to rewrite them,
/proc searched for what outlived the run), and the probe's log of each attack and what stopped
it. Used by tests/sandbox/ for each layer of the sandbox."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import utf8cert.harness
import utf8cert.vectors
from support.leftovers import survivors, tagged_environment
from utf8cert.harness.codec import sandbox

TESTS = Path(__file__).resolve().parents[1]
PACKAGE = Path(utf8cert.harness.__file__).parent
VECTORS = Path(next(iter(utf8cert.vectors.__path__)))
TIMEOUT = 600  # seconds a run may take on a loaded 2-core machine before the test gives up
OUTLIVER_SLEEP = 2.0  # what the probes' surviving process waits after the codec before it writes
FILE_ATTACKS = ("create in", "open for writing")

needs_bubblewrap = pytest.mark.skipif(
    sandbox.bubblewrap_unavailable() is not None,
    reason=f"no bubblewrap here: {sandbox.bubblewrap_unavailable()}",
)
needs_landlock = pytest.mark.skipif(
    sandbox.landlock_unavailable() is not None,
    reason=f"no Landlock here: {sandbox.landlock_unavailable()}",
)


def tree_digest(root: Path) -> str:
    """Return a digest of every file's path and bytes under `root` (bytecode caches included)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@dataclass
class Attack:
    """One run of a judge with a probe codec: where its reports go and what it left."""

    tmp_path: Path
    base: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    """The judge's environment before the probe's variables (a machine without bwrap, say)."""
    token: str = ""

    def __post_init__(self) -> None:
        self.token = uuid.uuid4().hex
        # A service on 127.0.0.1 the codec must not reach (its port in PROBE_PORT).
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.setblocking(False)
        self.work = self.tmp_path / "work"  # the judge's working directory, the reports there
        self.log = self.tmp_path / "log"  # the one directory the probe may write
        self.work.mkdir()
        self.log.mkdir()
        self.before = (tree_digest(PACKAGE), tree_digest(VECTORS))
        # Secrets the codec must not read: one in the user's home (removed after the run), one
        # in the working directory (the user's repository), and the machine's.
        self.secrets = [Path.home() / f".utf8cert-probe-{self.token}", self.work / "secret.txt"]
        for secret in self.secrets:
            secret.write_text("s3cret\n")
        weakref.finalize(self, self.secrets[0].unlink, missing_ok=True)
        self.secrets.append(Path("/etc/shadow"))

    def report(self, suffix: str) -> Path:
        return self.work / f"report-{self.token}.{suffix}"

    def environment(self, reports: list[Path]) -> tuple[dict[str, str], str]:
        env, tag = tagged_environment(
            PYTHONPATH=os.pathsep.join(filter(None, [str(TESTS), self.base.get("PYTHONPATH")])),
            PROBE_TOKEN=self.token,
            PROBE_REPORTS=os.pathsep.join(map(str, reports)),
            PROBE_LOG=str(self.log),
            PROBE_PORT=str(self.listener.getsockname()[1]),
            PROBE_SECRETS=os.pathsep.join(map(str, self.secrets)),
        )
        # The base's own values (a PATH without bwrap, say), the probe's variables kept.
        env.update((name, value) for name, value in self.base.items() if name != "PYTHONPATH")
        env.pop(sandbox.WRITABLE_VARIABLE, None)  # tests/conftest.py's: the sandbox whole here
        return env, tag

    def run(
        self, argv: list[str], reports: list[Path], outlived: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """Return the finished judge, run in `work`; fail if it is stopped or hangs (a probe's
        SIGSTOP got through), and, unless `outlived` (Landlock has no PID namespace: what the
        probe started may outlive the run, confined), once every process it started is gone."""
        env, tag = self.environment(reports)
        judge = subprocess.Popen(
            argv, cwd=self.work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            out, err = judge.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            judge.send_signal(signal.SIGCONT)
            judge.kill()
            judge.communicate()
            pytest.fail("the judge did not finish: stopped or hung by its codec")
        finally:
            self.secrets[0].unlink(missing_ok=True)  # the home directory as it was
        ended = time.monotonic()
        if not outlived:
            assert survivors(tag) == []
            assert self.outlivers() == []
        time.sleep(max(0.0, ended + OUTLIVER_SLEEP + 2 - time.monotonic()))
        self.judge_pid = judge.pid
        return subprocess.CompletedProcess(argv, judge.returncode, out, err)

    def outlivers(self) -> list[str]:
        """Return the live processes whose command line holds the token (the judge is gone)."""
        found = []
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                if self.token.encode() in cmdline.read_bytes():
                    found.append(cmdline.parent.name)
            except OSError:
                continue
        return found

    def attempts(self) -> list[dict[str, str]]:
        lines = [line for path in self.log.glob("attempts-*.jsonl") for line in path.open()]
        return [json.loads(line) for line in lines]

    def assert_nothing_reached(self, judge_hidden: bool = True) -> None:
        """Assert the package, vectors and working directory are as they were, nothing
        survived, the listener was never reached, and the probe tried every attack and got
        through none: no write, no read of a secret, no connection, no signal or memory of
        the judge (`judge_hidden`: not even its pid, which a PID namespace hides)."""
        assert (tree_digest(PACKAGE), tree_digest(VECTORS)) == self.before
        assert not list(self.work.glob("probe-*"))
        if judge_hidden:
            assert not list(self.log.glob("survived-*")), "a process outlived the run"
        attempts = self.attempts()
        kinds = {attempt["attack"].split(" in ")[0] for attempt in attempts}
        assert {"memory", "signal SIGSTOP", "signal SIGUSR1", "create", "open for writing"} <= kinds
        assert "outlive the run" in kinds

        reached = [
            attempt
            for attempt in attempts
            if attempt["attack"].startswith(FILE_ATTACKS) and attempt["result"] == "reached"
        ]
        assert reached == []
        judge = str(self.judge_pid)
        for kind in ("read", "connect", "memory", "signal SIGSTOP", "signal SIGUSR1"):
            tried = [attempt for attempt in attempts if attempt["attack"] == kind]
            assert tried, f"the probe did not try {kind}"
            # Its own sandbox's processes (bubblewrap's init) are the probe's to attack.
            got = [
                attempt
                for attempt in tried
                if attempt["result"] == "reached"
                and (kind in ("read", "connect") or attempt["target"] == judge)
            ]
            assert got == [], f"{kind} got through"
        with pytest.raises(BlockingIOError):
            self.listener.accept()
        attacked = {attempt["target"] for attempt in attempts if attempt["attack"] == "memory"}
        if judge_hidden:  # the judge cannot even be named from inside: its pid not attacked
            assert str(self.judge_pid) not in attacked

    def end_outlivers(self) -> None:
        """Kill what the probe left running (the processes whose command line holds the
        token) and wait until it has written its `survived` file or is gone."""
        deadline = time.monotonic() + TIMEOUT
        while self.outlivers() and not list(self.log.glob("survived-*")):
            assert time.monotonic() < deadline
            time.sleep(0.2)
        for pid in self.outlivers():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)


def check_argv(spec: str, attack: Attack, *more: str) -> tuple[list[str], list[Path]]:
    reports = [attack.report("json"), attack.report("xml"), attack.report("md")]
    argv = [sys.executable, "-m", "utf8cert.harness", "check", spec, "-q"]
    argv += [
        "--json",
        str(reports[0]),
        "--junit-xml",
        str(reports[1]),
        "--markdown",
        str(reports[2]),
    ]
    return [*argv, "--sandbox-writable", str(attack.log), *more], reports


def json_report(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document
