"""The vectors hold every window a codec of any construction reads (issue 44): a missing one fails.

docs/mutation.md ("Coverage that assumes no design") gives the argument: a table or SIMD
validator reads adjacent bytes (their values or nibbles) and positions modulo its block, a
decoder reads a lead and the bytes after it, an encoder a scalar value's bit length. Each claim
below is checked over the loaded vectors from their bytes and verdicts alone, with RFC 3629 §4
typed by hand here (Unicode §3.9 Table 3-7), not from utf8cert.reference nor from
bench/window_vectors.py, which wrote vectors/windows.yaml. A validator answers one bit an input,
so the claims about ill-formed windows that a validator must see ask for an input whose only
ill-formed run is that window ("alone").
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Final

from utf8cert.harness.check.schedule import WINDOW, WINDOW_PLAN, schedule
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector

ROOT = Path(__file__).resolve().parents[2]
BLOCK: Final = 64
"""The widest SIMD block (AVX-512); 16- and 32-byte blocks divide it."""
# RFC 3629 §4: the second bytes each lead allows (every other lead: 80..BF).
NARROWED: Final = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}
NO_START: Final = frozenset({*range(0x80, 0xC2), *range(0xF5, 0x100)})
"""Bytes no sequence starts with: continuation bytes, C0, C1, F5..FF."""


def length_of(lead: int) -> int:
    """Return the sequence length a byte begins (0 for one that begins none)."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    return 4 if 0xF0 <= lead <= 0xF4 else 0


def allowed_second(lead: int) -> range:
    """Return the second bytes RFC 3629 §4 allows after a lead C2..F4 (none otherwise)."""
    if length_of(lead) < 2:
        return range(0)
    low, high = NARROWED.get(lead, (0x80, 0xBF))
    return range(low, high + 1)


def characters(data: bytes) -> Iterator[tuple[int, int]]:
    """Yield (offset, length) of each character of well-formed `data`."""
    at = 0
    while at < len(data):
        length = length_of(data[at])
        assert length, f"not well-formed at {at}"
        yield at, length
        at += length


@cache
def vectors() -> tuple[list[DecodeVector], list[EncodeVector]]:
    """Return the built-in decoding and encoding vectors."""
    loaded = list(load_vectors())
    return (
        [v for v in loaded if isinstance(v, DecodeVector)],
        [v for v in loaded if isinstance(v, EncodeVector)],
    )


def well_formed() -> list[bytes]:
    """Return the bytes of every well-formed decoding vector."""
    return [v.data for v in vectors()[0] if v.valid]


def alone() -> list[tuple[bytes, int, int]]:
    """Return (bytes, start, end) of each ill-formed vector whose maximal subparts make one run
    (each starts where the one before ends): its only error."""
    found = []
    for vector in vectors()[0]:
        errors = vector.errors
        if vector.valid or not all(b.offset == a.offset + a.length for a, b in pairwise(errors)):
            continue
        end = errors[-1].offset + errors[-1].length
        found.append((vector.data, errors[0].offset, end))
    return found


def test_every_lead_and_second_byte_and_every_two_byte_value_is_accepted() -> None:
    """Every (lead, second byte) pair RFC 3629 allows, by value, begins a character of some
    well-formed vector: every two-byte scalar value, every three- and four-byte lead with each
    second byte it takes (E4 A0..BF, U+4800..U+4FFF, among them)."""
    seen = {(d[at], d[at + 1]) for d in well_formed() for at, n in characters(d) if n > 1}
    wanted = {(lead, second) for lead in range(0xC2, 0xF5) for second in allowed_second(lead)}
    assert sorted(wanted - seen) == []


def test_every_pair_of_continuation_values_in_every_place() -> None:
    """Every pair of continuation values follows each other in places 2-3 of a three-byte
    character, and in places 2-3 and 3-4 of a four-byte one."""
    seen: dict[tuple[int, int], set[tuple[int, int]]] = {
        (3, 1): set(),
        (4, 1): set(),
        (4, 2): set(),
    }
    for data in well_formed():
        for at, length in characters(data):
            for place in range(1, length - 1):
                seen[(length, place)].add((data[at + place], data[at + place + 1]))
    every = {(a, b) for a in range(0x80, 0xC0) for b in range(0x80, 0xC0)}
    assert {key: len(every - pairs) for key, pairs in seen.items()} == {k: 0 for k in seen}


