"""The seeded pass's inputs: combinations the vectors do not enumerate, the same on every run.

The vectors hold each window of RFC 3629 §4 once, mostly as the only error of its input, and the
sweep (sweep.py) each scalar and each ill-formed byte pair alone. What neither holds is their
combinations: several errors in one input, errors right beside each other or after a character
of another length, an error whose start or end falls on a 16-, 32- or 64-byte block boundary, a
long input holding many of them. The fuzzer makes such inputs (fuzzing/strategies.py, mutator.py)
but its draws differ from run to run; here they are drawn from a fixed seed, so that a CI run
asks exactly what the last one asked, and shaped the same way: pieces put together, then placed.

Every piece is read from the reference's RFC 3629 §4 table (reference/table.py), not typed again:

- a well-formed character of each length class: a row's lead, a second byte the row allows,
  then UTF8-tails;
- a run of ASCII (mostly printable, with TAB, LF, CR and now and then another control);
- an ill-formed fragment: a byte no sequence starts with (a stray UTF8-tail, C0, C1, F5..FF),
  alone or with tails after it; a lead and a second byte its row refuses (the overlongs E0 80..9F
  and F0 80..8F, the surrogates ED A0..BF, F4 90..BF above U+10FFFF) with the tails of its length;
  a well-formed sequence cut short (truncated at the end of an input, missing-continuation
  before anything else).

Draws are made with `random.Random(seed).random()` alone (vectors/samples.py's helpers), which
Python keeps the same across releases for an int seed: the inputs do not depend on the
interpreter. No input holds U+0000 (the sweep asks it alone: an API that reads a C string cannot
be asked it) nor begins with a signature (EF BB BF: RFC 3629 §6 leaves stripping it to the
protocol, which would make a right answer `may`).
"""

from __future__ import annotations

import random
from typing import Final

from utf8cert.harness.vectors.samples import Rng, below, between, pick
from utf8cert.reference.table import ROW_OF_BYTE, ROWS, TAIL, Row

SEED: Final = 3629
"""The default seed: every run of a whole check asks the same inputs."""
INPUTS: Final = 256
"""How many inputs the pass asks (bounded cost: bench/README.md, "The seeded pass")."""
BLOCKS: Final = (16, 32, 64)
"""Block sizes of SIMD and word-at-a-time validators: a flag's either end is put on one."""
LONG_ODDS: Final = 0.125
"""The share of long inputs (dozens of pieces, some hundreds of bytes)."""

_NO_LEAD: Final = tuple(b for b in range(256) if not isinstance(ROW_OF_BYTE[b], Row))
"""The bytes no sequence starts with: UTF8-tails, C0, C1, F5..FF (RFC 3629 §4)."""
_STRAYS: Final = tuple(b for b in _NO_LEAD if b not in TAIL)
_NARROWED: Final = tuple(
    (row, bytes(b for b in TAIL if b not in row.second)) for row in ROWS if row.narrowed_out
)
"""The rows whose second byte is narrower than UTF8-tail (E0, ED, F0, F4), each with the tails
it refuses there."""
_BY_LENGTH: Final = {n: tuple(row for row in ROWS if row.length == n) for n in (1, 2, 3, 4)}
_SIGNATURE: Final = b"\xef\xbb\xbf"
_TAILS: Final = bytes(b for middle in TAIL for b in (TAIL[0], middle, TAIL[-1], middle))
"""Every UTF8-tail, each beside both ends of the range: what runs of tails are cut from."""
_ASCII: Final = bytes(
    b if b >= 0x20 or b in b"\t\n\r" or i % 16 == 0 else 0x20 + i % 0x5F
    for i, b in enumerate(list(range(1, 0x80)) * 3)
)
"""Three rounds of ASCII but NUL, where one control in sixteen is kept: what ASCII runs are
cut from (a slice costs two draws; a byte a draw cost a third of the pass)."""


def _tails(rng: Rng, count: int) -> bytes:
    """Return `count` UTF8-tail bytes, a slice of _TAILS (the ends of the range half of them)."""
    start = below(rng, len(_TAILS) - count)
    return _TAILS[start : start + count]


def _in(rng: Rng, values: range) -> int:
    """Return a value of `values`: its first or its last one time in three each (one draw)."""
    drawn = rng.random() * 3
    if drawn < 2:
        return values[0] if drawn < 1 else values[-1]
    return values[int((drawn - 2) * len(values))]


