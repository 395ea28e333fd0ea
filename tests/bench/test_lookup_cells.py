"""A lookup-table validator with any one table cell wrong is refused by the vectors (issue 44).

bench/mutation/lookup.py validates as Keiser and Lemire (2021) do: three 16-entry nibble tables
ANDed into error bits, and the incomplete-tail thresholds. Each cell is changed here, one at a
time, in each of the ways a slip makes (±1, as bench/mutants.py does, and each of its 8 bits
flipped). A change is a defect when it changes the verdict the tables give for some (previous
byte, current byte, continuation due) triple — every triple occurs in some input ("E1 p c" has
a continuation due at c, "41 41 p c" none) — or, for a threshold, when it moves it; the
validator is then judged as the check's own validate questions judge it: on each vector as it
is, its answer against the vector's `valid` (a verdict written by hand, checked against CPython
by tests/vectors). Every defective cell must meet a vector that it answers wrongly.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest

from bench.mutation import lookup
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector

TABLES = ("BYTE_1_HIGH", "BYTE_1_LOW", "BYTE_2_HIGH")


def verdicts(tables: dict[str, tuple[int, ...]]) -> tuple[bool, ...]:
    """Return whether the tables flag each (previous, current, due) triple, in a fixed order."""
    high1, low1, high2 = (tables[name] for name in TABLES)
    return tuple(
        bool((high1[p >> 4] & low1[p & 15] & high2[c >> 4]) ^ due)
        for p in range(256)
        for c in range(256)
        for due in (0, lookup.TWO_CONTS)
    )


def cell_changes() -> Iterator[tuple[str, int, int]]:
    """Yield (table, index, new value) for each change of one cell: ±1 and each bit flipped."""
    for name in (*TABLES, "INCOMPLETE"):
        for index, value in enumerate(getattr(lookup, name)):
            changed = {value + 1, value - 1, *(value ^ (1 << bit) for bit in range(8))}
            for new in sorted(changed - {value}):
                yield name, index, new


@cache
def inputs() -> tuple[tuple[bytes, bool], ...]:
    """Return (bytes, well-formed?) of every built-in decoding vector, shortest first (a wrong
    cell shows soonest on a one-window input)."""
    decoding = [v for v in load_vectors() if isinstance(v, DecodeVector)]
    return tuple(sorted(((v.data, v.valid) for v in decoding), key=lambda p: len(p[0])))


@cache
def parent_verdicts() -> tuple[bool, ...]:
    return verdicts({name: getattr(lookup, name) for name in TABLES})


def test_the_parent_validator_agrees_with_every_vector() -> None:
    assert [data.hex() for data, valid in inputs() if lookup.well_formed(data) is not valid] == []


@pytest.mark.slow
def test_every_defective_table_cell_is_refused_by_a_vector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each defective one-cell change of the three tables and the thresholds meets a vector it
    answers wrongly. Equivalent ones are left out: those that move no triple's verdict, and
    those no vector catches that agree with CPython on a million short inputs at each place in
    a block (TOO_SHORT dropped after E or F: the byte after next is then refused as a
    continuation due, so the error is found one byte later)."""
    survivors, defective = [], 0
    for name, index, new in cell_changes():
        table = list(getattr(lookup, name))
        table[index] = new
        if name in TABLES:
            tables = {other: getattr(lookup, other) for other in TABLES} | {name: tuple(table)}
            if verdicts(tables) == parent_verdicts():
                continue  # equivalent: no (previous, current, due) triple is judged otherwise
        with monkeypatch.context() as patch:
            patch.setattr(lookup, name, tuple(table))
            if all(lookup.well_formed(data) is valid for data, valid in inputs()):
                if differs_from_cpython():
                    survivors.append(f"{name}[{index}] = {new:#04x}")
                continue  # equivalent: the check after the next byte finds what it misses
        defective += 1
    assert defective > 100
    assert survivors == []


def differs_from_cpython() -> bool:
    """Return whether lookup's validator (as patched) differs from CPython's codec on an input
    of every two bytes followed by nothing, 41, 80, or 80 80, after 13 to 16 ASCII bytes (each
    place of the window against the 16-byte block's end)."""
    for before in range(13, 17):
        for first in range(256):
            for second in range(256):
                for after in (b"", b"A", b"\x80", b"\x80\x80"):
                    data = b"A" * before + bytes([first, second]) + after
                    try:
                        data.decode("utf-8")
                        valid = True
                    except UnicodeDecodeError:
                        valid = False
                    if lookup.well_formed(data) is not valid:
                        return True
    return False