def test_every_ascii_byte_beside_every_length_and_every_length_beside_every_other() -> None:
    """In well-formed vectors, each ASCII byte comes right before and right after a character
    of each length 2, 3 and 4, and each length right before each length."""
    before: set[tuple[int, int]] = set()
    after: set[tuple[int, int]] = set()
    lengths: set[tuple[int, int]] = set()
    for data in well_formed():
        found = list(characters(data))
        for (at, n), (then, m) in pairwise(found):
            lengths.add((n, m))
            if n == 1 and m > 1:
                before.add((data[at], m))
            if n > 1 and m == 1:
                after.add((data[then], n))
    every = {(byte, n) for byte in range(0x80) for n in (2, 3, 4)}
    assert sorted(every - before) == [] and sorted(every - after) == []
    assert sorted({(n, m) for n in range(1, 5) for m in range(1, 5)} - lengths) == []


def test_every_lead_with_every_second_byte_high_nibble_is_the_only_error_of_an_input() -> None:
    """Each lead C0..FF followed by a byte of each high nibble that the lead does not allow
    starts the only ill-formed run of some vector, with a well-formed byte before it; a
    continuation byte there is followed by the continuations a lead of that high nibble wants
    (FF 90 80 80), so that a table missing the error reads a whole sequence."""
    wants = {0xC: 0, 0xD: 0, 0xE: 1, 0xF: 2}  # continuations after the second, by high nibble
    seen = {
        (data[start], data[start + 1] >> 4)
        for data, start, end in alone()
        if start > 0
        and data[start] >= 0xC0
        and start + 1 < len(data)
        # a continuation second byte: followed by all the continuations the lead's nibble wants
        and (
            not 0x80 <= data[start + 1] <= 0xBF
            or data[start + 2 : start + 2 + wants[data[start] >> 4]]
            == b"\x80" * wants[data[start] >> 4]
        )
    }
    wanted = {
        (lead, nibble)
        for lead in range(0xC0, 0x100)
        for nibble in range(16)
        if not any(second >> 4 == nibble for second in allowed_second(lead))
    }
    assert sorted(wanted - seen) == []


def test_every_byte_ending_a_character_before_an_error_alone_and_by_nibble() -> None:
    """Every byte value that ends a character (00..BF) comes right before a byte no sequence
    starts with: in a vector where that error is the only one, and, in any ill-formed vector,
    before such a byte of each high nibble (8, 9, A, B, C, F) and before every such byte value."""
    isolated = {data[start - 1] for data, start, _ in alone() if start and data[start] in NO_START}
    assert sorted(set(range(0xC0)) - isolated) == []
    # A nibble table reads the byte before by its high nibble and its low nibble: each of them,
    # right before a continuation byte that is the only error (a cell wrong for one nibble).
    tails = [data[start - 1] for data, start, _ in alone() if start and 0x80 <= data[start] < 0xC0]
    assert sorted(set(range(0xC)) - {byte >> 4 for byte in tails}) == []
    assert sorted(set(range(16)) - {byte & 15 for byte in tails}) == []
    nibbles: set[tuple[int, int]] = set()
    values: set[int] = set()
    for vector in vectors()[0]:
        starts = {error.offset for error in vector.errors}
        for at in starts:
            if (
                at
                and vector.data[at] in NO_START
                and at - 1 not in starts
                and vector.data[at - 1] < 0xC0
            ):
                nibbles.add((vector.data[at - 1], vector.data[at] >> 4))
                values.add(vector.data[at])
    every = {(end, nibble) for end in range(0xC0) for nibble in (8, 9, 0xA, 0xB, 0xC, 0xF)}
    assert sorted(every - nibbles) == [] and sorted(NO_START - values) == []


def ascii_around(data: bytes, start: int, end: int) -> tuple[int, int]:
    """Return how many ASCII bytes come right before data[start:end] and right after it."""
    before = len(data[:start]) - len(data[:start].rstrip(bytes(range(0x80))))
    after = len(data[end:]) - len(data[end:].lstrip(bytes(range(0x80))))
    return before, after