def character(rng: Rng, length: int) -> bytes:
    """Return the UTF-8 of one scalar value of `length` bytes (1..4), read off a row of the
    table: its lead, a second byte it allows, then tails (never U+0000)."""
    row = pick(rng, _BY_LENGTH[length])
    if length == 1:
        return bytes([between(rng, 1, row.lead[-1])])
    return bytes([_in(rng, row.lead), _in(rng, row.second)]) + _tails(rng, row.tails - 1)


def ascii_run(rng: Rng) -> bytes:
    """Return 1..70 ASCII bytes (1..4 one time in two), a slice of _ASCII: printable, TAB,
    LF and CR, and now and then another control (never NUL)."""
    size = between(rng, 1, 4) if rng.random() < 0.5 else between(rng, 1, 70)
    start = below(rng, len(_ASCII) - size)
    return _ASCII[start : start + size]


def ill_formed(rng: Rng) -> bytes:
    """Return a fragment whose first byte begins a maximal subpart (see the module)."""
    kind = below(rng, 4)
    if kind == 0:  # a stray UTF8-tail, or a run of them
        return _tails(rng, between(rng, 1, 3))
    if kind == 1:  # C0, C1, F5..FF, alone or followed by tails (C0 AF: the overlong '/')
        return bytes([pick(rng, _STRAYS)]) + _tails(rng, between(rng, 0, 3))
    if kind == 2:  # a second byte the lead's row refuses, and the tails of its length
        row, refused = pick(rng, _NARROWED)
        return bytes([pick(rng, row.lead), pick(rng, refused)]) + _tails(rng, row.tails - 1)
    whole = character(rng, between(rng, 2, 4))  # a sequence cut short
    return whole[: between(rng, 1, len(whole) - 1)]


def pieces(rng: Rng, count: int) -> list[tuple[bytes, bool]]:
    """Return `count` pieces, each (bytes, ill-formed?): at least one ill-formed in two inputs
    of three, errors often side by side."""
    drawn: list[tuple[bytes, bool]] = []
    for _ in range(count):
        choice = rng.random()
        if choice < 0.35:
            drawn.append((ill_formed(rng), True))
        elif choice < 0.6:
            drawn.append((ascii_run(rng), False))
        else:
            run = b"".join(character(rng, between(rng, 1, 4)) for _ in range(between(rng, 1, 4)))
            drawn.append((run, False))
    if rng.random() < 2 / 3 and not any(bad for _, bad in drawn):
        drawn.insert(below(rng, count + 1), (ill_formed(rng), True))
    return drawn


def placed(rng: Rng, drawn: list[tuple[bytes, bool]]) -> bytes:
    """Return the pieces joined behind ASCII: one time in two with the start or the end of one
    piece (an ill-formed one if any) on a block boundary or one byte either side of it, else
    with the first piece at an offset 0..15; then 0..70 ASCII bytes or none."""
    joined = b"".join(data for data, _ in drawn)
    if rng.random() < 0.5:
        before = below(rng, 16)
    else:
        bad = [index for index, (_, ill) in enumerate(drawn) if ill] or range(len(drawn))
        chosen = pick(rng, bad)
        start = sum(len(data) for data, _ in drawn[:chosen])
        edge = start + (len(drawn[chosen][0]) if rng.random() < 0.5 else 0)
        block = pick(rng, BLOCKS)
        target = block + pick(rng, (-1, 0, 0, 1))
        before = (target - edge) % block if target < edge else target - edge
    after = ascii_run(rng) if rng.random() < 0.5 else b""
    data = b"A" * before + joined + after
    return b"A" + data if data.startswith(_SIGNATURE) else data


def seeded_inputs(seed: int = SEED, count: int = INPUTS) -> list[bytes]:
    """Return the pass's `count` inputs drawn from `seed` ([] for a count of 0): the same list
    for the same two numbers, on every run and every Python."""
    rng = random.Random(seed)
    inputs = []
    for _ in range(count):
        size = between(rng, 20, 80) if rng.random() < LONG_ODDS else between(rng, 1, 6)
        inputs.append(placed(rng, pieces(rng, size)))
    return inputs
