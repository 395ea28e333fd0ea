"""The incremental decoder gives the one-shot result wherever its input is cut.

For every input below (boundary cases, every string of up to two class-boundary bytes, and every
peer case when ../shared is there), in strict and replace mode: every split point, every pair of
split points of short inputs, one-byte feeding, each with and without a final empty chunk. The
output of every single call, and the bytes held back, are also those of CPython's own
incremental UTF-8 decoder fed the same chunks. Each test checks all its inputs as one item
(each_case.py).
"""

from __future__ import annotations

import codecs
import itertools
from collections.abc import Sequence
from typing import Any

import pytest
from support.each_case import each
from support.peers import PeerCase, all_cases

from utf8cert.reference import (
    DecodeError,
    ErrorKind,
    IncrementalDecoder,
    decode,
    decode_replace,
)

BOUNDARY_BYTES = bytes.fromhex(
    "00 7F 80 8F 90 9F A0 BF C0 C1 C2 DF E0 E1 EC ED EE EF F0 F1 F3 F4 F5 F7 F8 FB FC FD FE FF"
)

# fmt: off
HAND_PICKED = [
    b"", b"a", b"Hi Mom \xe2\x98\xba!",                                 # RFC 2044/2279 example
    b"\xc2\x80", b"\xdf\xbf", b"\xe0\xa0\x80", b"\xef\xbf\xbf",         # first and last of a form
    b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xed\x9f\xbf", b"\xee\x80\x80",
    b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"a\xf0\x9f\x98", b"\xf4\x8f\xbf",  # cut short
    b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\xaf", b"\xe0\x9f\xbf", b"\xf0\x80\x80\xaf",  # overlong
    b"\xf0\x8f\xbf\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xa0\x80\xed\xb0\x80",
    b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xf7\xbf\xbf\xbf",      # above U+10FFFF
    b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xfe", b"\xff", b"\xfe\xff",
    b"\xe2\x82a", b"\xf0\x9f\x98a", b"\xe2\x82\xe2\x82\xac", b"\x80\xbf\x80",
    b"\xef\xbb\xbfabc", b"\xef\xbb\xbf\xef\xbb\xbf", b"a\xef\xbb", b"\xef\xbb\xbf\xed\xa0\x80",
    "Größe 日本語 😀 ελληνικά".encode(), "😀🎉".encode()[:-1] + b"\xe2\x82\xac",
]
# fmt: on
SHORT_STRINGS = [bytes(p) for n in (1, 2) for p in itertools.product(BOUNDARY_BYTES, repeat=n)]
INPUTS = HAND_PICKED + SHORT_STRINGS
MODES = ("strict", "replace")

# One call's outcome: the text it returned, or the error as (absolute offset, length, kind).
Outcome = str | tuple[int, int, str]


def one_shot(data: bytes, mode: str) -> Outcome:
    """Return the reference's one-shot result: the text, or its first error."""
    if mode == "replace":
        return decode_replace(data)
    try:
        return decode(data)
    except DecodeError as error:
        return error.offset, error.length, str(error.kind)


def surrogate_prefix_held(decoder: codecs.IncrementalDecoder) -> bool:
    """Return True if CPython's decoder holds back ED A0..BF, which can never become UTF-8.

    CPython 3.11 waits for more bytes after ED A0..BF at the end of a chunk (it does report E0
    80..9F, F0 80..8F and F4 90..BF at once). The reference reports the error at once: only the
    whole result can be compared from there on.
    """
    held = decoder.getstate()[0]
    return held[:1] == b"\xed" and held[1:2] >= b"\xa0"


def call(decoder: IncrementalDecoder | codecs.IncrementalDecoder, chunk: bytes, final: bool) -> Any:
    """Return the decoder's text for `chunk`, or the UnicodeDecodeError it raised."""
    try:
        return decoder.decode(chunk, final=final)
    except UnicodeDecodeError as error:
        return error


def feed(chunks: Sequence[bytes], mode: str, final_empty: bool) -> Outcome:
    """Return what the incremental decoder makes of `chunks`, checking each call on the way.

    The last chunk is fed with final=True, or, with `final_empty`, every chunk with final=False
    and then b'' with final=True. Each call's text and the bytes then held back must be those of
    CPython's incremental decoder; a strict error is returned with an offset into the whole input.
    """
    calls = [(chunk, False) for chunk in chunks] + [(b"", True)]
    if not final_empty and chunks:
        calls = [(chunk, False) for chunk in chunks[:-1]] + [(chunks[-1], True)]
    ours = IncrementalDecoder(mode)
    theirs: codecs.IncrementalDecoder | None = codecs.getincrementaldecoder("utf-8")(mode)
    text, consumed = [], 0
    for chunk, final in calls:
        held = len(ours.getstate()[0])
        piece = call(ours, chunk, final)
        if theirs is not None:
            expected = call(theirs, chunk, final)
            if surrogate_prefix_held(theirs):
                theirs = None
            elif isinstance(piece, DecodeError):
                assert isinstance(expected, UnicodeDecodeError), "CPython went on"
                assert (piece.start, piece.end) == (expected.start, expected.end)
            else:
                assert piece == expected
                assert ours.getstate() == theirs.getstate()
        if isinstance(piece, DecodeError):
            return consumed - held + piece.offset, piece.length, str(piece.kind)
        text.append(piece)
        consumed += len(chunk)
    assert ours.getstate() == (b"", 0)
    return "".join(text)


