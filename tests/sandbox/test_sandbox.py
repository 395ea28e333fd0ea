"""The OS sandbox (harness/codec/sandbox.py) against a codec that attacks its judge from its
child: tests/support/sandbox_probe.py (a Python codec, isolated by default and under `pytest
--utf8-isolate`) and tests/support/sandbox_probe.sh (a `cmd:` program). The evidence is outside the
sandbox: the installed package and vectors hashed before and after, the reports read back after
every process of the run has had time to rewrite them, /proc searched for what outlived the run,
the judge's own exit status; the probe's log (in the one directory it may write) shows that each
attack was made and what stopped it.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from support.leftovers import survivors
from support.probe_attack import (
    OUTLIVER_SLEEP,
    PACKAGE,
    TESTS,
    TIMEOUT,
    VECTORS,
    Attack,
    check_argv,
    json_report,
    needs_bubblewrap,
)
from support.samples import few_of_each_kind, options

from utf8cert.harness.codec import sandbox

FEW = tuple(options(few_of_each_kind()))


@needs_bubblewrap
@pytest.mark.slow
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
@pytest.mark.slow
def test_a_cmd_program_reaches_nothing_of_its_judge(tmp_path: Path) -> None:
    attack = Attack(tmp_path)
    script = TESTS / "support" / "sandbox_probe.sh"
    words = ["sh", str(script), sys.executable, str(PACKAGE), str(VECTORS)]
    # A few vectors of each kind: the program makes its attacks whatever it is asked, and a
    # whole check through `sh` costs a minute under load.
    argv, reports = check_argv(f"cmd:{shlex.join(words)}", attack, *FEW)
    done = attack.run(argv, reports)
    assert done.returncode == 0, done.stderr
    assert json_report(reports[0])["boundary"] == sandbox.BUBBLEWRAP
    attack.assert_nothing_reached()


@needs_bubblewrap
@pytest.mark.slow
def test_a_latin1_decoder_that_forges_its_reports_still_fails(tmp_path: Path) -> None:
    attack = Attack(tmp_path)
    argv, reports = check_argv("support.sandbox_probe:Latin1", attack, *FEW)
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
@pytest.mark.slow
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
@pytest.mark.slow
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


@pytest.mark.slow
@needs_bubblewrap
def test_a_3_gib_fill_of_tmp_under_memory_2048_is_a_memory_failure(tmp_path: Path) -> None:
    """The sandbox's /tmp is memory: sized by --memory, a codec cannot hold 3 GiB there beyond
    its 2 GiB and be certified (issue 39; tests/sandbox/test_landlock.py has a cheap twin)."""
    report = tmp_path / "report.json"
    argv = [sys.executable, "-m", "utf8cert.harness", "check", "support.tmp_filler:decode"]
    argv += ["--input", "41", "--memory", "2048", "--json", str(report)]
    env = {**os.environ, "PYTHONPATH": str(TESTS), "TMP_FILL_MIB": "3072"}
    env.pop(sandbox.WRITABLE_VARIABLE, None)
    done = subprocess.run(
        [*argv, "--sandbox-env", "TMP_FILL_MIB"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 1, done.stderr
    document = json_report(report)
    assert document["certified"] is False
    assert [difference["actual"] for difference in document["differences"]] == [
        "memory: OSError: [Errno 28] No space left on device"
    ]
