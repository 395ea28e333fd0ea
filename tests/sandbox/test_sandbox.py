"""The OS sandbox (harness/codec/sandbox.py) against a codec that attacks its judge from its
child: tests/support/sandbox_probe.py (a Python codec, isolated by default and under `pytest
--utf8-isolate`) and tests/support/sandbox_probe.sh (a `cmd:` program). The evidence is outside the
sandbox: the installed package and vectors hashed before and after, the reports read back after
every process of the run has had time to rewrite them, /proc searched for what outlived the run,
the judge's own exit status; the probe's log (in the one directory it may write) shows that each
attack was made and what stopped it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support.leftovers import survivors, tagged_environment

import utf8cert.harness
import utf8cert.vectors
from utf8cert.harness.codec import sandbox

TESTS = Path(__file__).resolve().parents[1]
PACKAGE = Path(utf8cert.harness.__file__).parent
VECTORS = Path(next(iter(utf8cert.vectors.__path__)))
TIMEOUT = 600  # seconds a run may take on a loaded 2-core machine before the test gives up
OUTLIVER_SLEEP = 2.0  # what the probes' surviving process waits after the codec before it writes
FILE_ATTACKS = ("create in", "open for writing")

needs_bubblewrap = pytest.mark.skipif(
    sandbox.unavailable() is not None, reason=f"no OS sandbox here: {sandbox.unavailable()}"
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
    token: str = ""

    def __post_init__(self) -> None:
        self.token = uuid.uuid4().hex
        self.work = self.tmp_path / "work"  # the judge's working directory, the reports there
        self.log = self.tmp_path / "log"  # the one directory the probe may write
        self.work.mkdir()
        self.log.mkdir()
        self.before = (tree_digest(PACKAGE), tree_digest(VECTORS))

    def report(self, suffix: str) -> Path:
        return self.work / f"report-{self.token}.{suffix}"

    def environment(self, reports: list[Path]) -> tuple[dict[str, str], str]:
        env, tag = tagged_environment(
            PYTHONPATH=os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])),
            PROBE_TOKEN=self.token,
            PROBE_REPORTS=os.pathsep.join(map(str, reports)),
            PROBE_LOG=str(self.log),
        )
        env.pop(sandbox.WRITABLE_VARIABLE, None)  # tests/conftest.py's: the sandbox whole here
        return env, tag

    def run(self, argv: list[str], reports: list[Path]) -> subprocess.CompletedProcess[str]:
        """Return the finished judge, run in `work`; fail if it is stopped or hangs (a probe's
        SIGSTOP got through), and once every process it started is gone."""
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
        ended = time.monotonic()
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

    def assert_nothing_reached(self) -> None:
        """Assert the package, vectors and working directory are as they were, nothing
        survived, and the probe tried every attack and got through none that writes."""
        assert (tree_digest(PACKAGE), tree_digest(VECTORS)) == self.before
        assert not list(self.work.glob("probe-*"))
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
        # The judge cannot even be named from inside: its pid is not among those attacked.
        attacked = {attempt["target"] for attempt in attempts if attempt["attack"] == "memory"}
        assert str(self.judge_pid) not in attacked


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


@needs_bubblewrap
def test_a_python_codec_isolated_by_default_reaches_nothing_of_its_judge(tmp_path: Path) -> None:
    attack = Attack(tmp_path)
    argv, reports = check_argv("support.sandbox_probe", attack)
    done = attack.run(argv, reports)
    assert done.returncode == 0, done.stderr
    document = json_report(reports[0])
    assert document["certified"] is True
    assert document["boundary"] == sandbox.BUBBLEWRAP
    assert f"| Boundary | {sandbox.BUBBLEWRAP} |" in reports[2].read_text(encoding="utf-8")
    attack.assert_nothing_reached()


@needs_bubblewrap
def test_a_cmd_program_reaches_nothing_of_its_judge(tmp_path: Path) -> None:
    attack = Attack(tmp_path)
    script = TESTS / "support" / "sandbox_probe.sh"
    words = ["sh", str(script), sys.executable, str(PACKAGE), str(VECTORS)]
    argv, reports = check_argv(f"cmd:{shlex.join(words)}", attack)
    done = attack.run(argv, reports)
    assert done.returncode == 0, done.stderr
    assert json_report(reports[0])["boundary"] == sandbox.BUBBLEWRAP
    attack.assert_nothing_reached()


@needs_bubblewrap
def test_a_latin1_decoder_that_forges_its_reports_still_fails(tmp_path: Path) -> None:
    attack = Attack(tmp_path)
    argv, reports = check_argv("support.sandbox_probe:Latin1", attack)
    done = attack.run(argv, reports)
    assert done.returncode == 1, done.stderr
    document = json_report(reports[0])  # read after the forger's time to write has passed
    assert document["certified"] is False
    assert document["summary"]["conformant"] is False
    failures = ElementTree.parse(reports[1]).getroot().get("failures")
    assert failures is not None and int(failures) > 0
    assert "NOT conformant to RFC 3629" in reports[2].read_text(encoding="utf-8")
    attack.assert_nothing_reached()


@needs_bubblewrap
def test_under_pytest_utf8_isolate_the_probe_reaches_nothing(tmp_path: Path) -> None:
    attack = Attack(tmp_path)
    junit = attack.report("xml")
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "--utf8-codec",
        "support.sandbox_probe",
        "--utf8-isolate",
    ]
    argv += ["--utf8-sandbox-writable", str(attack.log), f"--junitxml={junit}"]
    argv += ["-p", "no:cacheprovider", "-p", "no:randomly", "-k", "sec-1[ or sec-10["]
    done = attack.run(argv, [junit])
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"utf8cert boundary: {sandbox.BUBBLEWRAP}" in done.stdout
    root = ElementTree.parse(junit).getroot()
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["utf8cert_boundary"] == sandbox.BUBBLEWRAP
    assert sum(int(suite.get("failures", "0")) for suite in root.iter("testsuite")) == 0
    assert len(list(root.iter("testcase"))) > 0
    attack.assert_nothing_reached()


@needs_bubblewrap
def test_a_judge_killed_mid_run_leaves_no_process_of_its_codec(tmp_path: Path) -> None:
    attack = Attack(tmp_path)
    argv, reports = check_argv("support.sandbox_probe", attack)
    env, tag = attack.environment(reports)
    with subprocess.Popen(
        argv, cwd=attack.work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    ) as judge:
        deadline = time.monotonic() + TIMEOUT
        while not any(a["attack"] == "outlive the run" for a in attack.attempts()):
            assert judge.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        judge.kill()  # SIGKILL: no handler, no cleanup; only the kernel acts
    assert survivors(tag) == []
    assert attack.outlivers() == []
    time.sleep(OUTLIVER_SLEEP + 2)
    assert not list(attack.log.glob("survived-*")), "a process outlived the judge"
