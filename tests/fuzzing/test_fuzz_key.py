"""One root cause, one finding: a finding is keyed by what the codec did wrong on the sequence it
got wrong (check/behaviour.py's behaviour, taken on the input localized by culprit.py and again
on the minimized input), so a bug seen through any input is the same finding, a baselined one is
none, and a baseline of another codec is refused as `check` refuses it.

TwoByteOverlongs (tests/support/fuzz_codecs.py) reads C0 80 as U+0000 and refuses every other
ill-formed
byte: on F5 C0 80 the first ill-formed sequence (F5, out of range) is one it gets right. SQLite
(adapter:sqlite, the real library) reads most ill-formed bytes as characters, each kind its own
way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.samples import few_of_each_kind, options

from utf8cert.harness.check.baseline import write_baseline
from utf8cert.harness.check.behaviour import LET_THROUGH, Behaviour, behaviour_of
from utf8cert.harness.check.probe import probe
from utf8cert.harness.check.run import run_check
from utf8cert.harness.fuzzing.culprit import KIND_DETAILS, kind_detail, units
from utf8cert.harness.fuzzing.differential import PENDING, DifferentialTarget, pending_stem
from utf8cert.harness.fuzzing.known import known_behaviours
from utf8cert.harness.fuzzing.triage import triage_pending
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.world.spec import load_codec

TESTS = Path(__file__).resolve().parents[1]
OVERLONGS = "support.fuzz_codecs:TwoByteOverlongs"


def utf8cert(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the utf8cert command with tests/ importable (for the fuzz_codecs specs)."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", *arguments],
        cwd=cwd,
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=300,
    )


def fuzz(tmp_path: Path, spec: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run a campaign with seed 1, its artifacts under `tmp_path`."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    artifacts = str(tmp_path / "artifacts")
    return utf8cert("fuzz", spec, "--artifacts", artifacts, "--seed", "1", *extra, cwd=tmp_path)


OVERLONG = Behaviour("decode", LET_THROUGH, "overlong")


def test_a_bug_seen_behind_another_ill_formed_sequence_is_keyed_on_the_one_it_got_wrong(
    tmp_path: Path,
) -> None:
    codec = load_codec(OVERLONGS)
    raw = probe(codec, b"\xf5\xc0\x80")
    # Named by the run its answer is marked at (C0 80, decoded), not the input's first error.
    assert {behaviour_of(d).detail for d in raw} == {"overlong"}
    target = DifferentialTarget(codec, findings=tmp_path, keep_going=True)
    data, differences = target.localized(b"\xf5\xc0\x80")
    assert data == b"a\xc0\x80"  # F5 overwritten, offsets kept
    assert {behaviour_of(d) for d in differences} == {OVERLONG}
    target(b"\xf5\xc0\x80")
    target(b"\xc0\x80")  # the same bug through its own input: nothing new
    target(b"\xff\xfe\xc1\xbf\x80")
    [saved] = (tmp_path / PENDING).iterdir()
    assert saved.name == "decode-accepted-ill-formed-input-overlong.bin"
    assert saved.read_bytes() == b"a\xc0\x80"


def test_a_baselined_bug_is_no_finding_through_whatever_input_shows_it(tmp_path: Path) -> None:
    codec = load_codec(OVERLONGS)
    vectors = load_vectors()
    baseline = tmp_path / "baseline.json"
    write_baseline(baseline, codec.spec, run_check(codec, vectors).differences)
    known = known_behaviours(baseline, vectors, spec=codec.spec)
    assert known >= {OVERLONG}
    target = DifferentialTarget(codec, findings=tmp_path, keep_going=True, known=known)
    for data in (b"\xf5\xc0\x80", b"\xf7\xc0\x80", b"\xe0\x80\xc1\xbf", b"\x80\xc0\xaf"):
        target(data)
        assert target.differences(data) == []
    assert not (tmp_path / PENDING).exists()


def test_pending_inputs_of_one_behaviour_are_one_finding(tmp_path: Path) -> None:
    # As an earlier campaign saved them: one input named after its first sequence (F5, out of
    # range), one after the overlong it shows; minimized, both are the overlong bug.
    pending = tmp_path / PENDING
    pending.mkdir()
    (pending / "decode-accepted-ill-formed-input-out-of-range.bin").write_bytes(b"x\xf5\xc0\x80y")
    (pending / "decode-accepted-ill-formed-input-overlong.bin").write_bytes(b"\xc1\xbf")
    codec = load_codec(OVERLONGS)
    done = list(triage_pending(codec.spec, codec, tmp_path, capabilities=None, fail_on="must"))
    [found] = [item for item in done if item.finding is not None]
    assert found.finding is not None and behaviour_of(found.finding.difference) == OVERLONG
    assert found.finding.data in (b"\xc0\x80", b"\xc1\xbf")
    assert sorted(path.name for path in tmp_path.glob("*.yaml")) == [
        "decode-accepted-ill-formed-input-overlong.yaml"
    ]
    assert not list(pending.glob("*.bin"))


@pytest.mark.slow
def test_a_campaign_goes_on_past_a_baselined_bug(tmp_path: Path) -> None:
    # Before: the campaign stopped in its seed pass on F7 C0 80 (read as out of range).
    baseline = tmp_path / "baseline.json"
    # A few vectors of each kind hold its one bug (C0 and C1 read as characters): were any
    # behaviour missing from the baseline, the campaign would find it and this test fail.
    few = options(few_of_each_kind())
    checked = utf8cert("check", OVERLONGS, *few, "--write-baseline", str(baseline), cwd=tmp_path)
    assert baseline.is_file(), checked.stdout + checked.stderr
    done = fuzz(tmp_path, OVERLONGS, "--runs", "4000", "--baseline", str(baseline))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("4,000 executions") and "0 finding(s)" in done.stdout


@pytest.mark.slow
def test_each_sqlite_finding_is_its_own_behaviour_shown_by_its_own_input(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "adapter:sqlite", "--runs", "6000", "--keep-going")
    assert done.returncode == 1, done.stdout + done.stderr
    sqlite = load_codec("adapter:sqlite")
    seen: dict[Behaviour, bytes] = {}
    for vector_file in sorted((tmp_path / "artifacts").glob("*.yaml")):
        data = vector_file.with_suffix(".bin").read_bytes()
        named = [d for d in probe(sqlite, data) if pending_stem(d) == vector_file.stem]
        assert named, (vector_file.name, data.hex())  # its input shows what its name says
        behaviour = behaviour_of(named[0])
        assert behaviour not in seen, f"{behaviour} saved twice: {seen[behaviour].hex()}"
        seen[behaviour] = data
        if behaviour.detail in KIND_DETAILS:  # no unit of another kind to name it
            assert {kind_detail(kind) for _, _, kind in units(data)} == {behaviour.detail}
    assert len(seen) >= 3
    assert f"{len(seen)} finding(s)" in done.stdout


@pytest.mark.parametrize("recorded", ["codec:utf-8:surrogatepass", None])
@pytest.mark.slow
def test_a_baseline_of_another_codec_or_of_none_is_refused_as_check_refuses_it(
    tmp_path: Path, recorded: str | None
) -> None:
    baseline = tmp_path / "baseline.json"
    document: dict[str, Any] = {
        "utf8cert-baseline": 2,
        "codec": recorded,
        "profile": None,
        "deviations": [],
    }
    baseline.write_text(json.dumps(document))
    refused = fuzz(tmp_path, OVERLONGS, "--runs", "10", "--baseline", str(baseline))
    assert refused.returncode == 2, refused.stdout + refused.stderr
    [line] = refused.stderr.strip().splitlines()
    assert "--baseline-any-codec" in line and str(baseline) in line
    checked = utf8cert("check", OVERLONGS, "--baseline", str(baseline), cwd=tmp_path)
    assert checked.returncode == 2 and line.split(": error: ")[-1] in checked.stderr
    used = fuzz(
        tmp_path / "any", OVERLONGS, "--runs", "10", "--baseline", str(baseline),
        "--baseline-any-codec",
    )  # fmt: skip
    assert used.returncode in (0, 1) and "Traceback" not in used.stderr
