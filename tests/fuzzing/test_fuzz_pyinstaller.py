"""The ClusterFuzzLite / OSS-Fuzz build for real: PyInstaller packages a generated fuzz target as
the base image's `compile_python_fuzzer` does, and the packaged fuzzer runs as the services run
it, with the shipped options, dictionary and seed zip (there is no Docker engine here: the build
script runs on this machine with a stand-in for the image's `pip3` and that one script).

The target is the one a user gets from `utf8cert corpus target SPEC`, for a codec that drops a
character cut by a 4096-byte page: with libFuzzer's default max_len (4096) and the vectors' seeds
alone a service run found nothing in 60 s (issue 22).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from support.packaged_fuzzers import (
    image_stand_ins,
    require_pyinstaller,
    run_as_shipped,
    run_packaged,
    utf8cert_wheel,
)

from utf8cert.harness.check.baseline import write_baseline
from utf8cert.harness.check.behaviour import LET_THROUGH, Behaviour, group
from utf8cert.harness.check.run import run_check
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
BUILD = ROOT / ".clusterfuzzlite" / "build.sh"


def build(tmp_path: Path, targets: Sequence[Sequence[str]]) -> tuple[Path, Path]:
    """Run build.sh as the image runs it on the targets `utf8cert corpus target ARGS…` writes
    (each ARGS: the spec, then options); return ($OUT, $SRC)."""
    require_pyinstaller()
    bin_dir, src, out, work = (tmp_path / name for name in ("bin", "src", "out", "work"))
    for directory in (src / "utf8cert", out, work):
        directory.mkdir(parents=True)
    # What the image's `pip3 install .` does: utf8cert installed for real (PyInstaller cannot
    # follow an editable install's import hook), with its vectors as package data.
    site = tmp_path / "site"
    wheel = utf8cert_wheel(tmp_path)
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), wheel],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    environment = dict(
        os.environ,
        SRC=str(src),
        OUT=str(out),
        WORK=str(work),
        PYTHON=sys.executable,
        # utf8cert as installed, and the user's codec module (tests/), as if pip-installed too.
        PYTHONPATH=os.pathsep.join([str(site), str(TESTS)]),
        PATH=os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), os.environ["PATH"]]),
    )
    for arguments in targets:
        generated = subprocess.run(
            [sys.executable, "-m", "utf8cert.harness", "corpus", "target", *arguments],
            cwd=src / "utf8cert",
            env=environment,
            capture_output=True,
            text=True,
        )
        assert generated.returncode == 0, generated.stderr
    image_stand_ins(bin_dir, pip3="#!/bin/sh\n")  # installed above
    built = subprocess.run(
        ["bash", str(BUILD)], env=environment, capture_output=True, text=True, timeout=1800
    )
    assert built.returncode == 0, built.stderr[-3000:]
    return out, src


@pytest.mark.slow
def test_the_packaged_target_finds_a_4096_page_bug_with_the_shipped_options(
    tmp_path: Path,
) -> None:
    out, _ = build(tmp_path, [["support.broken_codecs:Page4096Decoder"]])
    done = run_as_shipped(
        out, "support_broken_codecs_fuzzer", tmp_path, "-max_total_time=60", "-seed=1"
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0, output[-3000:]
    assert "CodecDiffers_decode_wrong_text: decode: wrong text" in output, output[-3000:]
    # The service's crash file: a character cut by the 4096-byte page, dropped by the codec.
    (crash,) = tmp_path.glob("crash-*")
    data = crash.read_bytes()
    assert len(data) > 4096 and 0x80 <= data[4096] <= 0xBF


TWO_BUGS = "support.fuzz_codecs:MergesIntoFffdAndOverlongs"
MERGED = b"\xef\xbf\xbd\xc0"  # a literal U+FFFD, then C0 alone: its U+FFFD merged into it
OVERLONG = b"\xc0\x80"  # read as U+0000
KINDS = {
    MERGED: "decode_let_ill_formed_input_through_after_a_u_fffd",
    OVERLONG: "decode_let_ill_formed_input_through_overlong",
}


@pytest.mark.slow
def test_packaged_targets_crash_once_per_behaviour_and_never_on_a_baselined_one(
    tmp_path: Path,
) -> None:
    # A baseline that knows the overlong bug (its deviations alone, as a project commits it).
    codec = load_codec(TWO_BUGS)
    try:
        differences = run_check(codec, load_vectors()).differences
    finally:
        codec.close()
    overlong = Behaviour("decode", LET_THROUGH, "overlong")
    [bug] = [each for each in group(differences) if each.behaviour == overlong]
    baseline = tmp_path / "baseline.json"
    write_baseline(baseline, codec.spec, bug.differences)
    known_target = [TWO_BUGS, "--name", "known_fuzzer", "--baseline", str(baseline)]
    out, src = build(tmp_path, [[TWO_BUGS, "--name", "all_fuzzer"], known_target])
    inputs = {}
    for data in KINDS:
        inputs[data] = tmp_path / f"input-{data.hex()}"
        inputs[data].write_bytes(data)
    # Two behaviours: two exception types, raised from two functions (the top frame).
    for data, kind in KINDS.items():
        done = run_packaged(out / "all_fuzzer", str(inputs[data]), cwd=tmp_path)
        output = done.stdout + done.stderr
        assert done.returncode != 0, output[-3000:]
        assert f"CodecDiffers_{kind}:" in output, output[-3000:]
        frames = re.findall(r'File "[^"]*", line \d+, in (\w+)', output)
        assert frames[-1] == f"differs_{kind}", output[-3000:]
        assert "experimental" not in output  # atheris' loader warning: the codec is instrumented
    # The baselined deviation does not crash; the new one does.
    known = run_packaged(out / "known_fuzzer", str(inputs[OVERLONG]), cwd=tmp_path)
    assert known.returncode == 0, (known.stdout + known.stderr)[-3000:]
    new = run_packaged(out / "known_fuzzer", str(inputs[MERGED]), cwd=tmp_path)
    assert new.returncode != 0 and f"CodecDiffers_{KINDS[MERGED]}:" in new.stdout + new.stderr
    # A slim package: what the target imports, not the pytest plugin, Hypothesis or rich.
    for name in ("all_fuzzer", "known_fuzzer"):
        work = src / "pyfuzzworkdir" / name / f"{name}.pkg"
        bundled = (work / "PYZ-00.toc").read_text()
        for module in ("pytest", "_pytest", "hypothesis", "rich"):
            assert f"'{module}'" not in bundled and f"'{module}." not in bundled, module
        assert "'utf8cert.harness.fuzzing.target'" in bundled
        # The Python modules, compressed (3.3 MB measured; the rest of the package is
        # libpython and atheris' native libraries: bench/README.md, "## fuzz: packaged").
        assert (work / "PYZ-00.pyz").stat().st_size < 5_000_000
