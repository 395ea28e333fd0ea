"""vectors/edges.yaml is what bench/edge_vectors.py writes, and covers every edge it claims."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_file_is_what_the_script_writes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "edge_vectors.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_the_gaps_the_mutation_analysis_found_are_vectors() -> None:
    """docs/mutation.md: no vector put C0 after E0 or F0, 7F after ED or F4, or 7F third."""
    edges = {v.data: v for v in load_vectors() if isinstance(v, DecodeVector) and "edge-" in v.id}
    for hex_bytes in ("E0 C0 80", "F0 C0 80 80", "ED 7F 80", "F4 7F 80 80", "E0 A0 7F"):
        vector = edges[bytes.fromhex(hex_bytes)]
        assert not vector.valid and "catches" in vector.description


def test_every_edge_byte_follows_every_lead_edge_in_every_position() -> None:
    # edges.yaml leaves out the inputs another file holds (bench/edge_vectors.py's ELSEWHERE)
    inputs = {v.data for v in load_vectors() if isinstance(v, DecodeVector) and len(v.data) > 1}
    for lead, length in ((0xC2, 2), (0xDF, 2), (0xE1, 3), (0xEF, 3), (0xF1, 4), (0xF3, 4)):
        for place in range(2, length + 1):
            for edge in (0x7F, 0x80, 0xBF, 0xC0):
                assert any(
                    d[0] == lead and len(d) == length and d[place - 1] == edge for d in inputs
                )
    for lead, limits in (
        (0xE0, (0x9F, 0xA0)),
        (0xED, (0x9F, 0xA0)),
        (0xF0, (0x8F, 0x90)),
        (0xF4, (0x8F, 0x90)),
    ):
        for edge in limits:
            assert any(d[0] == lead and d[1] == edge for d in inputs)


def test_each_end_of_the_surrogates_is_encoded_beside_its_neighbour() -> None:
    """docs/mutation.md: m235 and m236 stretched an encoder's error over U+D7FF or U+E000."""
    pairs = {v.scalars for v in load_vectors() if isinstance(v, EncodeVector) and "edge-" in v.id}
    assert {(0xD800, 0xD7FF), (0xD7FF, 0xD800), (0xDFFF, 0xE000), (0xE000, 0xDFFF)} <= pairs
