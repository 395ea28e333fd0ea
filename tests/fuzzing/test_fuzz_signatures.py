"""A ClusterFuzzLite / OSS-Fuzz target raises each behaviour as its own crash: its own exception
type, from its own function (the services group Python crashes by type and top frames), the same
in every run; and a target written with a baseline crashes on a new behaviour only.

The codec: tests/support/fuzz_codecs.py MergesIntoFffdAndOverlongs, two bugs (a U+FFFD merged into a
literal one before it; C0 80 read as U+0000).
"""

from __future__ import annotations

import os
import subprocess
import sys
import traceback
from pathlib import Path

import pytest
from support.samples import few_of_each_kind

from utf8cert.harness.check.baseline import write_baseline
from utf8cert.harness.check.behaviour import LET_THROUGH, Behaviour, group
from utf8cert.harness.check.run import only_these, run_check
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.fuzzing.differential import DifferentialTarget
from utf8cert.harness.fuzzing.signatures import CodecDiffers
from utf8cert.harness.vectors.load import load_vectors

TESTS = Path(__file__).resolve().parents[1]
TWO_BUGS = "support.fuzz_codecs:MergesIntoFffdAndOverlongs"
MERGED = b"\xef\xbf\xbd\xc0"  # the literal U+FFFD, then C0 with no tail: its U+FFFD merged
OVERLONG = b"\xc0\x80"  # read as U+0000
CORPUS_TARGET = (sys.executable, "-m", "utf8cert.harness", "corpus", "target", TWO_BUGS)


def raised(data: bytes) -> tuple[type[BaseException], str]:
    """Return the exception type the target raises on `data` and the name of the innermost
    frame it was raised from."""
    target = DifferentialTarget(load_codec(TWO_BUGS))
    with pytest.raises(CodecDiffers) as caught:
        target(data)
    return caught.type, traceback.extract_tb(caught.tb)[-1].name


def test_two_behaviours_are_two_types_raised_from_two_functions() -> None:
    merged, overlong = raised(MERGED), raised(OVERLONG)
    assert merged[0].__name__ == "CodecDiffers_decode_let_ill_formed_input_through_after_a_u_fffd"
    assert overlong[0].__name__ == "CodecDiffers_decode_let_ill_formed_input_through_overlong"
    assert merged[1] == "differs_decode_let_ill_formed_input_through_after_a_u_fffd"
    assert overlong[1] == "differs_decode_let_ill_formed_input_through_overlong"
    # The same behaviour through another input: the same type and frame.
    assert raised(b"a" + MERGED) == merged
    assert raised(b"\xc1\xbf") == overlong


def target_run(script: Path, data: bytes, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run a written target on one input file, as libFuzzer replays a crash."""
    path = tmp_path / f"input-{data.hex()}"
    path.write_bytes(data)
    environment = dict(os.environ, PYTHONPATH=str(TESTS))
    return subprocess.run(
        [sys.executable, str(script), str(path)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_a_target_written_with_a_baseline_crashes_on_a_new_behaviour_only(
    tmp_path: Path,
) -> None:
    codec = load_codec(TWO_BUGS)
    try:
        # A few vectors of each kind show the overlong bug: its behaviour is the baseline's key.
        vectors = only_these(load_vectors(), few_of_each_kind())
        differences = run_check(codec, vectors).differences
    finally:
        codec.close()
    known = Behaviour("decode", LET_THROUGH, "overlong")
    [bug] = [each for each in group(differences) if each.behaviour == known]
    baseline = tmp_path / "baseline.json"
    write_baseline(baseline, codec.spec, bug.differences)
    written = subprocess.run(
        [*CORPUS_TARGET, "--baseline", str(baseline), "--out", str(tmp_path)],
        env=dict(os.environ, PYTHONPATH=str(TESTS)),
        capture_output=True,
        text=True,
    )
    assert written.returncode == 0, written.stderr
    script = Path(written.stdout.strip())
    assert "--baseline" in script.read_text()
    known_run = target_run(script, OVERLONG, tmp_path)
    assert known_run.returncode == 0, known_run.stdout + known_run.stderr
    new_run = target_run(script, MERGED, tmp_path)
    assert new_run.returncode != 0
    assert "CodecDiffers_decode_let_ill_formed_input_through_after_a_u_fffd" in new_run.stdout


def test_a_baseline_of_another_codec_is_refused_by_corpus_target(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    write_baseline(baseline, "codec:utf-8:surrogatepass", [])
    done = subprocess.run(
        [*CORPUS_TARGET, "--baseline", str(baseline), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "--baseline-any-codec" in done.stderr and not list(tmp_path.glob("*.py"))
