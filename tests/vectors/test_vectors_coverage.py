"""The vectors together exercise every row, range end and transition of the RFC 3629 §4 grammar.

Coverage is computed from the vectors' bytes alone, by a walk over a grammar typed here from the
ABNF (not from reference/table.py, and not from what the vectors claim about themselves). The
reference's table serves only as the checklist: each of its rows and not-a-lead ranges, and
each end of each range, must be met by the walk.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Set
from dataclasses import dataclass
from typing import Final

import pytest
from support.shipped_vectors import shipped_vectors

from utf8cert.harness.vectors.model import DecodeVector, EncodeVector
from utf8cert.reference.table import NOT_A_LEAD, ROW_OF_BYTE, ROWS, TAIL, Row

VECTORS = shipped_vectors()
INPUTS: Final = [v.data for v in VECTORS if isinstance(v, DecodeVector)]


@dataclass(frozen=True)
class Alternative:
    """One alternative of the §4 ABNF, as typed below."""

    name: str
    leads: range
    second: range
    tails: int


def _r(first: int, last: int) -> range:
    return range(first, last + 1)


# RFC 3629 §4, typed from the ABNF:
#   UTF8-1 = %x00-7F                  UTF8-2 = %xC2-DF UTF8-tail
#   UTF8-3 = %xE0 %xA0-BF UTF8-tail / %xE1-EC 2( UTF8-tail ) /
#            %xED %x80-9F UTF8-tail / %xEE-EF 2( UTF8-tail )
#   UTF8-4 = %xF0 %x90-BF 2( UTF8-tail ) / %xF1-F3 3( UTF8-tail ) /
#            %xF4 %x80-8F 2( UTF8-tail )
#   UTF8-tail = %x80-BF
GRAMMAR: Final = (
    Alternative("UTF8-1", _r(0x00, 0x7F), range(0), 0),
    Alternative("UTF8-2", _r(0xC2, 0xDF), _r(0x80, 0xBF), 1),
    Alternative("UTF8-3/E0", _r(0xE0, 0xE0), _r(0xA0, 0xBF), 2),
    Alternative("UTF8-3/E1-EC", _r(0xE1, 0xEC), _r(0x80, 0xBF), 2),
    Alternative("UTF8-3/ED", _r(0xED, 0xED), _r(0x80, 0x9F), 2),
    Alternative("UTF8-3/EE-EF", _r(0xEE, 0xEF), _r(0x80, 0xBF), 2),
    Alternative("UTF8-4/F0", _r(0xF0, 0xF0), _r(0x90, 0xBF), 3),
    Alternative("UTF8-4/F1-F3", _r(0xF1, 0xF3), _r(0x80, 0xBF), 3),
    Alternative("UTF8-4/F4", _r(0xF4, 0xF4), _r(0x80, 0x8F), 3),
)
UTF8_TAIL: Final = _r(0x80, 0xBF)
# The bytes no alternative starts with, by why (RFC 3629 §1: "C0, C1, F5 to FF never appear").
NON_LEADS: Final = {
    "tail": _r(0x80, 0xBF),
    "C0-C1": _r(0xC0, 0xC1),
    "F5-F7": _r(0xF5, 0xF7),
    "F8-FD": _r(0xF8, 0xFD),
    "FE-FF": _r(0xFE, 0xFF),
}


def alternative_of(byte: int) -> Alternative | None:
    return next((alt for alt in GRAMMAR if byte in alt.leads), None)


def start_class(byte: int) -> str:
    """Return the name of the alternative `byte` starts, or of its not-a-lead range."""
    alternative = alternative_of(byte)
    if alternative is not None:
        return alternative.name
    return next(name for name, bytes_ in NON_LEADS.items() if byte in bytes_)


def follower_class(byte: int | None, allowed: range | None) -> str:
    """Return how a byte after a lead (or a tail) relates to what the grammar allows there."""
    if byte is None:
        return "end"
    if allowed is not None and byte in allowed:
        return "in-range"
    if byte in UTF8_TAIL:
        if allowed is None:
            return "tail"
        return "tail-below" if byte < allowed.start else "tail-above"
    if byte < 0x80:
        return "ascii"
    return "lead" if alternative_of(byte) is not None else "never-lead"


@dataclass
class Coverage:
    """What the walk met: each set holds tuples naming a grammar event."""

    starts: set[tuple[str, int]]  # (class, byte) at a place where a character must start
    after: set[tuple[str, str]]  # (what came before, class of the next start or "end")
    steps: set[tuple[str, int, str]]  # (alternative, position 1.., class of the byte there)
    step_bytes: set[tuple[str, int, int]]  # (alternative, position, byte) for allowed bytes
    complete: set[tuple[str, int]]  # (alternative, lead byte) of each complete character
    values: set[int]  # the value of each complete character, by RFC 3629 §3 bit arithmetic


def walk(data: bytes, seen: Coverage) -> None:
    """Walk `data` by the grammar above, adding every event met to `seen`."""
    position, before = 0, "begin"
    while True:
        if position == len(data):
            seen.after.add((before, "end"))
            return
        lead = data[position]
        seen.starts.add((start_class(lead), lead))
        seen.after.add((before, _kind_of_start(lead)))
        alternative = alternative_of(lead)
        if alternative is None:
            position, before = position + 1, "error"
            continue
        value = lead if alternative.tails == 0 else lead & (0x3F >> alternative.tails)
        for step in range(1, alternative.tails + 1):
            at = position + step
            byte = data[at] if at < len(data) else None
            allowed = alternative.second if step == 1 else UTF8_TAIL
            kind = follower_class(byte, allowed)
            seen.steps.add((alternative.name, step, kind))
            if kind != "in-range" or byte is None:
                # the lead alone is the error when the second byte is a tail outside its range
                position = position + 1 if kind.startswith("tail-") else at
                before = "error"
                break
            seen.step_bytes.add((alternative.name, step, byte))
            value = value << 6 | byte & 0x3F
        else:
            seen.complete.add((alternative.name, lead))
            seen.values.add(value)
            position += alternative.tails + 1
            before = f"char{alternative.tails + 1}"


def _kind_of_start(byte: int) -> str:
    alternative = alternative_of(byte)
    if alternative is not None:
        return f"lead{alternative.tails + 1}"
    return "continuation" if byte in UTF8_TAIL else "never-lead"


def covered() -> Coverage:
    seen = Coverage(set(), set(), set(), set(), set(), set())
    for data in INPUTS:
        walk(data, seen)
    return seen


SEEN: Final = covered()


def missing(wanted: Iterable[Hashable], have: Set[Hashable]) -> list[Hashable]:
    """Return the items of `wanted` that are not in `have`, in order."""
    return [item for item in wanted if item not in have]


def test_the_grammar_typed_here_is_the_references_table() -> None:
    """The checklist (table.py) and the walk (typed here) describe the same bytes."""
    for byte in range(256):
        row = ROW_OF_BYTE[byte]
        alternative = alternative_of(byte)
        if isinstance(row, Row):
            assert alternative is not None
            assert (alternative.second, alternative.tails) == (row.second, row.tails), hex(byte)
        else:
            assert alternative is None, hex(byte)
    assert range(TAIL.start, TAIL.stop) == UTF8_TAIL


def test_every_lead_range_is_met_at_both_ends() -> None:
    ranges = [row.lead for row in ROWS] + [byte_range for byte_range, _ in NOT_A_LEAD]
    wanted = [(r[0], r[-1]) for r in ranges]
    starts = {byte for _, byte in SEEN.starts}
    assert [pair for pair in wanted if not set(pair) <= starts] == []


def test_every_row_completes_a_character_from_both_ends_of_its_lead_range() -> None:
    wanted = [(alt.name, lead) for alt in GRAMMAR for lead in (alt.leads[0], alt.leads[-1])]
    assert missing(wanted, SEEN.complete) == []


def test_every_second_byte_range_is_met_at_both_ends_and_just_outside() -> None:
    wanted: list[object] = []
    for row, alternative in zip(ROWS[1:], GRAMMAR[1:], strict=True):
        name = alternative.name
        wanted += [(name, 1, row.second[0]), (name, 1, row.second[-1])]
        for step in range(2, row.tails + 1):  # every later tail at both ends of UTF8-tail
            wanted += [(name, step, TAIL[0]), (name, step, TAIL[-1])]
    assert missing(wanted, SEEN.step_bytes) == []
    outside = [
        (byte, name)
        for row, name in ((r, a.name) for r, a in zip(ROWS[1:], GRAMMAR[1:], strict=True))
        for byte in _just_outside(row.second)
    ]
    met = {(byte, name) for data in INPUTS for byte, name in _second_bytes(data)}
    assert [pair for pair in outside if pair not in met] == []


def _just_outside(second: range) -> list[int]:
    """Return the UTF8-tail bytes at the ends of what is excluded from a narrowed range."""
    ends = []
    if second[0] > TAIL[0]:  # e.g. E0: 80 and 9F are excluded
        ends += [TAIL[0], second[0] - 1]
    if second[-1] < TAIL[-1]:  # e.g. ED: A0 and BF are excluded
        ends += [second[-1] + 1, TAIL[-1]]
    return ends


def _second_bytes(data: bytes) -> Iterator[tuple[int, str]]:
    """Yield (byte after a lead, the lead's alternative) wherever the walk reads a lead."""
    position = 0
    while position < len(data):
        alternative = alternative_of(data[position])
        if alternative is not None and alternative.tails and position + 1 < len(data):
            yield data[position + 1], alternative.name
        position += 1


def test_every_transition_of_the_grammar_is_taken() -> None:
    starts = {(cls, "start") for cls, _ in SEEN.starts}
    wanted_starts = [(alt.name, "start") for alt in GRAMMAR] + [(n, "start") for n in NON_LEADS]
    assert missing(wanted_starts, starts) == []
    wanted: list[object] = []
    for alternative in GRAMMAR[1:]:
        narrowed = len(alternative.second) < len(UTF8_TAIL)
        first = ["in-range", "ascii", "lead", "never-lead", "end"]
        if narrowed and alternative.second.start > UTF8_TAIL.start:
            first.append("tail-below")
        if narrowed and alternative.second.stop < UTF8_TAIL.stop:
            first.append("tail-above")
        wanted += [(alternative.name, 1, kind) for kind in first]
        for step in range(2, alternative.tails + 1):
            later = ["in-range", "ascii", "lead", "never-lead", "end"]
            wanted += [(alternative.name, step, kind) for kind in later]
    assert missing(wanted, SEEN.steps) == []


@pytest.mark.parametrize("before", ["begin", "char1", "char2", "char3", "char4", "error"])
def test_every_kind_of_start_follows_every_kind_of_end(before: str) -> None:
    """Between characters: after the start, each length of character and an error, the
    vectors put each length of lead, a stray tail, a never-lead byte, and the end of input."""
    nexts = ["lead1", "lead2", "lead3", "lead4", "continuation", "never-lead", "end"]
    if before == "begin":
        nexts.remove("end")  # the empty input, checked on its own below
    assert [n for n in nexts if (before, n) not in SEEN.after] == []


def test_the_empty_input_is_a_vector() -> None:
    assert b"" in INPUTS


BOUNDARY_SCALARS: Final = (
    *(0x0000, 0x007F, 0x0080, 0x07FF, 0x0800, 0xD7FF, 0xE000, 0xFFFD),
    *(0xFFFE, 0xFFFF, 0x10000, 0x10FFFF, 0xFDD0, 0xFDEF, 0x1FFFE, 0x1FFFF),
)


def test_the_boundary_scalars_are_decoded_from_some_vector() -> None:
    assert [hex(v) for v in BOUNDARY_SCALARS if v not in SEEN.values] == []


def test_the_encoding_vectors_offer_every_boundary_and_every_refusal() -> None:
    offered = {value for v in VECTORS if isinstance(v, EncodeVector) for value in v.scalars}
    wanted = [*BOUNDARY_SCALARS, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x110000, 0x7FFFFFFF]
    wanted += [0x80000000, 0xFFFFFFFF]
    assert [hex(v) for v in wanted if v not in offered] == []
