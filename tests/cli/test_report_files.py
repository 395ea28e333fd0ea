"""Reports are written safely: a symbolic link at a report's path is never followed, nothing but
a regular file is written (a FIFO does not block, a device is refused), a file that cannot be
written whole leaves no half of it (the old one stays), and one report that fails stops neither
the verdict nor the other reports (exit 2 names it). Real links, FIFOs, /dev/full, and a real
file-size limit (RLIMIT_FSIZE, the kernel's EFBIG) stand for a full disk."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support.cli_runs import check

from utf8cert.harness.cli.outputs import OutputFailure, open_log, write_report

UTF8CERT = [sys.executable, "-m", "utf8cert.harness"]
SURROGATEPASS = "codec:utf-8:surrogatepass"
VERDICT = "NOT conformant to RFC 3629"
OPTIONS = ["--json", "--markdown", "--junit-xml", "--html", "--write-baseline"]


def utf8cert(
    *arguments: str, cwd: Path, preexec_fn: Callable[[], None]
) -> subprocess.CompletedProcess[str]:
    """Return the finished `utf8cert ARGUMENTS`, run as a program in `cwd`."""
    return subprocess.run(
        [*UTF8CERT, *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=preexec_fn,
    )


@pytest.mark.parametrize("option", OPTIONS)
def test_a_report_path_that_is_a_symbolic_link_is_refused_and_its_target_kept(
    option: str, tmp_path: Path
) -> None:
    victim = tmp_path / "passwd"
    victim.write_text("root:x:0:0\n")
    link = tmp_path / "report"
    link.symlink_to(victim)
    run = check(SURROGATEPASS, option, str(link))
    assert run.status == 2 and run.out == ""
    assert run.err == (
        f"utf8cert: error: {option} {link}: is a symbolic link (not followed: remove it or "
        "name another path)\n"
    )
    assert victim.read_text() == "root:x:0:0\n" and link.is_symlink()


def test_a_link_planted_after_the_check_is_replaced_not_followed(tmp_path: Path) -> None:
    # The rename replaces whatever is at the path itself: a link made between the check before
    # the run and the writing after it is not followed either.
    victim = tmp_path / "passwd"
    victim.write_text("root:x:0:0\n")
    link = tmp_path / "report.json"
    link.symlink_to(victim)
    with pytest.raises(OutputFailure, match="is a symbolic link"):
        write_report(link, "{}\n")
    link.unlink()
    write_report(link, "{}\n")
    assert victim.read_text() == "root:x:0:0\n" and link.read_text() == "{}\n"


@pytest.mark.parametrize("option", ["--json", "--html"])
def test_a_fifo_or_a_device_is_refused_before_the_run_without_blocking(
    option: str, tmp_path: Path
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/full"):
        run = check(SURROGATEPASS, option, path)
        assert run.status == 2 and run.out == ""
        assert run.err == f"utf8cert: error: {option} {path}: is not a regular file\n"


def no_bigger_than_256_kib() -> None:
    """In the child: files may grow to 256 KiB (the HTML report fits, the JSON does not); past
    that a write fails with EFBIG (as on a full disk) instead of the signal that would kill the
    process."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (256 * 1024, 256 * 1024))


@pytest.mark.slow
def test_a_report_too_big_for_the_disk_leaves_no_half_and_stops_no_other(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text("the old report\n")
    done = utf8cert(
        "check",
        SURROGATEPASS,
        "-q",
        "--json",
        "r.json",
        "--markdown",
        "m.md",
        "--html",
        "h.html",
        cwd=tmp_path,
        preexec_fn=no_bigger_than_256_kib,
    )
    assert done.returncode == 2
    assert done.stdout.startswith(VERDICT)
    assert done.stderr == "utf8cert: error: could not write --json r.json: File too large\n"
    # The old report was replaced before the codec ran: what stays is the INCOMPLETE one.
    left = json.loads((tmp_path / "r.json").read_text())
    assert left["complete"] is False and left["summary"]["passed"] is False
    assert left["stopped"].startswith("the run did not finish")
    assert (tmp_path / "m.md").read_text().startswith("#")
    assert "<html" in (tmp_path / "h.html").read_text()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["h.html", "m.md", "r.json"]


def test_a_report_is_written_with_the_permissions_a_new_file_gets(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_report(path, "{}\n")
    mask = os.umask(0o022)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask
    path.chmod(0o640)
    write_report(path, "{}\n")
    assert path.stat().st_mode & 0o777 == 0o640


def test_the_fuzzers_log_is_no_symlink_followed_nor_a_fifo_blocked_on(tmp_path: Path) -> None:
    victim = tmp_path / "passwd"
    victim.write_text("root:x:0:0\n")
    link = tmp_path / "libfuzzer.log"
    link.symlink_to(victim)
    with pytest.raises(OutputFailure, match="is a symbolic link"):
        open_log(link)
    assert victim.read_text() == "root:x:0:0\n"
    link.unlink()
    os.mkfifo(link)
    with pytest.raises(OutputFailure, match="is not a regular file"):
        open_log(link)
    link.unlink()
    link.write_text("an old campaign\n")
    with open_log(link) as log:
        log.write("a new one\n")
    assert link.read_text() == "a new one\n"


@pytest.mark.slow
def test_with_standard_output_closed_the_verdict_goes_to_standard_error(tmp_path: Path) -> None:
    done = subprocess.run(
        ["sh", "-c", '"$@" >&-', "sh", *UTF8CERT, "check", "-q", "--json", "r.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stderr.startswith("conformant to RFC 3629")
    assert json.loads((tmp_path / "r.json").read_text())["complete"] is True
    done = subprocess.run(
        ["sh", "-c", '"$@" >&-', "sh", *UTF8CERT, "check", "--json", "-"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == "utf8cert: error: --json -: standard output is closed\n"
