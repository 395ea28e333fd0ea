"""Where the kernel refuses user namespaces (here: a `bwrap` on PATH that fails as bubblewrap
then does, the bundled one hidden), the codec's child is confined by Landlock and seccomp
(harness/codec/landlock.py) before it loads the codec: tests/support/sandbox_probe.py's attacks
(writes into the working directory, the installed package and the vectors; a forged report
written by a process that outlives the run; /etc/shadow and the home directory read; a TCP
listener on 127.0.0.1; the judge's memory and signals) all fail, and every report names the
boundary for what it is. What Landlock does not hold, a process the codec starts outliving
the run (there is no PID namespace), is shown too: it outlives the run, and can forge nothing."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from support.no_sandbox import REFUSAL, environment_refusing_namespaces
from support.probe_attack import Attack, check_argv, json_report, needs_landlock

from utf8cert.harness.codec import landlock, sandbox, view

BOUNDARY = f"{sandbox.LANDLOCK}: {landlock.held()}; no bubblewrap: {REFUSAL})"
"""The boundary of every report where user namespaces are refused."""


def refusing_attack(tmp_path: Path) -> Attack:
    return Attack(tmp_path, base=environment_refusing_namespaces(tmp_path / "machine"))


@needs_landlock
@pytest.mark.slow
def test_with_user_namespaces_refused_landlock_holds_every_attack_of_the_probe(
    tmp_path: Path,
) -> None:
    attack = refusing_attack(tmp_path)
    argv, reports = check_argv("support.sandbox_probe", attack, "--vector", "sec-1")
    done = attack.run(argv, reports, outlived=True)
    attack.end_outlivers()  # it has tried to forge the reports by now
    assert done.returncode == 0, done.stderr
    document = json_report(reports[0])
    assert document["certified"] is True
    assert document["boundary"] == BOUNDARY
    assert document["summary"]["verdict"].endswith(
        "; checked under Landlock and seccomp, without namespaces"
    )
    assert f"| Boundary | {BOUNDARY} |" in reports[2].read_text(encoding="utf-8")
    attack.assert_nothing_reached(judge_hidden=False)  # no PID namespace: seen, not reached


@needs_landlock
def test_under_landlock_a_latin1_decoder_that_forges_its_reports_still_fails(
    tmp_path: Path,
) -> None:
    attack = refusing_attack(tmp_path)
    argv, reports = check_argv("support.sandbox_probe:Latin1", attack, "--vector", "sec-1")
    done = attack.run(argv, reports, outlived=True)
    attack.end_outlivers()
    assert done.returncode == 1, done.stderr
    document = json_report(reports[0])  # read after the forger's time to write has passed
    assert document["certified"] is False
    assert document["boundary"] == BOUNDARY
    attack.assert_nothing_reached(judge_hidden=False)


@needs_landlock
@pytest.mark.parametrize("layer", ["bubblewrap", "Landlock"])
@pytest.mark.slow
def test_a_temporary_file_beyond_the_memory_limit_is_a_memory_failure(
    tmp_path: Path, layer: str
) -> None:
    """256 MiB of memory, 400 MiB written to $TMPDIR: bubblewrap's /tmp is full, Landlock's
    file size limit is reached; either way a `memory` difference, never a certificate."""
    attack = Attack(tmp_path) if layer == "bubblewrap" else refusing_attack(tmp_path)
    if layer == "bubblewrap" and sandbox.bubblewrap_unavailable() is not None:
        pytest.skip(f"no bubblewrap here: {sandbox.bubblewrap_unavailable()}")
    report = attack.report("json")
    argv = [sys.executable, "-m", "utf8cert.harness", "check", "support.tmp_filler:decode"]
    argv += ["--input", "41", "--memory", "256", "--json", str(report)]
    attack.base["TMP_FILL_MIB"] = "400"
    done = attack.run([*argv, "--sandbox-env", "TMP_FILL_MIB"], [report])
    assert done.returncode == 1, done.stderr
    document = json.loads(report.read_text(encoding="utf-8"))
    assert document["certified"] is False
    assert [difference["actual"].split(":")[0] for difference in document["differences"]] == [
        "memory"
    ]


ATTEMPTS = """
import os, socket
try:
    open(os.environ["SECRET"], "rb").read()
    print("read the secret")
