"""The reference agrees with every case of the peer suites in ../shared/peers/ (skipped if absent).

Kuhn's stress test (80 cases, judged by maximal subparts), the Unicode §3.9 tables, the
manakai/wakaba decoder cases and flenniken's cases (its skip and replace columns). Each test
checks every case of its suite as one item (each_case.py).
"""

from __future__ import annotations

import pytest
from support.each_case import each
from support.peers import (
    PeerCase,
    flenniken_cases,
    kuhn_cases,
    unicode_table_cases,
    wakaba_cases,
)

from utf8cert.reference import (
    REPLACEMENT_CHARACTER,
    DecodeError,
    IncrementalDecoder,
    decode,
    decode_replace,
    encode,
    errors,
    strip_signature,
    validate,
)


def by_case_id(case: PeerCase) -> str:
    """Return the peer's name for the case, which names it in a failure."""
    return case.case_id


def subparts_of(data: bytes) -> tuple[tuple[int, int], ...]:
    """Return (offset, length) of every maximal subpart the reference finds in `data`."""
    return tuple((error.offset, error.length) for error in errors(data))


def skipping(data: bytes) -> str:
    """Return the reference's text of `data` with every maximal subpart dropped."""
    kept, position = [], 0
    for error in errors(data):
        kept.append(decode(data[position : error.offset]))
        position = error.offset + error.length
    kept.append(decode(data[position:]))
    return "".join(kept)


def check_verdict_and_text(case: PeerCase, data: bytes) -> None:
    """Assert validate/decode/decode_replace on `data` match what the peer says of it."""
    assert validate(data) is case.valid, case.where
    if case.valid:
        assert errors(data) == [], case.where
        text = decode(data)
        assert decode_replace(data) == text, case.where
        if case.replaced is not None:
            assert text == case.replaced, case.where
    else:
        with pytest.raises(DecodeError):
            decode(data)
    if case.replaced is not None:
        assert decode_replace(data) == case.replaced, case.where


def test_the_peer_suites_hold_the_documented_number_of_cases() -> None:
    assert len(kuhn_cases()) == 80
    assert len(unicode_table_cases()) == 8  # Tables 3-8..3-12, PRI #121 and two D93b examples
    assert len(flenniken_cases()) == 222
    assert len(wakaba_cases()) == 173


@each(kuhn_cases, by_case_id)
def test_kuhn_case_is_judged_by_its_maximal_subparts(case: PeerCase) -> None:
    check_verdict_and_text(case, case.data)
    assert subparts_of(case.data) == case.maximal_subparts
    # The file counts every U+FFFD of the output, including one encoded in the input (2.3.3).
    assert decode_replace(case.data).count(REPLACEMENT_CHARACTER) == case.fffd_count
    if case.first_error is None:
        return
    valid_up_to, error_len = case.first_error
    with pytest.raises(DecodeError) as raised:
        decode(case.data)
    assert raised.value.offset == valid_up_to
    # Rust's error_len is None exactly when more input could complete the sequence.
    assert raised.value.incomplete is (error_len is None)
    if error_len is not None:
        assert raised.value.length == error_len


@each(unicode_table_cases, by_case_id)
def test_unicode_table_example_gets_one_replacement_per_maximal_subpart(case: PeerCase) -> None:
    check_verdict_and_text(case, case.data)
    assert subparts_of(case.data) == case.maximal_subparts
    assert decode_replace(case.data).count(REPLACEMENT_CHARACTER) == case.fffd_count


@each(flenniken_cases, by_case_id)
def test_flenniken_case_agrees_in_both_its_skip_and_replace_columns(case: PeerCase) -> None:
    check_verdict_and_text(case, case.data)
    if case.skipped is not None:
        # 'skip' drops each maximal subpart: a U+FFFD that the input itself encodes stays.
        assert skipping(case.data) == case.skipped


@each(wakaba_cases, by_case_id)
def test_wakaba_case_decodes_alike_in_one_piece_and_in_its_chunks(case: PeerCase) -> None:
    assert case.chunks is not None and case.maximal_subparts is not None
    if case.bom == "sniffed":
        # The peer's decoder read a UTF-16 BOM and left UTF-8: these bytes are not UTF-8 at all.
        assert not validate(case.data)
        assert decode_replace(case.data).startswith(REPLACEMENT_CHARACTER * 2)
        return
    data, shift = case.data, 0
    if case.bom == "stripped":
        data = strip_signature(case.data)
        shift = len(case.data) - len(data)
    check_verdict_and_text(case, data)
    assert tuple((offset + shift, length) for offset, length in subparts_of(data)) == (
        case.maximal_subparts
    )
    chunked = IncrementalDecoder("replace")
    fed = [chunked.decode(chunk) for chunk in case.chunks] + [chunked.decode(b"", final=True)]
    replaced = "".join(fed)
    if case.bom == "stripped":
        replaced = replaced.removeprefix("\ufeff")
    assert replaced == case.replaced
    if case.encodes:
        assert case.replaced is not None
        assert encode(case.replaced) == case.data
