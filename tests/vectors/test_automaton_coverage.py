"""The vectors take every transition of the RFC 3629 automaton, in every capability, and the
encoding vectors every bit of every sequence length: a missing pair fails here.

The automaton is worked out in this file from Unicode §3.9 Table 3-7 typed by hand (not from
utf8cert.reference, nor from bench/automaton_vectors.py which wrote vectors/automaton.yaml): a
state is what a decoder knows inside a sequence (its length, the range the next byte must be in,
how many bytes are still due), and the byte classes are the runs of byte values that every row
of the table treats alike. A table-driven decoder (Hoehrmann's DFA, Go's acceptRanges) has one
entry per (state, class) pair, so a wrong entry shows only on an input that reads it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Final

from utf8cert.harness.check.run import DECODING, capabilities_for
from utf8cert.harness.check.schedule import schedule
from utf8cert.harness.check.variants import decode_variants
from utf8cert.harness.codec.interface import CAPABILITIES
from utf8cert.harness.vectors.load import load_vectors
from utf8cert.harness.vectors.model import DecodeVector, EncodeVector

ROOT = Path(__file__).resolve().parents[2]

Range = tuple[int, int]
TAIL: Final = (0x80, 0xBF)
# Unicode §3.9 Table 3-7 (RFC 3629 §4), one row a line: the range of each byte of the sequence.
TABLE_3_7: Final[tuple[tuple[Range, ...], ...]] = (
    ((0x00, 0x7F),),
    ((0xC2, 0xDF), TAIL),
    ((0xE0, 0xE0), (0xA0, 0xBF), TAIL),
    ((0xE1, 0xEC), TAIL, TAIL),
    ((0xED, 0xED), (0x80, 0x9F), TAIL),
    ((0xEE, 0xEF), TAIL, TAIL),
    ((0xF0, 0xF0), (0x90, 0xBF), TAIL, TAIL),
    ((0xF1, 0xF3), TAIL, TAIL, TAIL),
    ((0xF4, 0xF4), (0x80, 0x8F), TAIL, TAIL),
)
# The classes as issue 30 lists them, to hold the derivation below to it.
ISSUE_CLASSES: Final = (
    *("00-7F", "80-8F", "90-9F", "A0-BF", "C0-C1", "C2-DF", "E0"),
    *("E1-EC", "ED", "EE-EF", "F0", "F1-F3", "F4", "F5-FF"),
)

State = tuple[int, Range, int]
"""(sequence length, range the next byte must be in, bytes due with it); START at the start."""
START: Final[State] = (0, (0x00, 0xFF), 0)
# RFC 3629 §3: the range of values each sequence length holds (the encoder's length classes).
LENGTHS: Final = {
    1: (0x0000, 0x007F),
    2: (0x0080, 0x07FF),
    3: (0x0800, 0xFFFF),
    4: (0x10000, 0x10FFFF),
}


def classes() -> list[Range]:
    """Return the byte classes: the runs of byte values in the same ranges of every row."""
    ranges = [r for row in TABLE_3_7 for r in row]
    runs: list[Range] = []
    for byte in range(256):
        here = tuple(low <= byte <= high for low, high in ranges)
        if runs and tuple(low <= runs[-1][0] <= high for low, high in ranges) == here:
            runs[-1] = (runs[-1][0], byte)
        else:
            runs.append((byte, byte))
    return runs


def states() -> list[State]:
    """Return every state: the start, and each (length, next range, due) a row passes through."""
    found = [START]
    for row in TABLE_3_7:
        for read in range(1, len(row)):
            state = (len(row), row[read], len(row) - read)
            if state not in found:
                found.append(state)
    return found


def step(state: State, byte: int) -> State | None:
    """Return the state after `byte`, None where the byte ends the input's well-formed prefix."""
    if state == START:
        row = next((r for r in TABLE_3_7 if r[0][0] <= byte <= r[0][1]), None)
        if row is None:
            return None
        return START if len(row) == 1 else (len(row), row[1], len(row) - 1)
    length, (low, high), due = state
    if not low <= byte <= high:
        return None
    return START if due == 1 else (length, TAIL, due - 1)


