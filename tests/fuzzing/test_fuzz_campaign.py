"""Proof of `utf8cert fuzz`: short deterministic campaigns (-seed, -runs) find each planted bug.

Each broken codec of tests/fuzz_codecs.py hides its bug where the vectors alone do not look
(alignment, input length, block boundaries, chunking, the encoder); the campaign must stop with
a finding whose vector file loads, fails the broken codec and passes CPython's, and a conformant
codec must give none. Campaigns run as `python -m utf8cert.harness fuzz` in a child process.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.check.run import capabilities_for, check_vector
from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.vectors.load import load_vectors

TESTS = Path(__file__).resolve().parents[1]
TIMEOUT = 300  # generous: a loaded 2-core machine; a campaign usually takes a few seconds


def utf8cert(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the utf8cert command with tests/ importable (for the fuzz_codecs specs)."""
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "utf8cert.harness", *arguments],
        cwd=cwd,
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def fuzz(tmp_path: Path, spec: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return utf8cert(
        "fuzz",
        spec,
        "--artifacts",
        str(tmp_path / "artifacts"),
        "--seed",
        "1",
        *extra,
        cwd=tmp_path,
    )


PLANTED = [
    ("AlignedAsciiFastPath", "decode-"),
    ("LongInputValidator", "decode-accepted-ill-formed-input"),
    ("BlockBufferedDecoder", "decode-rejected-well-formed-input"),
    ("ForgetfulIncremental", "incremental-rejected-well-formed-input"),
    ("SurrogateWritingEncoder", "encode-encoded-a-surrogate"),
]


@pytest.mark.parametrize(("name", "kind"), PLANTED)
def test_a_short_campaign_finds_the_planted_bug_and_writes_a_vector_that_catches_it(
    tmp_path: Path, name: str, kind: str
) -> None:
    spec = f"fuzz_codecs:{name}"
    done = fuzz(tmp_path, spec, "--runs", "30000")
    assert done.returncode == 1, done.stdout + done.stderr
    [vector_file] = (tmp_path / "artifacts").glob("*.yaml")
    assert vector_file.stem.startswith(kind)
    assert "1 finding(s)" in done.stdout and str(vector_file) in done.stdout

    [vector] = list(load_vectors([vector_file], builtin=False))
    broken, cpython = load_codec(spec), load_codec("codec:utf-8")
    assert check_vector(broken, vector, capabilities_for(vector, broken.capabilities))
    assert not check_vector(cpython, vector, capabilities_for(vector, cpython.capabilities))

    # The one-line reproducer fails the broken codec and passes CPython's (for an encoding
    # finding it is `utf8cert check SPEC --vectors FILE`: all vectors, the finding's among them).
    reproducer = vector_file.with_suffix(".txt").read_text().splitlines()[-1]
    assert reproducer.startswith("reproduce: utf8cert check ")
    arguments = shlex.split(reproducer.removeprefix("reproduce: utf8cert "))
    assert utf8cert(*arguments, cwd=tmp_path).returncode == 1
    arguments[1] = "codec:utf-8"
    assert utf8cert(*arguments, cwd=tmp_path).returncode == 0

    data = vector_file.with_suffix(".bin").read_bytes()
    if name == "LongInputValidator":
        assert len(data) >= 64  # the bug is only on long inputs: the minimizer kept it so
    if name == "BlockBufferedDecoder":
        assert len(data) > 4096


def test_a_conformant_codec_gives_no_finding(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "fuzz_codecs:Conformant", "--runs", "1000")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 finding(s)" in done.stdout
    assert not list((tmp_path / "artifacts").glob("*.yaml"))


def test_keep_going_collects_each_kind_of_difference_once(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "codec:utf-8:surrogatepass", "--runs", "2000", "--keep-going")
    assert done.returncode == 1, done.stdout + done.stderr
    kinds = {path.stem for path in (tmp_path / "artifacts").glob("*.yaml")}
    # surrogatepass reads ED A0 80 as U+D800 and writes it back: decoding, chunked decoding and
    # encoding each differ from RFC 3629 §3.
    assert {"decode-accepted-ill-formed-input", "encode-encoded-a-surrogate"} <= kinds
    assert any(kind.startswith("incremental-") for kind in kinds)
    assert f"{len(kinds)} finding(s)" in done.stdout
    load_vectors(sorted((tmp_path / "artifacts").glob("*.yaml")), builtin=False)


def test_capability_limits_the_campaign(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "codec:utf-8:surrogatepass", "--runs", "200", "--capability", "replace")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_codec_that_kills_the_process_is_a_crash_finding(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "fuzz_codecs:NullPointerOnOverlong", "--runs", "2000")
    assert done.returncode == 1, done.stdout + done.stderr
    assert (tmp_path / "artifacts" / "decode-crashed.yaml").is_file()
    assert (tmp_path / "artifacts" / "decode-crashed.bin").read_bytes() == b"\xc0"


@pytest.mark.slow
def test_a_codec_that_hangs_is_a_timeout_finding(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "fuzz_codecs:SignatureLoop", "--runs", "2000", "--timeout", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    assert (tmp_path / "artifacts" / "decode-timed-out.yaml").is_file()


def test_fork_mode_runs_workers_from_the_executable_target_script(tmp_path: Path) -> None:
    done = fuzz(tmp_path, "fuzz_codecs:ForgetfulIncremental", "--jobs", "2", "--max-time", "120")
    assert done.returncode == 1, done.stdout + done.stderr
    log = (tmp_path / "artifacts" / "libfuzzer.log").read_text()
    assert "-fork=2" in log and "exit 126" not in log
    assert (tmp_path / "artifacts" / "incremental-rejected-well-formed-input.yaml").is_file()
    script = tmp_path / "artifacts" / "utf8cert_fuzzer.py"
    assert os.access(script, os.X_OK)
    assert script.read_text().startswith(f"#!{sys.executable}\n")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["nosuchmodule:thing"], "cannot import module 'nosuchmodule'"),
        (["codec:utf-8", "--", "runs=5"], "is not a libFuzzer flag"),
        (["fuzz_codecs:AlignedAsciiFastPath", "--capability", "encode"], "offers none of"),
        (["codec:utf-8", "--runs", "0"], "--runs must be at least 1"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    done = utf8cert("fuzz", *arguments, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