def test_both_ends_of_every_flagged_sequence_at_every_offset_mod_64() -> None:
    """Each cut-short sequence of every length (C2; E0 A0; F0 90 80) ends at every offset
    modulo 64 as the only error of an input that ends there, after a whole 64-byte block of
    ASCII; and each of those and a byte of each kind no sequence starts with (80, C0, FF) has
    its first and its last byte at every offset modulo 64 with whole blocks of ASCII before
    and after it."""
    shapes = (b"\xc2", b"\xe0\xa0", b"\xf0\x90\x80", b"\x80", b"\xc0", b"\xff")
    at_end = {
        (data[start:end], (end - 1) % BLOCK)
        for data, start, end in alone()
        if end == len(data) and ascii_around(data, start, end)[0] >= BLOCK
    }
    wanted = {(shape, offset) for shape in shapes[:3] for offset in range(BLOCK)}
    assert sorted(wanted - at_end) == []
    placed: set[tuple[bytes, str, int]] = set()
    for vector in vectors()[0]:
        for error in vector.errors:
            start, end = error.offset, error.offset + error.length
            before, after = ascii_around(vector.data, start, end)
            if before >= BLOCK and after >= BLOCK:
                shape = vector.data[start:end]
                placed |= {(shape, "first", start % BLOCK), (shape, "last", (end - 1) % BLOCK)}
    wanted_placed = {(s, e, o) for s in shapes for e in ("first", "last") for o in range(BLOCK)}
    assert sorted(wanted_placed - placed) == []


def test_a_cut_short_sequence_carried_over_a_block_boundary_is_alone() -> None:
    """Where a cut-short sequence, or a byte no sequence starts with, ends on the last byte of a
    16-byte block (the byte after it is the next block's; the incomplete-tail test reads C2 on
    the last byte, E0 on the second-to-last, F0 on the third-to-last; C0 there is flagged only
    with the byte after it), it is the only error of an input that goes on with a whole 64-byte
    block of ASCII."""
    seen = {
        (data[start:end], (end - 1) % BLOCK)
        for data, start, end in alone()
        if ascii_around(data, start, end)[1] >= BLOCK
    }
    shapes = (b"\xc2", b"\xe0\xa0", b"\xf0\x90\x80", b"\x80", b"\xc0", b"\xff")
    wanted = {(s, o) for s in shapes for o in range(BLOCK) if o % 16 == 15}
    assert sorted(wanted - seen) == []


def test_the_lowest_leads_cut_short_at_a_block_end_are_alone() -> None:
    """E0 A0 and F0 90 80 (the lowest three- and four-byte leads, each with its lowest second
    byte) cut short with their last byte at the end of a 16-byte block are the only error of an
    input that ends there and of one that goes on with a whole 64-byte block of ASCII, at each
    such offset modulo 64: an incomplete-tail test whose threshold is one too high (E1, F1)
    lets exactly these through."""
    shapes = (b"\xe0\xa0", b"\xf0\x90\x80")
    found: set[tuple[bytes, int, str]] = set()
    for data, start, end in alone():
        before, after = ascii_around(data, start, end)
        if data[start:end] in shapes and before >= BLOCK:
            where = "end" if end == len(data) else "block" if after >= BLOCK else "neither"
            found.add((data[start:end], (end - 1) % BLOCK, where))
    wanted = {(s, o, w) for s in shapes for o in range(15, BLOCK, 16) for w in ("end", "block")}
    assert sorted(wanted - found) == []


def test_every_bit_length_beside_every_other_to_encode() -> None:
    """Every scalar bit length 0..21 comes right before every other in an encoding vector that
    must be encoded, and the lengths 0..7 likewise in an all-ASCII one."""
    pairs: set[tuple[int, int]] = set()
    ascii_pairs: set[tuple[int, int]] = set()
    for vector in vectors()[1]:
        if vector.expected is None:
            continue
        lengths = [value.bit_length() for value in vector.scalars]
        adjacent = set(pairwise(lengths))
        pairs |= adjacent
        if max(vector.scalars, default=0) < 0x80:
            ascii_pairs |= adjacent
    assert sorted({(a, b) for a in range(22) for b in range(22)} - pairs) == []
    assert sorted({(a, b) for a in range(8) for b in range(8)} - ascii_pairs) == []


def test_a_window_vector_is_asked_whole_and_as_it_is() -> None:
    """Every vector of vectors/windows.yaml is flagged `window`, and the default schedule asks
    it as it is, whole (no variants, no cuts, no byte-by-byte feed): its own layout."""
    decoding, encoding = vectors()
    everything: list[DecodeVector | EncodeVector] = [*decoding, *encoding]
    windows = [v for v in everything if v.id.startswith("win-")]
    assert windows and all(WINDOW in v.flags for v in windows)
    plans = schedule(everything)
    assert {plans.plan(v) for v in windows} == {WINDOW_PLAN}


def test_windows_yaml_is_what_the_script_writes() -> None:
    """vectors/windows.yaml is what bench/window_vectors.py writes (change the script, never
    the file)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "window_vectors.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
