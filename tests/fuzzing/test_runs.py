"""Runs of characters for the mutator (runs.py): lengths of any size, text that every block boundary
up to its length cuts, and sequences that only their value makes ill-formed.

Well-formedness is judged by CPython's codec, independent of the reference.
"""

from __future__ import annotations

import math
import random

from utf8cert.harness.fuzzing.mutator import Mutator
from utf8cert.harness.fuzzing.runs import (
    SHORT,
    character_run,
    filler,
    grow_run,
    run_length,
    value_only_error,
)

BLOCK_SIZES = (16, 100, 1000, 4095, 8192, 30000, 65536)
"""Block sizes a decoder might use, from a register to the largest boundary fuzzed."""


def cpython_accepts(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def cut_inside_a_character(data: bytes, size: int) -> bool:
    """Return True if offset `size` falls inside a well-formed multi-byte character of `data`."""
    if not 0 < size < len(data) or not 0x80 <= data[size] <= 0xBF:
        return False
    start = size
    while start > 0 and 0x80 <= data[start] <= 0xBF and size - start < 3:
        start -= 1
    lead = data[start]
    length = 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4
    return start + length > size and cpython_accepts(data[start : start + length])


def test_run_lengths_are_log_uniform_from_short_to_max_len() -> None:
    rng = random.Random(1)
    lengths = [run_length(rng, 65536) for _ in range(20000)]
    assert min(lengths) >= SHORT and max(lengths) <= 65536
    doublings = int(math.log2(65536 / SHORT))  # 9 doublings from 128 to 65536
    for doubling in range(doublings):
        low, high = SHORT << doubling, SHORT << (doubling + 1)
        share = sum(low <= length < high for length in lengths) / len(lengths)
        assert 0.7 / doublings < share < 1.3 / doublings, (low, share)
    assert run_length(rng, 100) == 100


def test_filler_is_well_formed_text_of_about_the_length_asked() -> None:
    rng = random.Random(2)
    for length in (0, 1, 5, 127, 1000, 40000):
        for _ in range(20):
            text = filler(rng, length)
            assert cpython_accepts(text)
            assert length - 3 <= len(text) <= length


def test_a_grown_run_holds_the_input_whole_within_max_len() -> None:
    rng = random.Random(3)
    data = b"x\xc0\xafy"
    for _ in range(200):
        grown = grow_run(rng, data, 70000)
        assert data in grown and len(grown) <= 70000
        assert cpython_accepts(grown.replace(data, b""))


def test_mutations_reach_a_block_boundary_of_every_size_inside_a_character() -> None:
    # What a block bug of size N needs: an input with a character cut by offset N. Long runs
    # come from about LONG_RUN_ODDS of the mutations; the short ones reach sizes up to SHORT.
    chosen = Mutator(lambda data, size: data, [b"\xed\xa0\x80"])
    reached: set[int] = set()
    for seed in range(200000):
        mutated = chosen("aé€😀".encode(), 66048, seed)
        reached.update(size for size in BLOCK_SIZES if cut_inside_a_character(mutated, size))
        if reached == set(BLOCK_SIZES):
            break
    assert reached == set(BLOCK_SIZES)


def test_value_only_errors_have_a_characters_shape_and_are_ill_formed() -> None:
    rng = random.Random(4)
    for length in (2, 3, 4):
        for _ in range(100):
            sequence = value_only_error(rng, length)
            assert len(sequence) == length
            lead_length = 2 if sequence[0] < 0xE0 else 3 if sequence[0] < 0xF0 else 4
            assert lead_length == length
            assert all(0x80 <= byte <= 0xBF for byte in sequence[1:])
            assert not cpython_accepts(sequence)


def test_a_character_run_repeats_one_character_and_may_end_in_a_value_only_error() -> None:
    rng = random.Random(5)
    ended_badly = 0
    for _ in range(300):
        run = character_run(rng)
        if cpython_accepts(run):
            characters = run.decode("utf-8")
            assert 2 <= len(characters) <= 64 and len(set(characters)) == 1
        else:
            ended_badly += 1
            good = run.decode("utf-8", "ignore")
            assert len(set(good)) == 1 and run.startswith(good.encode("utf-8"))
    assert 100 < ended_badly < 200


def test_duplicating_and_cutting_sequences_keep_text_well_formed() -> None:
    chosen = Mutator(lambda data, size: data)
    text = "Grüße, 世界! 😀 ok"
    data = text.encode()
    for _ in range(300):
        duplicated = chosen.duplicate_sequence(data, 4096)
        assert cpython_accepts(duplicated) and len(duplicated) > len(data)
        cut = chosen.cut_sequences(data, 4096)
        assert cpython_accepts(cut) and len(cut) < len(data)
        kept = cut.decode("utf-8")
        # Whole characters go, in one piece: what is left is a head and a tail of the text.
        head = next(n for n in range(len(kept), -1, -1) if text.startswith(kept[:n]))
        assert text.endswith(kept[head:])
