"""The structure-aware mutator, with a stub for atheris.Mutate (usable only inside a campaign).

Well-formedness is judged by CPython's codec, independent of the reference the mutator uses.
"""

from __future__ import annotations

import random

from utf8cert.harness.fuzzing.mutator import (
    BLOCK_BOUNDARIES,
    LONG_ODDS,
    MAX_SHIFT,
    Mutator,
)
from utf8cert.harness.fuzzing.runs import LONG_RUN_ODDS, SHORT, character_start
from utf8cert.harness.vectors.samples import BOUNDARY_SCALARS
from utf8cert.reference import ErrorKind

TEXT = "Grüße, 世界! 😀 ok".encode()


def cpython_accepts(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class StubMutate:
    """Stands in for atheris.Mutate: flips the last byte, and counts its calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[bytes, int]] = []

    def __call__(self, data: bytes, max_size: int) -> bytes:
        self.calls.append((data, max_size))
        return (data[:-1] + bytes([data[-1] ^ 1]) if data else b"\x00")[:max_size]


def mutator(splices: tuple[bytes, ...] = ()) -> Mutator:
    chosen = Mutator(StubMutate(), splices)
    chosen._rng.seed(1)  # as libFuzzer's first call would
    chosen._seeded = True
    return chosen


def test_character_start_steps_back_over_utf8_tails_only() -> None:
    data = "a€b".encode()  # 61 E2 82 AC 62
    assert [character_start(data, i) for i in range(6)] == [0, 1, 1, 1, 4, 5]
    assert character_start(b"", 3) == 0
    assert character_start(b"\x80\x80\x80\x80\x80", 4) == 1  # at most 3 steps back


def test_the_same_seed_gives_the_same_mutations() -> None:
    first, second = Mutator(StubMutate()), Mutator(StubMutate())
    inputs = [TEXT, b"", b"abc", "ñ".encode() * 40]
    assert [first(data, 5000, 7 + i) for i, data in enumerate(inputs)] == [
        second(data, 5000, 7 + i) for i, data in enumerate(inputs)
    ]


def test_every_mutation_respects_max_size() -> None:
    chosen = Mutator(StubMutate(), [b"\xf0\x9f\x98\x80" * 20])
    for seed in range(3000):
        assert len(chosen(TEXT, 10, seed)) <= 10


def test_byte_mutation_is_libfuzzers() -> None:
    chosen = mutator()
    stub = chosen.byte_mutate
    assert isinstance(stub, StubMutate)
    assert chosen.byte_mutation(b"abc", 100) == b"abb"
    assert stub.calls == [(b"abc", 100)]


def test_inserting_sequences_and_boundary_values_keeps_text_well_formed() -> None:
    chosen = mutator()
    for _ in range(500):
        for operation in (
            chosen.insert_sequence,
            chosen.replace_sequence,
            chosen.insert_boundary_value,
        ):
            assert cpython_accepts(operation(TEXT, 1000))


def test_boundary_values_inserted_are_the_rows_ends() -> None:
    chosen = mutator()
    seen = set()
    for _ in range(2000):
        grown = chosen.insert_boundary_value(b"", 100)
        seen.add(ord(grown.decode("utf-8")))
    assert seen == set(BOUNDARY_SCALARS)


def test_inserted_errors_make_well_formed_text_ill_formed_with_every_kind() -> None:
    from utf8cert.reference import errors

    chosen = mutator()
    kinds = set()
    for _ in range(2000):
        for operation in (chosen.insert_error, chosen.replace_with_error):
            broken = operation(TEXT, 1000)
            assert not cpython_accepts(broken)
            kinds.add(errors(broken)[0].kind)
    assert kinds == set(ErrorKind)


def test_repair_makes_any_bytes_well_formed() -> None:
    chosen = mutator()
    rng = random.Random(3)
    for _ in range(300):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        assert cpython_accepts(chosen.repair(data, 1000))


def test_splicing_inserts_a_vector_or_a_slice_of_one() -> None:
    splices = (b"\xc0\xaf", "€uro".encode())
    chosen = mutator(splices)
    for _ in range(300):
        spliced = chosen.splice_vector(b"xyz", 1000)
        assert spliced in splices or any(
            splice[start:end] in spliced
            for splice in splices
            for start in range(len(splice))
            for end in range(start + 1, len(splice) + 1)
        )


def test_growing_puts_a_non_ascii_sequence_across_a_block_boundary_that_fits() -> None:
    chosen = mutator()
    straddled = set()
    for _ in range(300):
        grown = chosen.grow_across_boundary(TEXT, 66000)[:66000]
        # A sequence starts 0..3 bytes before one of the boundaries, so it crosses it.
        crossed = {b for b in BLOCK_BOUNDARIES if any(x >= 0x80 for x in grown[b - 3 : b + 1])}
        assert crossed
        straddled |= crossed
    assert straddled == set(BLOCK_BOUNDARIES)


def test_growing_leaves_an_input_alone_when_no_boundary_fits() -> None:
    assert mutator().grow_across_boundary(TEXT, 64) == TEXT


def test_shifting_adds_or_removes_up_to_15_ascii_bytes_in_front() -> None:
    chosen = mutator()
    data = b"        " * 4 + "é".encode()
    shifts = set()
    for _ in range(500):
        shifted = chosen.shift_alignment(data, 1000)
        assert shifted.endswith("é".encode())
        shifts.add(len(shifted) - len(data))
    assert shifts == set(range(-MAX_SHIFT, 0)) | set(range(1, MAX_SHIFT + 1))


def test_crossover_joins_a_head_of_one_to_a_tail_of_the_other_at_characters() -> None:
    chosen = mutator()
    first, second = "αβγδ".encode(), "абвг".encode()
    for seed in range(200):
        child = chosen.crossover(first, second, 1000, seed)
        assert cpython_accepts(child)
        head = next(n for n in range(len(first), -1, -1) if child.startswith(first[:n]))
        assert second.endswith(child[head:])


def test_over_many_calls_inputs_grow_past_4096_bytes_and_every_operation_runs() -> None:
    stub = StubMutate()
    chosen = Mutator(stub, [b"\xed\xa0\x80"])
    data, longest = TEXT, 0
    for seed in range(3000):
        data = chosen(data, 70000, seed)
        longest = max(longest, len(data))
        if len(data) > 8000:
            data = TEXT
    assert longest > 4096
    assert stub.calls  # libFuzzer's own mutations are part of the mix


def test_mutations_work_on_short_windows_and_a_few_grow_long() -> None:
    # The length schedule: a corpus input of 64 KiB is mutated as a window of at most SHORT
    # bytes; about LONG_ODDS of the mutations are grown across 4096 or 65536, and about
    # LONG_RUN_ODDS into a long run of any length (runs.py).
    chosen = Mutator(StubMutate(), [b"\xed\xa0\x80"])
    long_input = "aé€😀".encode() * 6000
    calls = 50000
    lengths = [len(chosen(long_input, 70000, seed)) for seed in range(calls)]
    short = sum(length <= SHORT for length in lengths)
    long = calls - short
    expected = calls * (LONG_RUN_ODDS + sum(odds for _, odds in LONG_ODDS))
    assert expected / 3 <= long <= expected * 3, long
    assert all(length <= 70000 for length in lengths)


def test_a_window_is_cut_at_character_starts() -> None:
    chosen = mutator()
    data = "€".encode() * 100
    for _ in range(200):
        cut = chosen.window(data, SHORT)
        assert 0 < len(cut) <= SHORT and cpython_accepts(cut)