except OSError:
    pass
try:
    open(os.path.join(os.environ["OUTSIDE"], "written"), "w").close()
    print("wrote outside")
except OSError:
    pass
try:
    socket.create_connection(("127.0.0.1", int(os.environ["PORT"])), 2)
    print("connected")
except OSError:
    pass
open(os.path.join(os.environ["SCRATCH"], "written"), "w").close()
print("wrote its own")
"""


@needs_landlock
@pytest.mark.parametrize("version", [1, 3, landlock.abi()])
def test_every_landlock_version_holds_files_and_the_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    """The oldest Landlock (Linux 5.13) too: reads outside the view and writes outside the
    writable paths are refused, and TCP by seccomp where Landlock cannot; the child writes
    its own directory."""
    monkeypatch.setattr(landlock, "_abi", version)
    secret, outside, scratch = tmp_path / "secret", tmp_path / "outside", tmp_path / "scratch"
    secret.write_text("s3cret")
    outside.mkdir()
    scratch.mkdir()
    listener = socket.create_server(("127.0.0.1", 0))
    argv = [sys.executable, "-c", ATTEMPTS]  # the paths in its environment: none shown
    env = {"SECRET": str(secret), "OUTSIDE": str(outside), "SCRATCH": str(scratch)}
    env["PORT"] = str(listener.getsockname()[1])
    descriptor = landlock.ruleset(view.readable(argv, {}, str(outside)), [str(scratch)])
    try:
        done = subprocess.run(
            argv,
            env=env,
            cwd=outside,
            preexec_fn=landlock.confinement(descriptor),
            capture_output=True,
            text=True,
        )
    finally:
        landlock.close(descriptor)
        listener.close()
    assert done.returncode == 0, done.stderr
    assert done.stdout == "wrote its own\n"
    assert not (outside / "written").exists()


@needs_landlock
@pytest.mark.slow
def test_require_sandbox_is_met_by_landlock(tmp_path: Path) -> None:
    env = environment_refusing_namespaces(tmp_path / "machine")
    argv = [sys.executable, "-m", "utf8cert.harness", "check", "codec:utf-8", "--vector", "sec-1"]
    done = subprocess.run(
        [*argv, "--require-sandbox", "--json", "-", "-q"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["boundary"] == BOUNDARY


JUDGED_APART = "around the codec's process; the judge in utf8cert's own process"
"""What a fuzz campaign's boundary says after its codec process's sandbox (fuzzing/workers.py)."""


@needs_landlock
@pytest.mark.slow
def test_a_fuzz_campaigns_codec_process_is_held_by_landlock_as_checks_children_are(
    tmp_path: Path,
) -> None:
    """With user namespaces refused, the campaign's codec process (libFuzzer, atheris and the
    probe, imported there) gets check's Landlock and seccomp layer: every attack of the probe
    fails there too, the working directory first, and the campaign names check's boundary."""
    attack = refusing_attack(tmp_path)
    report = attack.report("json")
    argv = [sys.executable, "-m", "utf8cert.harness", "fuzz", "support.sandbox_probe", "-q"]
    argv += ["--runs", "200", "--seed", "1", "--artifacts", str(tmp_path / "artifacts")]
    argv += ["--json", str(report), "--sandbox-writable", str(attack.log)]
    done = attack.run(argv, [report], outlived=True)
    attack.end_outlivers()
    assert done.returncode == 0, done.stderr
    document = json_report(report)
    assert document["boundary"] == f"{BOUNDARY} {JUDGED_APART}"
    assert f"boundary: {BOUNDARY} {JUDGED_APART}" in done.stdout
    fuzzing = [a for a in attack.attempts() if a["program"] == "utf8cert_fuzzer.py"]
    tried = [a for a in fuzzing if a["attack"] == "create in working directory"]
    assert tried and all(a["result"].startswith("PermissionError") for a in tried), tried
    attack.assert_nothing_reached(judge_hidden=False)  # the check's child and the campaign's
