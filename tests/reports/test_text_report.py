"""The terminal report: root causes first on one screen (snapshots of two codecs, reviewed by
eye), every difference with --verbose, the verdict alone with --quiet, never hard-wrapped when
not a terminal, colour as --color and NO_COLOR say."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_runs import check, check_once
from support.samples import few_of_each_kind, options

from utf8cert.harness.codec.sandbox import BUBBLEWRAP, boundary

HERE = Path(__file__).parent
REPOSITORY = HERE.parents[1]
SNAPSHOTS = HERE / "snapshots"
TESTS = HERE.parent
ESCAPE = "\x1b["


def normalized(text: str) -> str:
    """Return a report with the checkout's location left out of the vector files' paths, and
    the boundary this machine gives a child named as on a machine with bubblewrap (the boundary
    itself: tests/sandbox/)."""
    text = text.replace(f"boundary: {boundary()}\n", f"boundary: {BUBBLEWRAP}\n")
    return text.replace(f"{REPOSITORY}{os.sep}", "")


@pytest.mark.parametrize(
    ("spec", "snapshot"),
    [
        ("codec:utf-8:surrogatepass", "surrogatepass.txt"),
        # A second whole check: slow (surrogatepass's run is shared with the tests below).
        pytest.param(
            "support.broken_codecs:NaiveBitDecoder",
            "naive-bit-decoder.txt",
            marks=pytest.mark.slow,
        ),
    ],
)
@pytest.mark.slow
def test_the_default_report_matches_its_reviewed_snapshot(spec: str, snapshot: str) -> None:
    # To review a change: UTF8CERT_SNAPSHOTS=write, then read the diff of snapshots/.
    text = normalized(check_once(spec).out)
    path = SNAPSHOTS / snapshot
    if os.environ.get("UTF8CERT_SNAPSHOTS") == "write":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
    # One screen, about 60 lines, for up to three behaviours; NaiveBitDecoder shows four, its
    # reading of a value above U+10FFFF by its bits seen in the seeded pass's inputs (each
    # behaviour about 11 lines; each named by the bytes it wrote a character for, parting.py).
    assert len(text.splitlines()) <= 90


def test_surrogatepass_is_one_screen_with_its_flag_note_once() -> None:
    text = check_once("codec:utf-8:surrogatepass").out
    assert len(text.splitlines()) <= 60
    assert text.count("surrogate: Encodes, or asks to encode") == 1
    assert "NOT conformant to RFC 3629: 2 behaviours on " in text
    # The simplest example of the decoding behaviour comes first: a lone surrogate, as is.
    assert "sur-1 [decode, as-is] must: accepted ill-formed input" in text
    # A whole check asks what the vectors do not enumerate (check/sweep.py): every scalar
    # value, 273 pieces to decode, replace and encode (this codec has no validator); then the
    # seeded pass's 256 inputs to decode, replace, incremental and encode (check/seeded.py).
    assert "  sweep (every scalar, every ill-formed byte pair alone): asked (819 questions)" in text
    assert "  seeded pass: 256 inputs, seed 3629, asked (1,024 questions)" in text


@pytest.mark.slow
def test_verbose_explains_every_difference() -> None:
    default = check_once("codec:utf-8:surrogatepass")
    verbose = check("codec:utf-8:surrogatepass", "-v")
    assert verbose.status == default.status == 1
    assert "sec-10 [decode, as-is] must: accepted ill-formed input" in verbose.out
    assert "sec-10 [decode, as-is]" not in default.out
    assert len(verbose.out.splitlines()) > 10 * len(default.out.splitlines())


@pytest.mark.slow
def test_quiet_prints_the_verdict_line_only() -> None:
    # On a few vectors of each kind: the verdict line is the same function of any report.
    spec = ("codec:utf-8:surrogatepass", *options(few_of_each_kind()))
    run = check(*spec, "--quiet")
    assert run.status == 1
    assert run.out.splitlines() == [
        check_once(*spec, "--json", "-", "-q").json()["summary"]["verdict"]
    ]


def run_installed(*arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """Return a run of `python -m utf8cert.harness check ...` with its output in a pipe."""
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "COLUMNS")}
    env |= {"PYTHONPATH": str(TESTS), **environment}
    command = [sys.executable, "-m", "utf8cert.harness", "check", *arguments]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.slow
def test_a_pipe_is_never_hard_wrapped_and_every_reproducer_is_one_line() -> None:
    # A spec long enough that a reproducer runs well past 80 columns.
    spec = "support.broken_codecs:NaiveBitDecoder"
    result = run_installed(spec, "--vector", "ovl-1", "--vector", "sec-4", "--timeout", "7")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    reproducers = [line for line in lines if line.lstrip().startswith("reproduce:")]
    assert reproducers and max(len(line) for line in lines) > 100
    for line in reproducers:
        assert re.search(r" --timeout 7 (--input [0-9a-f]+|--vector [\w-]+)$", line)
    assert ESCAPE not in result.stdout


def colour_run(monkeypatch: pytest.MonkeyPatch, *arguments: str, **environment: str) -> str:
    """Return the terminal report of `utf8cert check ARGUMENTS` run in process (standard output
    not a terminal, as a pipe) with only `environment` of the colour variables set."""
    for name in ("NO_COLOR", "FORCE_COLOR", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return check(*arguments).out


@pytest.mark.slow
def test_colour_follows_the_color_option_and_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = ("codec:utf-8:surrogatepass", "--vector", "sur-1")
    assert ESCAPE not in run_installed(*spec).stdout  # auto: a real pipe gets no colour
    # The rest in process: the options and variables are read the same way, at a process less.
    assert ESCAPE in colour_run(monkeypatch, *spec, "--color", "always")
    assert ESCAPE in colour_run(monkeypatch, *spec, "--color", "always", NO_COLOR="1")
    forced = colour_run(monkeypatch, *spec, FORCE_COLOR="1", NO_COLOR="1")
    assert ESCAPE + "31" not in forced and ESCAPE + "1;31" not in forced
    assert ESCAPE not in colour_run(monkeypatch, *spec, "--color", "never", FORCE_COLOR="1")
