"""Where a replaced output parts from the reference's: the run of ill-formed bytes a difference
of U+FFFD-replaced output is about.

An input holds many ill-formed runs, and a codec that writes one U+FFFD too few, too many, or a
character instead of one went wrong on one of them: the report points there (the hex dump, the
fuzzer's window on a long input) and the behaviour's key is taken there (behaviour.py), not at
the input's first ill-formed byte. Runs are maximal subparts that touch (Unicode §3.9: one
U+FFFD each, the run's bytes in a row).

    replaced_run(expected, replaced, actual, dropped) -> Marks   same text, U+FFFDs differ
    run_at(expected, replaced, same) -> Marks                    the texts part at `same`
    decoded_in(expected, replaced, actual, ends) -> Marks        a character written for a run

The first two return every maximal subpart when the place cannot be told (a dialect's reading,
whose replaced output is not the reference's walk of the bytes); the third, run_at's marks.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from itertools import pairwise
from typing import Final

from utf8cert.harness.check.difference import Marks
from utf8cert.harness.check.expected import Decoded, Expected
from utf8cert.reference import REPLACEMENT_CHARACTER

REPLACEMENT: Final = 0xFFFD
_REPLACEMENT_RUN: Final = re.compile(REPLACEMENT_CHARACTER + "+")
MOST_ALIGNED: Final = 4096
"""The longest stretch of two outputs, between their common ends, decoded_in aligns. difflib is
quadratic at worst: the alignment is most of the 73 CPU-s a check of Latin-1 takes (it differs
across every long input); a bound of 256 took that to 9 CPU-s but misnamed a reviewed
diagnosis (bench/README.md, "issue 41's fourth cut: the diagnoses")."""
Writer = int | None
"""What writes one U+FFFD of the reference's output: a maximal subpart (its index in
`Expected.errors`), or None for a literal U+FFFD (EF BF BD)."""


def every_error(expected: Expected) -> Marks:
    """Return (start, end) of every maximal subpart of the input (() for well-formed input)."""
    return tuple((error.offset, error.offset + error.length) for error in expected.errors)


def _writers(expected: Expected) -> tuple[int, dict[int, list[Writer]]] | None:
    """Return how many stretches the reference's output has between its characters other than
    U+FFFD (one more than it has of them), and for each stretch holding U+FFFDs, by its index,
    what writes them, in order; None when the bytes between errors are not UTF-8 the reference
    reads (a dialect's output)."""
    # Read run by run, not character by character: a long input's text is decoded and counted
    # in C, and only the stretches that hold a U+FFFD are kept.
    writers: dict[int, list[Writer]] = {}
    data, position, stretch = expected.data, 0, 0
    for index, error in enumerate([*expected.errors, None]):
        until = len(data) if error is None else error.offset
        try:
            characters = data[position:until].decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return None
        if REPLACEMENT_CHARACTER in characters:  # a literal U+FFFD (EF BF BD) writes itself
            for character in characters:
                if character == REPLACEMENT_CHARACTER:
                    writers.setdefault(stretch, []).append(None)
                else:
                    stretch += 1
        else:
            stretch += len(characters)  # each character other than U+FFFD starts a stretch
        if error is not None:
            writers.setdefault(stretch, []).append(index)
            position = error.offset + error.length
    return stretch + 1, writers


def _counts(output: Decoded) -> tuple[int, dict[int, int]]:
    """Return how many stretches `output` has between its characters other than U+FFFD, and
    the number of U+FFFD in each stretch holding any, by its index."""
    counts: dict[int, int] = {}
    replacements = 0  # the U+FFFDs before the run counted next
    if isinstance(output, str):
        for run in _REPLACEMENT_RUN.finditer(output):
            start, end = run.span()
            counts[start - replacements] = end - start  # start - replacements: the others before
            replacements += end - start
    else:
        for index, value in enumerate(output):
            if value == REPLACEMENT:
                stretch = index - replacements
                counts[stretch] = counts.get(stretch, 0) + 1
                replacements += 1
    return len(output) - replacements + 1, counts


def _run_from(expected: Expected, first: int) -> Marks:
    """Return the maximal subparts from the one of index `first` to the end of its run (those
    that touch it after it)."""
    errors = every_error(expected)
    last = first
    while last + 1 < len(errors) and errors[last + 1][0] == errors[last][1]:
        last += 1
    return errors[first : last + 1]


def _starts_run(expected: Expected, index: int) -> bool:
    """Return True if maximal subpart `index` touches no subpart before it."""
    errors = expected.errors
    return index == 0 or errors[index - 1].offset + errors[index - 1].length != errors[index].offset


def replaced_run(expected: Expected, actual: Decoded, dropped: bool) -> Marks:
    """Return the maximal subparts of the run whose U+FFFDs `actual` got wrong, where `actual`
    holds the characters other than U+FFFD that the reference's replaced output holds.

    When a run's U+FFFD was `dropped`: among the stretches between those characters where
    fewer U+FFFD stand than the literal ones plus one a run, the first run right after a literal
    U+FFFD (merged into it), else the first run of the first such stretch. Otherwise the first
    run of the first stretch where the numbers of U+FFFD differ."""
    found, (number, counts) = _writers(expected), _counts(actual)
    if found is None or found[0] != number:
        return every_error(expected)
    wrong, short, merged = [], [], []
    for stretch, writers in found[1].items():  # a stretch without U+FFFD is right in both
        count = counts.get(stretch, 0)
        starts = [w for w in writers if w is not None and _starts_run(expected, w)]
        if len(writers) == count or not starts:
            continue
        wrong.append(starts[0])
        if count < writers.count(None) + len(starts):  # a run left no U+FFFD of its own
            short.append(starts[0])
            merged += [
                writer
                for before, writer in pairwise(writers)
                if before is None and writer in starts
            ]
    chosen = (merged or short or wrong) if dropped else wrong
    return _run_from(expected, chosen[0]) if chosen else every_error(expected)


def _writer_at(expected: Expected, replaced: Decoded) -> dict[int, int] | None:
    """Return, for each U+FFFD of `replaced` (the reference's output) that a maximal subpart
    writes, its index in `replaced` and the subpart's in `Expected.errors`; None when the
    output is not the reference's walk of the bytes (a dialect's)."""
    found = _writers(expected)
    if found is None:
        return None
    number, writers = found
    at: dict[int, int] = {}
    before = 0  # the U+FFFDs of the stretches before
    for stretch, written in writers.items():
        # stretch: the characters other than U+FFFD before this one's U+FFFDs
        for offset, writer in enumerate(written):
            if writer is not None:
                at[stretch + before + offset] = writer
        before += len(written)
    return at if number - 1 + before == len(replaced) else None


def run_at(expected: Expected, replaced: Decoded, same: int) -> Marks:
    """Return the maximal subparts from the one whose U+FFFD is character `same` of `replaced`
    (where the answer parts from it: a character written for ill-formed bytes), or the one just
    before it (more written for it than its U+FFFD), to the end of its run; every one when the
    answer parts inside well-formed text."""
    return _run_at(expected, _writer_at(expected, replaced), same)


def _run_at(expected: Expected, at: dict[int, int] | None, same: int) -> Marks:
    """Return run_at's marks, given `_writer_at`'s map."""
    for key in (same, same - 1):
        if at is not None and key in at:
            return _run_from(expected, at[key])
    return every_error(expected)


def decoded_in(
    expected: Expected, replaced: Decoded, actual: Decoded, ends: tuple[int, int]
) -> Marks:
    """Return the maximal subparts a codec wrote a character other than U+FFFD for: the answers
    aligned (difflib) between their common `ends` (prefix, suffix lengths), the first stretch of
    `actual` holding one stands for U+FFFDs of `replaced` whose subparts these are; run_at's
    marks where the answers part when the stretch stands for none, or the outputs are too long
    to align or not the reference's.

    Where the answers first part is not always where the character came from: a codec that
    takes ED A0 for the start of a surrogate writes one U+FFFD for ED A0 61 (one short), then
    U+DFFF for ED BF BF; one that reads C0 80 as U+0000 before a U+0000 parts from the
    reference at the first U+FFFD, and the texts without U+FFFD part only after that U+0000."""
    at = _writer_at(expected, replaced)
    head, tail = ends
    want, got = replaced[head : len(replaced) - tail], actual[head : len(actual) - tail]
    if at is not None and max(len(want), len(got)) <= MOST_ALIGNED:
        aligned = SequenceMatcher(None, want, got, autojunk=False)
        for tag, first, last, start, end in aligned.get_opcodes():
            if tag != "equal" and any(_value(c) != REPLACEMENT for c in got[start:end]):
                stands_for = range(head + first, head + max(last, first + 1))
                written = [at[index] for index in stands_for if index in at]
                if written:
                    return every_error(expected)[written[0] : written[-1] + 1]
                break
    return _run_at(expected, at, head)


def _value(character: str | int) -> int:
    """Return the scalar value of one character of a decoded output."""
    return character if isinstance(character, int) else ord(character)
