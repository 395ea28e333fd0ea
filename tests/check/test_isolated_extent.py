"""The error's extent and streaming timeliness are judged in a child process as in utf8cert's
own: `utf8cert check` run as a command, on its default (a Python codec served in a child, its
answers carrying their optional fields: harness/PROTOCOL.md), reports the differences it reports
with `--in-process` (run in the test's process); and a `cmd:` program that sends the fields is
judged on them."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from support import cli_runs
from support.samples import few_of_each_kind, options
from support.shipped_vectors import shipped_vectors

from utf8cert.harness.check.extent import UNPLACED, WRONG_END
from utf8cert.harness.check.timeliness import HELD_CHARACTER, HELD_ERROR

TESTS = Path(__file__).resolve().parents[1]


def chosen() -> tuple[str, ...]:
    """Return the vectors checked: a few of each kind, edge-9 (E0 A0 7F, whose maximal subpart
    is two bytes) and dfa-49 (a two-byte subpart before the first vector holding C0)."""
    return (*few_of_each_kind(), "edge-9", "dfa-49")


@cache
def check(spec: str, *extra: str) -> tuple[int, list[dict[str, Any]]]:
    """Return the exit status of `utf8cert check SPEC --fail-on should --json -` on the chosen
    vectors and the differences it reports, each without its `reproduce` line (which names the
    options); run once for the tests that ask (the same program is read by two)."""
    command = [sys.executable, "-m", "utf8cert.harness", "check", spec, "-q"]
    command += ["--fail-on", "should", "--json", "-", *options(chosen()), *extra]
    done = subprocess.run(
        command, cwd=TESTS, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, without_reproducers(json.loads(done.stdout)["differences"])


def check_in_process(spec: str) -> tuple[int, list[dict[str, Any]]]:
    """Return what `check(SPEC, "--in-process")` returns, from a run of the command in this
    process (support.cli_runs): the codec runs in it either way, without a process to start."""
    extra = ["-q", "--fail-on", "should", "--json", "-", *options(chosen()), "--in-process"]
    done = cli_runs.check(spec, *extra)
    assert done.status in (0, 1), done.err
    return done.status, without_reproducers(done.json()["differences"])


def without_reproducers(differences: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for difference in differences:
        difference.pop("reproduce", None)
    return differences


def _sorted(differences: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(difference, sort_keys=True) for difference in differences)


@pytest.mark.parametrize(
    ("spec", "capability", "level", "what"),
    [
        ("support.broken_codecs:OneByteErrors", "decode", "should", WRONG_END),
        ("support.broken_codecs:RestOfTextEncodeError", "encode", "should", WRONG_END),
        ("support.broken_codecs:LookaheadDecoder", "incremental", "should", HELD_CHARACTER),
        ("support.broken_codecs:LateErrorDecoder", "incremental", "should", HELD_ERROR),
        ("support.broken_codecs:ChrOfAnErrorDecoder", "decode", "may", UNPLACED),
    ],
)
@pytest.mark.slow
def test_a_codec_in_a_child_is_flagged_for_its_extent_and_timeliness_as_in_process(
    spec: str, capability: str, level: str, what: str
) -> None:
    status, isolated = check(spec)
    in_process_status, in_process = check_in_process(spec)
    assert (capability, level, what) in {(d["capability"], d["level"], d["what"]) for d in isolated}
    assert status == in_process_status == (1 if level == "should" else 0)
    assert _sorted(isolated) == _sorted(in_process)


def program(mode: str, *options: str) -> str:
    return " ".join(
        [f"cmd:{sys.executable}", str(TESTS / "support" / "extent_program.py"), mode, *options]
    )


@pytest.mark.slow
def test_a_program_that_sends_a_wrong_error_end_is_judged_on_it() -> None:
    status, differences = check(program("one-byte"))
    assert status == 1
    found = {(d["capability"], d["level"], d["what"]) for d in differences}
    assert found == {("decode", "should", WRONG_END), ("incremental", "should", WRONG_END)}
    # E0 A0 7F: the program says its error is E0 alone, the maximal subpart is E0 A0.
    edge = next(d for d in differences if d["vector"] == "edge-9" and d["variant"] == "as-is")
    assert edge["marks"] == [[0, 2]]


@pytest.mark.slow
def test_a_program_that_says_it_held_a_character_back_is_judged_on_it() -> None:
    status, differences = check(program("held"))
    assert status == 1
    assert {(d["capability"], d["level"], d["what"]) for d in differences} == {
        ("incremental", "should", HELD_CHARACTER)
    }


@pytest.mark.parametrize("mode", ["right", "silent"])
def test_a_program_with_the_right_end_or_none_is_not_flagged(mode: str) -> None:
    assert check(program(mode)) == (0, [])


@pytest.mark.slow
def test_copies_of_a_program_that_crashes_keep_the_fields() -> None:
    """Once it has crashed, the vectors after it are asked by copies (check/ahead.py): their
    answers' ends are judged as the program's own are."""
    _, alone = check(program("one-byte"))
    _, crashing = check(program("one-byte", "exit-on-c0"))
    c0 = {d["vector"] for d in crashing if d["what"] == "crashed"}
    assert c0
    wrong = [d for d in crashing if d["what"] == WRONG_END]
    # On the vectors before the first crash and after it.
    order = [vector.id for vector in shipped_vectors()]  # the order of a check
    first_crash = min(order.index(vector) for vector in c0)
    assert {order.index(d["vector"]) < first_crash for d in wrong} == {True, False}
    assert _sorted(wrong) == _sorted([d for d in alone if d["vector"] not in c0])
