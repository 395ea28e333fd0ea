"""One finding per root cause, and a baseline hides only its own.

MergesIntoFffd (tests/support/broken_codecs.py) writes no U+FFFD for an error right after a U+FFFD:
the
kind of that error changes nothing in the bug, so neither `check` nor a kept-going campaign may
split it by kind (they gave 7 behaviours and 7 findings). MergesIntoFffdAndOverlongs
(tests/support/fuzz_codecs.py) adds a second, independent bug (C0 and C1 read as characters): two
root
causes, two findings, and a baseline of either leaves the other to be found. TruncatedTailDropper
drops a cut-short sequence at the end of input wherever it stands, a U+FFFD before it or not: its
key stays the kind.
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from utf8cert.harness.check.baseline import write_baseline
from utf8cert.harness.check.behaviour import LET_THROUGH, Behaviour, behaviour_of, group
from utf8cert.harness.check.difference import Difference
from utf8cert.harness.check.run import run_check
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.fuzzing.differential import DifferentialTarget
from utf8cert.harness.fuzzing.finding import Finding, explanation
from utf8cert.harness.vectors.load import load_vectors

TESTS = Path(__file__).resolve().parents[1]
MERGES = "support.broken_codecs:MergesIntoFffd"
TWO_BUGS = "support.fuzz_codecs:MergesIntoFffdAndOverlongs"
AFTER_FFFD = Behaviour("decode", LET_THROUGH, "after a U+FFFD")
OVERLONG = Behaviour("decode", LET_THROUGH, "overlong")
STEMS = {
    AFTER_FFFD: "replace-dropped-ill-formed-input-silently-after-a-u-fffd",
    OVERLONG: "decode-accepted-ill-formed-input-overlong",
}


def fuzz(tmp_path: Path, spec: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run `utf8cert fuzz SPEC --seed 1 EXTRA`, its artifacts in tmp_path/artifacts."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "utf8cert.harness", "fuzz", spec, "--seed", "1"]
    return subprocess.run(
        [*command, "--artifacts", str(tmp_path / "artifacts"), *extra],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=600,
    )


def stems(tmp_path: Path) -> list[str]:
    return sorted(path.stem for path in (tmp_path / "artifacts").glob("*.yaml"))


@cache
def differences_of(spec: str) -> tuple[str, list[Difference]]:
    """Return the spec as the codec names itself and the differences of a whole in-process
    check of `spec`, made once for every test that reads them (callers do not change them)."""
    codec = load_codec(spec)
    try:
        return codec.spec, run_check(codec, load_vectors()).differences
    finally:
        codec.close()


def must_behaviours(spec: str) -> list[Behaviour]:
    groups = group(differences_of(spec)[1])
    return [each.behaviour for each in groups if each.level == "must"]


@pytest.mark.slow
def test_check_groups_a_merged_u_fffd_as_one_behaviour_whatever_the_kind_after_it() -> None:
    # The vectors hold a literal U+FFFD before an overlong, a cut-short sequence, a lone
    # continuation, a surrogate...: one bug.
    assert must_behaviours(MERGES) == [AFTER_FFFD]


def test_a_kept_going_campaign_finds_the_one_bug_once(tmp_path: Path) -> None:
    done = fuzz(tmp_path, MERGES, "--keep-going", "--runs", "3000")
    assert done.returncode == 1, done.stdout + done.stderr
    assert stems(tmp_path) == [STEMS[AFTER_FFFD]]
    assert "1 finding(s)" in done.stdout


@pytest.mark.slow
def test_a_codec_with_two_bugs_gives_two_findings(tmp_path: Path) -> None:
    assert sorted(must_behaviours(TWO_BUGS)[:2]) == sorted([AFTER_FFFD, OVERLONG])
    done = fuzz(tmp_path, TWO_BUGS, "--keep-going", "--runs", "3000")
    assert done.returncode == 1, done.stdout + done.stderr
    assert stems(tmp_path) == sorted(STEMS.values())


@pytest.mark.parametrize(
    "known",
    [
        pytest.param(AFTER_FFFD, id="merge-known"),
        # The same rule the other way round: a second campaign to its first finding.
        pytest.param(OVERLONG, id="overlong-known", marks=pytest.mark.slow),
    ],
)
def test_a_baseline_of_either_bug_leaves_the_other_found(tmp_path: Path, known: Behaviour) -> None:
    spec, differences = differences_of(TWO_BUGS)  # the check test_a_codec_with_two_bugs reads
    [bug] = [each for each in group(differences) if each.behaviour == known]
    baseline = tmp_path / "baseline.json"
    write_baseline(baseline, spec, bug.differences)  # the known bug's deviations alone
    # No --keep-going, no --runs: the campaign stops at its first finding, the other bug.
    done = fuzz(tmp_path, TWO_BUGS, "--baseline", str(baseline), "--max-time", "300")
    assert done.returncode == 1, done.stdout + done.stderr
    [other] = {AFTER_FFFD, OVERLONG} - {known}
    assert stems(tmp_path) == [STEMS[other]]


def test_a_drop_that_needs_no_u_fffd_before_it_is_keyed_on_its_kind(tmp_path: Path) -> None:
    codec = load_codec("support.broken_codecs:TruncatedTailDropper")
    target = DifferentialTarget(codec, capabilities=["replace"])
    data, [difference] = target.localized(b"\xef\xbf\xbd\xe2\x82")
    # Without the literal U+FFFD, the truncated tail is dropped all the same.
    assert data == b"aaa\xe2\x82"
    assert behaviour_of(difference) == Behaviour("decode", LET_THROUGH, "incomplete")
    merges = DifferentialTarget(load_codec(MERGES))
    data, [difference] = merges.localized(b"\xef\xbf\xbd\xe2\x82")
    assert data == b"\xef\xbf\xbd\xe2\x82" and behaviour_of(difference) == AFTER_FFFD


def test_a_long_input_is_shown_where_the_answers_part_not_at_its_first_error() -> None:
    # A lone continuation at 0 (replaced right), the merged error at 1,000.
    data = b"\x80" + b"a" * 996 + b"\xef\xbf\xbd\xc0" + b"b" * 20
    codec = load_codec(MERGES)
    [difference] = DifferentialTarget(codec).found(data)
    assert difference.marks == ((1000, 1001),)
    shown = explanation(Finding(MERGES, data, difference))
    assert "at offset 1000: … " in shown and "EF BF BD [C0] 62" in shown
