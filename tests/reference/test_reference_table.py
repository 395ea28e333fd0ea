"""The RFC 3629 §4 table of the reference against a hand transcription and the RFC's own ABNF.

Expected values come from the RFC text (typed by hand here, and parsed from the final draft of
RFC 3629 in ../shared/seeds when it is there), never from the reference itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from utf8cert.reference.table import NOT_A_LEAD, ROW_OF_BYTE, ROWS, TAIL, Row

SEED_WITH_ABNF = (
    Path(__file__).resolve().parents[2].parent / "shared/seeds/001_4102db89321f74c9.txt"
)

# RFC 3629 §4, transcribed by hand for this test: (rule, lead bytes, second byte, bytes after lead).
HAND_TRANSCRIPTION = [
    ("UTF8-1", (0x00, 0x7F), None, 0),
    ("UTF8-2", (0xC2, 0xDF), (0x80, 0xBF), 1),
    ("UTF8-3", (0xE0, 0xE0), (0xA0, 0xBF), 2),
    ("UTF8-3", (0xE1, 0xEC), (0x80, 0xBF), 2),
    ("UTF8-3", (0xED, 0xED), (0x80, 0x9F), 2),
    ("UTF8-3", (0xEE, 0xEF), (0x80, 0xBF), 2),
    ("UTF8-4", (0xF0, 0xF0), (0x90, 0xBF), 3),
    ("UTF8-4", (0xF1, 0xF3), (0x80, 0xBF), 3),
    ("UTF8-4", (0xF4, 0xF4), (0x80, 0x8F), 3),
]
Alternative = tuple[str, tuple[int, int], tuple[int, int] | None, int]


def table_rows() -> list[Alternative]:
    """Return the reference's table in the form of HAND_TRANSCRIPTION."""

    def edges(byte_range: range) -> tuple[int, int] | None:
        return (byte_range[0], byte_range[-1]) if byte_range else None

    return [
        (row.rule.split(" =")[0], (row.lead[0], row.lead[-1]), edges(row.second), row.tails)
        for row in ROWS
    ]


def test_the_table_matches_a_hand_transcription_of_rfc_3629_section_4() -> None:
    assert table_rows() == HAND_TRANSCRIPTION
    assert (TAIL[0], TAIL[-1]) == (0x80, 0xBF)
    # Every byte value either starts exactly one row or is listed with why it cannot.
    assert len(ROW_OF_BYTE) == 256
    leads = {byte for row in ROWS for byte in row.lead}
    not_leads = {byte for byte_range, _ in NOT_A_LEAD for byte in byte_range}
    assert leads.isdisjoint(not_leads) and leads | not_leads == set(range(256))
    assert all(isinstance(ROW_OF_BYTE[byte], Row) is (byte in leads) for byte in range(256))


def parse_abnf(text: str) -> list[Alternative]:
    """Return the alternatives of UTF8-1..UTF8-4 in RFC 3629 §4's ABNF as HAND_TRANSCRIPTION."""
    rules: dict[str, str] = {}
    name = ""
    for line in text.splitlines():
        found = re.match(r"\s+(UTF8-[\w-]+)\s+=\s+(.*)$", line)
        if found:
            name, rules[found[1]] = found[1], found[2]
        elif name and re.match(r"\s{10,}%x", line):  # a continuation line of the rule above
            rules[name] += " " + line.strip()
        else:
            name = ""
    tail = re.fullmatch(r"%x([0-9A-F]{2})-([0-9A-F]{2})", rules["UTF8-tail"])
    assert tail is not None, rules["UTF8-tail"]
    tail_range = (int(tail[1], 16), int(tail[2], 16))
    element = re.compile(r"%x([0-9A-F]{2})(?:-([0-9A-F]{2}))?|(?:(\d)\(\s*)?UTF8-tail")
    alternatives: list[Alternative] = []
    for rule in ("UTF8-1", "UTF8-2", "UTF8-3", "UTF8-4"):
        for alternative in rules[rule].split("/"):
            elements: list[tuple[int, int]] = []
            for first, last, repeat in element.findall(alternative):
                if first:  # %xHH or %xHH-HH
                    elements.append((int(first, 16), int(last or first, 16)))
                else:  # UTF8-tail or n( UTF8-tail )
                    elements += [tail_range] * int(repeat or 1)
            second = elements[1] if len(elements) > 1 else None
            alternatives.append((rule, elements[0], second, len(elements) - 1))
    return alternatives


def test_the_table_matches_the_abnf_of_the_rfc_3629_draft_in_shared_seeds() -> None:
    if not SEED_WITH_ABNF.is_file():
        pytest.skip("../shared/seeds is absent (a fresh clone): the seed ABNF is not available")
    text = SEED_WITH_ABNF.read_text(encoding="utf-8", errors="replace")
    assert parse_abnf(text) == table_rows()
    # Each row's comment is an alternative of the ABNF, spelled as in the RFC.
    spelled = re.sub(r"\s+", " ", text)
    for row in ROWS:
        alternative = row.rule.split(" = ")[1]
        assert alternative in spelled, row.rule