def transitions(data: bytes) -> Iterator[tuple[State, int]]:
    """Yield the (state, byte) pairs a decoder reads in `data` up to its first error (that one
    included): what a strict decoder and a validator, which stop there, both read."""
    state = START
    for byte in data:
        yield state, byte
        after = step(state, byte)
        if after is None:
            return
        state = after


def replace_transitions(data: bytes) -> Iterator[tuple[State, int, bool]]:
    """Yield (state, byte, followed) for every (state, byte) pair a replacing decoder reads in
    `data`, `followed` telling whether a well-formed character is read after it (so that one
    swallowed there shows). After an error the decoder starts again: at the refused byte
    itself where a sequence was under way (the byte is read again from the start), else at the
    byte after it (Unicode §3.9 D93b, the maximal subpart)."""
    read: list[tuple[State, int, int]] = []  # (state, byte, characters completed before it)
    characters = 0
    state, index = START, 0
    while index < len(data):
        byte = data[index]
        read.append((state, byte, characters))
        after = step(state, byte)
        if after is None:
            index += state == START
            state = START
            continue
        index += 1
        characters += after == START
        state = after
    for state, byte, before in read:
        yield state, byte, characters > before + (step(state, byte) == START)


def first_error(data: bytes) -> tuple[State, int] | None:
    """Return the state and the index of the byte at which `data` stops being well-formed
    (None for well-formed input, or input cut inside a sequence)."""
    state = START
    for index, byte in enumerate(data):
        after = step(state, byte)
        if after is None:
            return state, index
        state = after
    return None


def name(state: State) -> str:
    length, (low, high), due = state
    return "start" if state == START else f"{length}-byte, {due} due, next {low:02X}-{high:02X}"


@cache
def decoding() -> list[DecodeVector]:
    return [v for v in load_vectors() if isinstance(v, DecodeVector)]


@cache
def bytewise() -> frozenset[str]:
    """Return the ids of the vectors a default-depth check feeds an incremental decoder byte by
    byte, so that a chunk ends right before each of their bytes."""
    vectors = load_vectors()
    plans = schedule(vectors, "default")
    return frozenset(
        v.id for v in decoding() if any(x.bytewise for x in decode_variants(v, plans.plan(v)))
    )


def covered(capability: str) -> set[tuple[State, int]]:
    """Return the (state, byte) pairs the vectors put to `capability` in a default check."""
    seen: set[tuple[State, int]] = set()
    for vector in decoding():
        if capability not in capabilities_for(vector, CAPABILITIES):
            continue
        if capability == "replace" and vector.replaced[-1:] in ("", "\ufffd"):
            continue  # no well-formed character after the last error: a swallowed one hides
        if capability == "incremental" and vector.id not in bytewise():
            continue
        seen.update(transitions(vector.data))
    return seen


def test_the_classes_derived_from_table_3_7_are_the_issues() -> None:
    named = [f"{a:02X}" if a == b else f"{a:02X}-{b:02X}" for a, b in classes()]
    assert tuple(named) == ISSUE_CLASSES


def test_the_states_are_table_3_7s() -> None:
    """Start; 1, 2 or 3 bytes due (by sequence length); the narrowed E0, ED, F0, F4 seconds."""
    found = states()
    assert len(found) == 11
    narrowed = {(s[1], s[2]) for s in found if s != START and s[1] != TAIL}
    assert narrowed == {((0xA0, 0xBF), 2), ((0x80, 0x9F), 2), ((0x90, 0xBF), 3), ((0x80, 0x8F), 3)}


def test_every_decoding_vector_goes_to_every_decoding_capability() -> None:
    assert {capabilities_for(v, CAPABILITIES) for v in decoding()} == {DECODING}


def test_every_state_meets_both_ends_of_every_class_in_every_capability() -> None:
    wanted = [(s, edge) for s in states() for c in classes() for edge in sorted(set(c))]
    assert len(wanted) == 11 * 24
    for capability in DECODING:
        have = covered(capability)
        missing = [f"{name(s)}: {byte:02X}" for s, byte in wanted if (s, byte) not in have]
        assert missing == [], capability


