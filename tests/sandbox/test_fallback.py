"""Where no OS sandbox can be made (here: bwrap taken off PATH, as on a machine without it), the
codec runs behind the process boundary as before and every report says so; `--require-sandbox`
(the plugin's `--utf8-require-sandbox`) makes that a one-line usage error. The judge is
non-dumpable whatever the sandbox, as the kernel itself reports (prctl PR_GET_DUMPABLE)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.codec import sandbox

TIMEOUT = 600
NO_BWRAP = str(Path(sys.executable).parent)
"""A PATH with the interpreter and utf8cert's command and no bwrap."""


def utf8cert(
    *arguments: str, path: str = NO_BWRAP, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path}
    argv = [sys.executable, "-m", "utf8cert.harness", *arguments]
    return subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)


def test_without_bwrap_every_report_says_the_boundary_is_the_process_only(tmp_path: Path) -> None:
    markdown = tmp_path / "certificate.md"
    done = utf8cert("check", "codec:utf-8", "--json", "-", "--markdown", str(markdown))
    assert done.returncode == 0, done.stderr
    boundary = json.loads(done.stdout)["boundary"]
    assert boundary.startswith(f"{sandbox.PROCESS_ONLY} (no OS sandbox: bwrap not found on PATH")
    assert f"| Boundary | {boundary} |" in markdown.read_text(encoding="utf-8")
    text = utf8cert("check", "codec:utf-8")
    assert f"boundary: {boundary}\n" in text.stdout


def test_require_sandbox_without_bwrap_is_a_one_line_error() -> None:
    done = utf8cert("check", "codec:utf-8", "--require-sandbox")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "utf8cert: error: no OS sandbox here, and one is required: bwrap not found on PATH "
        "(Debian: apt-get install bubblewrap)\n"
    )


@pytest.mark.skipif(sandbox.unavailable() is not None, reason="no OS sandbox here")
def test_require_sandbox_refuses_a_codec_run_in_process() -> None:
    path = os.environ["PATH"]  # with bwrap: the codec itself is what no sandbox holds
    done = utf8cert("check", "codec:utf-8", "--require-sandbox", "--in-process", path=path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--in-process" in done.stderr


def test_a_writable_path_that_does_not_exist_is_a_one_line_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    done = utf8cert("check", "codec:utf-8", "--sandbox-writable", str(missing))
    assert done.returncode == 2
    assert (
        done.stderr == f"utf8cert: error: --sandbox-writable {missing}: no such file or directory\n"
    )


def test_the_plugin_requires_a_sandbox_when_told(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": NO_BWRAP}
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly"]
    argv += ["--utf8-codec", "codec:utf-8", "--utf8-isolate", "--utf8-require-sandbox"]
    done = subprocess.run(
        argv, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert "utf8cert: no OS sandbox here, and one is required: bwrap not found" in done.stderr


def test_without_bwrap_a_child_is_started_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", NO_BWRAP)
    assert sandbox.wrap(["true"], os.environ) is None
    assert sandbox.boundary().startswith(sandbox.PROCESS_ONLY)


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
