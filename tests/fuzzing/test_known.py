"""Known behaviours: what a baseline makes known to a campaign, and what one finding stands for.

The baselines are written by `utf8cert check` itself on the built-in vectors, as a user makes
them; the kinds are RFC 3629's (ED A0 80 is a surrogate, C0 80 an overlong form of U+0000).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from utf8cert.harness.check.baseline import write_baseline
from utf8cert.harness.check.behaviour import LET_THROUGH, OFFSET, Behaviour, behaviour_of
from utf8cert.harness.check.diagnose import REFUSED_LATE
from utf8cert.harness.check.probe import probe
from utf8cert.harness.check.run import run_check
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.fuzzing.differential import PENDING, DifferentialTarget
from utf8cert.harness.fuzzing.known import known_behaviours
from utf8cert.harness.fuzzing.triage import triage_pending
from utf8cert.harness.vectors.load import load_vectors


def test_a_finding_is_keyed_by_the_check_reports_behaviour_one_bug_one_key() -> None:
    # The grouped report's key (check/behaviour.py): one overlong bug shows on decode, replace,
    # validate and incremental, in the words of each ("accepted ill-formed input", "decoded
    # ill-formed bytes as characters"); it is one behaviour, so one finding.
    [surrogate, *_] = probe(load_codec("codec:utf-8:surrogatepass"), b"ab\xed\xa0\x80")
    assert behaviour_of(surrogate) == Behaviour("decode", LET_THROUGH, "surrogate")
    overlong = probe(load_codec("support.broken_codecs:NaiveBitDecoder"), b"\xc0\x80")
    assert {d.capability for d in overlong} >= {"decode", "replace", "validate"}
    assert {behaviour_of(d) for d in overlong} == {Behaviour("decode", LET_THROUGH, "overlong")}


@pytest.mark.slow
def test_a_baseline_makes_its_behaviours_known_and_no_others(tmp_path: Path) -> None:
    # NaiveBitDecoder accepts surrogates and overlongs alike; its baseline, written on the
    # surrogate vectors only (ids sur-N), knows the first bug and not the second.
    vectors = load_vectors()
    naive = load_codec("support.broken_codecs:NaiveBitDecoder")
    differences = run_check(naive, vectors).differences
    baseline = tmp_path / "baseline.json"
    write_baseline(baseline, naive.spec, [d for d in differences if d.vector.startswith("sur-")])
    known = known_behaviours(baseline, vectors)
    assert Behaviour("decode", LET_THROUGH, "surrogate") in known
    assert not any(behaviour.detail == "overlong" for behaviour in known)

    target = DifferentialTarget(naive, findings=tmp_path, keep_going=True, known=known)
    target(b"ab\xed\xa0\x80")  # known: no finding
    assert not (tmp_path / PENDING).exists()
    target(b"\xc0\x80")  # not known
    assert [path.name for path in (tmp_path / PENDING).iterdir()] == [
        "decode-accepted-ill-formed-input-overlong.bin"
    ]


def test_no_baseline_knows_nothing() -> None:
    assert known_behaviours(None, load_vectors()) == frozenset()


def test_one_kind_of_difference_on_two_kinds_of_input_is_two_findings(tmp_path: Path) -> None:
    # NaiveBitDecoder accepts the overlong C0 AF and the surrogate ED A0 80 (RFC 3629 §3, §10):
    # "accepted ill-formed input" both times, two behaviours, two findings.
    naive = load_codec("support.broken_codecs:NaiveBitDecoder")
    target = DifferentialTarget(naive, findings=tmp_path, keep_going=True)
    target(b"\xc0\xaf")
    target(b"\xed\xa0\x80")
    target(b"x\xc0\x80")  # an overlong again: nothing new
    pending = sorted(path.name for path in (tmp_path / PENDING).iterdir())
    assert pending == [
        "decode-accepted-ill-formed-input-overlong.bin",
        "decode-accepted-ill-formed-input-surrogate.bin",
    ]
    found = list(triage_pending(naive.spec, naive, tmp_path, capabilities=None, fail_on="must"))
    assert sorted(item.vector_file.name for item in found if item.vector_file) == [
        "decode-accepted-ill-formed-input-overlong.yaml",
        "decode-accepted-ill-formed-input-surrogate.yaml",
    ]


def test_a_known_wrong_offset_is_known_wherever_it_points(tmp_path: Path) -> None:
    # A baseline keeps "wrong error offset", not where it pointed (before or inside the
    # ill-formed bytes, behaviour.py's two details, or past them, which the judge now names
    # letting them through: issue 33): all are known, from a baseline written before too.
    vectors = load_vectors()
    codec = load_codec(
        "support.broken_codecs:Cesu8Decoder"
    )  # reads a surrogate pair, refuses later
    differences = [
        d for d in run_check(codec, vectors).differences if d.what in (OFFSET, REFUSED_LATE)
    ]
    assert {d.what for d in differences} == {REFUSED_LATE}
    baseline = tmp_path / "baseline.json"
    written_before = [dataclasses.replace(d, what=OFFSET) for d in differences]
    write_baseline(baseline, codec.spec, written_before)
    known = known_behaviours(baseline, vectors)
    assert {behaviour_of(d) for d in differences} <= known