def test_every_state_meets_every_byte_value_in_replace_mode() -> None:
    """Byte granularity: each of the 256 byte values in each state, with a well-formed
    character read after it, in a vector that goes to the replacing decoder; a codec whose
    class table puts one inner byte in the wrong class shows in its U+FFFD output."""
    seen: set[tuple[State, int]] = set()
    for vector in decoding():
        seen.update((s, b) for s, b, followed in replace_transitions(vector.data) if followed)
    missing = [f"{name(s)}: {b:02X}" for s in states() for b in range(256) if (s, b) not in seen]
    assert missing == []


def test_every_byte_value_each_state_takes_is_read_by_every_capability() -> None:
    """Byte granularity for the bytes a state takes: a strict decoder and a validator read
    them all (in well-formed vectors, which they read to the end)."""
    wanted = [(s, b) for s in states() for b in range(256) if step(s, b) is not None]
    assert len(wanted) == 128 + 51 + 6 * 64 + 32 + 32 + 48 + 16
    for capability in DECODING:
        have = covered(capability)
        missing = [f"{name(s)}: {b:02X}" for s, b in wanted if (s, b) not in have]
        assert missing == [], capability


def test_each_refused_class_edge_is_followed_by_the_tails_of_wrong_entries() -> None:
    """Inside a sequence, a byte the state refuses is followed by the continuation bytes due
    after it were it taken (a codec that takes it reads a complete sequence: its strict decoder
    returns text, its validator says True), and in another by one continuation byte, which
    completes the sequence of a codec whose entry goes to the state with one continuation due
    (`C2 E0` then `80`; `F1 41` then `80`); where one is due, also by none (an entry to the
    start)."""
    followed: dict[tuple[State, int], set[int]] = {}
    for vector in decoding():
        found = first_error(vector.data)
        if found is None or found[0] == START:
            continue
        state, index = found
        rest = vector.data[index + 1 :]
        tails = next((n for n, b in enumerate(rest) if not 0x80 <= b <= 0xBF), len(rest))
        followed.setdefault((state, vector.data[index]), set()).add(tails)
    missing = []
    for state in states()[1:]:
        due = state[2]
        wanted = {due - 1, 1} | ({0} if due == 1 else set())
        for edge in sorted({e for c in classes() for e in c}):
            if step(state, edge) is None and not wanted <= followed.get((state, edge), set()):
                missing.append(f"{name(state)}: {edge:02X}")
    assert missing == []


def test_a_wrong_table_entry_shows_in_the_vectors() -> None:
    """E1 then F0 (a lead where a continuation is due): the vector a codec that takes it reads."""
    after_e1 = (3, TAIL, 2)
    hits = [v for v in decoding() if (after_e1, 0xF0) in set(transitions(v.data))]
    assert any(v.data.startswith(b"\xe1\xf0") and not v.valid for v in hits)


@cache
def encoded() -> list[tuple[int, ...]]:
    """Return the scalar values of every encoding vector that must be encoded."""
    return [v.scalars for v in load_vectors() if isinstance(v, EncodeVector) and v.expected]


def test_every_bit_of_every_length_is_encoded_alone() -> None:
    """Each bit set alone, or (where it alone is below the length's range) with the range's
    first value: an encoder that writes that bit wrongly in that length is caught."""
    values = {value for scalars in encoded() for value in scalars}
    missing = []
    for length, (first, last) in LENGTHS.items():
        for bit in range(last.bit_length()):
            alone = 1 << bit if 1 << bit >= first else first | 1 << bit
            if alone not in values:
                missing.append((length, bit))
    assert missing == []


def test_each_length_is_encoded_at_its_first_value_and_with_every_bit_set() -> None:
    values = {value for scalars in encoded() for value in scalars}
    for first, last in LENGTHS.values():
        every = (1 << last.bit_length()) - 1
        assert {first, last, every if every <= 0x10FFFF else every >> 1} <= values


def test_ascii_and_u_007f_follow_every_multibyte_length_and_the_surrogates_neighbours_meet() -> (
    None
):
    pairs = {pair for scalars in encoded() for pair in pairwise(scalars)}
    for length in (2, 3, 4):
        first, last = LENGTHS[length]
        assert any(first <= a <= last and b == 0x7F for a, b in pairs), length
    assert {(0xD7FF, 0xE000), (0xE000, 0xD7FF)} <= pairs


def test_the_committed_file_is_what_the_script_writes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "automaton_vectors.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
