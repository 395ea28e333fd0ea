"""Every peer-suite case whose bytes are also a vector's agrees with that vector.

The peer suites (../shared/peers/, read by tests/support/peers.py) were written by other people from
the same standards; where they and our hand-written vectors test the same bytes, they must say
the same thing. Skipped cleanly when ../shared is absent.
"""

from __future__ import annotations

import codecs
from collections import defaultdict
from typing import Final

import pytest
from support import peers
from support.each_case import each
from support.shipped_vectors import shipped_vectors

from utf8cert.harness.vectors.model import DecodeVector

BY_BYTES: Final[dict[bytes, list[DecodeVector]]] = defaultdict(list)
for _vector in shipped_vectors():
    if isinstance(_vector, DecodeVector):
        BY_BYTES[_vector.data].append(_vector)

READERS: Final = {
    "kuhn": peers.kuhn_cases,
    "unicode": peers.unicode_table_cases,
    "flenniken": peers.flenniken_cases,
    "wakaba": peers.wakaba_cases,
}
# How many cases of each suite test the same bytes as some vector (a floor, so that a change in
# the vectors or the readers cannot quietly turn this cross-check into a no-op).
MATCHED_AT_LEAST: Final = {"kuhn": 78, "unicode": 8, "flenniken": 75, "wakaba": 30}


def matching(case: peers.PeerCase) -> list[DecodeVector]:
    return BY_BYTES.get(case.data, [])


def skipped_text(vector: DecodeVector) -> str:
    """Return the vector's text with every maximal subpart dropped (flenniken's skip column).

    Built from the bytes between the vector's errors, each decoded by CPython's strict codec.
    """
    pieces, position = [], 0
    for error in vector.errors:
        pieces.append(vector.data[position : error.offset].decode("utf-8"))
        position = error.offset + error.length
    pieces.append(vector.data[position:].decode("utf-8"))
    return "".join(pieces)


def without_signature(vector: DecodeVector, text: str) -> str:
    """Return `text` as a decoder that strips one leading EF BB BF (WHATWG decode) gives it."""
    return text[1:] if vector.data.startswith(codecs.BOM_UTF8) else text


def shared_cases() -> list[peers.PeerCase]:
    """Return every peer case that shares its bytes with a vector; skip when a peer file is
    absent."""
    return [case for read in READERS.values() for case in read() if matching(case)]


@pytest.mark.parametrize("suite", sorted(READERS))
def test_the_peer_suites_share_many_inputs_with_the_vectors(suite: str) -> None:
    try:
        cases = READERS[suite]()
    except pytest.skip.Exception:
        pytest.skip("../shared is absent")
    assert sum(1 for case in cases if matching(case)) >= MATCHED_AT_LEAST[suite]


@each(shared_cases, lambda case: case.case_id)
def test_a_peer_case_agrees_with_every_vector_of_the_same_bytes(case: peers.PeerCase) -> None:
    vectors = matching(case)
    if case.bom == "sniffed":
        return  # the peer leaves UTF-8 for the encoding its BOM names: nothing to compare
    for vector in vectors:
        where = f"{case.case_id} ({case.where}) against {vector.id} ({vector.origin})"
        assert case.valid == vector.valid, where
        replaced = vector.replaced
        if case.bom == "stripped":
            replaced = without_signature(vector, replaced)
        if case.replaced is not None:
            assert case.replaced == replaced, where
        if case.maximal_subparts is not None:
            assert case.maximal_subparts == tuple((e.offset, e.length) for e in vector.errors)
        if case.fffd_count is not None:
            assert case.fffd_count == vector.replaced.count("\ufffd"), where
        if case.first_error is not None:
            first = vector.errors[0]
            assert case.first_error == (first.offset, None if first.incomplete else first.length)
        if case.skipped is not None:
            assert case.skipped == skipped_text(vector), where
