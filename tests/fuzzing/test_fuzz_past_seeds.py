"""Bugs no seed shows, found by mutation alone (issue 22): Page4096Decoder's dropped character at
block sizes no fixed boundary reaches (1000, 8192, 30000 bytes), and a two-byte fast path that
lets overlongs through after a run of like characters. The campaigns are counted in runs with a
fixed seed, so each is the same campaign every time (no clock in the assertion)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from utf8cert.harness.codec.spec import load_codec
from utf8cert.harness.fuzzing.campaign import DEFAULT_MAX_LEN
from utf8cert.harness.fuzzing.corpus import named_seeds, straddling_seeds
from utf8cert.harness.fuzzing.differential import DifferentialTarget
from utf8cert.harness.vectors.load import load_vectors

TESTS = Path(__file__).resolve().parents[1]
PLANTED = [
    ("Page1000Decoder", 1000),
    ("Page8192Decoder", 8192),
    ("Page30000Decoder", 30000),
    ("TwoByteRunDecoder", 16),
]
"""Each planted codec of tests/support/fuzz_codecs.py with its block (TwoByteRunDecoder: its run of
eight
two-byte characters)."""


@pytest.mark.parametrize(("name", "block"), PLANTED)
@pytest.mark.slow
def test_no_seed_shows_the_bug_and_an_input_past_the_block_does(name: str, block: int) -> None:
    target = DifferentialTarget(load_codec(f"support.fuzz_codecs:{name}"))
    seeds = [*named_seeds(load_vectors()).values(), *straddling_seeds(DEFAULT_MAX_LEN).values()]
    assert not [data for data in seeds if target.differences(data)]
    if name == "TwoByteRunDecoder":
        shown = "\u0431".encode() * 8 + b"\xc0\x80"  # eight CYRILLIC SMALL LETTER BE, then C0 80
    else:
        shown = b"a" * (block - 1) + "€".encode()  # U+20AC cut by the block boundary
    assert target.differences(shown)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "block"), PLANTED)
def test_a_campaign_finds_it_by_mutation_and_minimizes_it_to_about_the_block(
    tmp_path: Path, name: str, block: int
) -> None:
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    artifacts = tmp_path / "artifacts"
    command = [sys.executable, "-m", "utf8cert.harness", "fuzz", f"support.fuzz_codecs:{name}"]
    done = subprocess.run(
        [*command, "--artifacts", str(artifacts), "--seed", "1", "--runs", "400000"],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    findings = list(artifacts.glob("*.bin"))
    assert findings
    assert all(len(finding.read_bytes()) <= 2 * block + 8 for finding in findings)