def splits(data: bytes, points: Sequence[int]) -> list[bytes]:
    """Return `data` cut at the given increasing split points."""
    edges = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges)]


def check_every_cut(data: bytes, mode: str) -> None:
    """Assert one-shot == incremental for every cut of `data` listed in this module's docstring."""
    expected = one_shot(data, mode)
    cuts: list[Sequence[int]] = [[k] for k in range(len(data) + 1)]
    if len(data) <= 16:
        cuts += list(itertools.combinations(range(len(data) + 1), 2))
    cuts.append(range(1, len(data)))  # one byte at a time
    for points, final_empty in itertools.product(cuts, (False, True)):
        chunks = splits(data, points)
        got = feed(chunks, mode, final_empty)
        assert got == expected, f"{data.hex(' ')} cut as {[c.hex() for c in chunks]}"


def in_each_mode(inputs: Sequence[bytes]) -> list[tuple[bytes, str]]:
    """Return each input with each mode."""
    return [(data, mode) for data in inputs for mode in MODES]


def named(case: tuple[bytes, str]) -> str:
    """Return the input's bytes in hex and the mode, which name it in a failure."""
    data, mode = case
    return f"{data.hex(' ') or 'empty'} ({mode})"


@each(in_each_mode(INPUTS), named)
def test_every_cut_of_the_input_decodes_as_in_one_piece(case: tuple[bytes, str]) -> None:
    check_every_cut(*case)


def peer_cases_in_each_mode() -> list[tuple[PeerCase, str]]:
    """Return each peer case with each mode; skip when the peer files are absent."""
    return [(case, mode) for case in all_cases() for mode in MODES]


@each(peer_cases_in_each_mode, lambda case: f"{case[0].case_id} ({case[1]})")
def test_every_cut_of_a_peer_case_decodes_as_in_one_piece(case: tuple[PeerCase, str]) -> None:
    peer_case, mode = case
    check_every_cut(peer_case.data, mode)


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("first", BOUNDARY_BYTES, ids=lambda first: f"{first:02X}")
def test_every_cut_of_every_three_boundary_byte_string_decodes_as_in_one_piece(
    first: int, mode: str
) -> None:
    for rest in itertools.product(BOUNDARY_BYTES, repeat=2):
        check_every_cut(bytes((first, *rest)), mode)


def test_an_unfinished_character_is_held_back_and_reported_as_truncated_at_the_end() -> None:
    decoder = IncrementalDecoder()
    assert decoder.decode(b"a\xf0\x9f") == "a"
    assert decoder.getstate() == (b"\xf0\x9f", 0)
    assert decoder.decode(b"\x98") == ""
    with pytest.raises(DecodeError) as raised:
        decoder.decode(b"", final=True)
    assert (raised.value.offset, raised.value.length) == (0, 3)
    assert raised.value.kind is ErrorKind.TRUNCATED and raised.value.incomplete
    assert decoder.getstate() == (b"", 0)  # strict mode starts afresh after an error


def test_a_state_taken_midway_continues_in_another_decoder() -> None:
    data = "x€😀y".encode()
    for cut in range(len(data) + 1):
        first = IncrementalDecoder("replace")
        head = first.decode(data[:cut])
        second = IncrementalDecoder("replace")
        second.setstate(first.getstate())
        assert head + second.decode(data[cut:], final=True) == "x€😀y"


@pytest.mark.parametrize("mode", MODES)
def test_reset_forgets_a_held_back_prefix(mode: str) -> None:
    decoder = IncrementalDecoder(mode)
    assert decoder.decode(b"\xe2\x82") == ""
    decoder.reset()
    assert decoder.getstate() == (b"", 0)
    # Without reset() the held E2 82 and this AC would make U+20AC; after it AC stands alone.
    if mode == "replace":
        assert decoder.decode(b"\xac", final=True) == "\ufffd"
        return
    with pytest.raises(DecodeError) as raised:
        decoder.decode(b"\xac", final=True)
    assert raised.value.kind is ErrorKind.UNEXPECTED_CONTINUATION


def test_an_unknown_error_mode_and_non_bytes_input_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="errors must be one of strict, replace"):
        IncrementalDecoder("ignore")
    with pytest.raises(TypeError, match="takes bytes, not str"):
        IncrementalDecoder().decode("text")  # type: ignore[arg-type]
