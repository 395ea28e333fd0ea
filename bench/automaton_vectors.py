"""Write vectors/automaton.yaml: every transition of the RFC 3629 §4 automaton, and every bit.

    python bench/automaton_vectors.py [--check]

The file is data, written out once and committed (nothing generates vectors at load time); this
script is how it was written, and `--check` (exit 1 on a difference) is how
tests/vectors/test_automaton_vectors.py keeps the two in step. The inputs come from the automaton
of Unicode §3.9 Table 3-7 typed below; the expected outputs from the reference codec, each
cross-checked here against CPython's codec (strict, replace, byte-by-byte incremental, encode),
so that the script stops rather than write a vector the two disagree on.

What it covers, in this order (ids follow it; new families go at the end, and an id is never
reused: a removed vector's id goes into `RETIRED`):
1. decoding: for each state of the automaton (the start; 1, 2 or 3 continuation bytes due, the
   first of them after E0, ED, F0 or F4 narrowed), reached after the first or the last lead of
   its row, and each of the 14 byte classes, the class's first and last byte. After that byte,
   the continuation bytes (80) the state still wants, as if the byte had been taken, so that a
   codec that wrongly takes it sees a complete sequence (its validator says True); a byte that
   starts a sequence at the start gets the rest of its shortest sequence. Then a well-formed
   character (41, or E2 82 AC after a class's last byte), so that one swallowed shows.
2. encoding: for each sequence length, each bit of the scalar value alone (with the length's
   lowest value where the bit alone falls below the length's range), all bits set, the first and
   last value; then runs mixing lengths (ASCII and U+007F right after multi-byte characters) and
   the neighbours of the surrogates.
3. decoding, byte by byte (issue 30): for each state, one well-formed vector that takes every
   byte value the state allows in turn (so every capability reads each such entry), and one
   that puts every byte value the state refuses after its context, each followed as in family 1
   and by a well-formed character: a replacing decoder shows each entry in its U+FFFD output,
   so a byte put in the wrong class shows (a strict decoder and a validator stop at the first
   error; one vector a refused byte would cost the default check 1.9x its time, measured).
4. decoding: in each state with one continuation byte due, each class edge the state refuses
   followed by one continuation byte (family 1 puts none), so that a codec that takes the byte
   and then wants one more continuation (`C2 E0 80`) reads a complete sequence: its strict
   decoder returns text and its validator says True, a `must` difference rather than a wrong
   error end.
5. decoding: likewise where three continuation bytes are due (family 1 puts two there): a
   refused entry that goes to the state with one due (`F1 41 80`) shows to the validator.
"""

from __future__ import annotations

import codecs
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: bench/ is on the path, the repository is not
    sys.path.insert(0, str(ROOT))

from bench import vector_yaml  # noqa: E402
from bench.vector_yaml import decode_entry, hex_bytes, names, notes  # noqa: E402
from utf8cert import reference  # noqa: E402

TARGET: Final = ROOT / "vectors" / "automaton.yaml"
RETIRED: Final[tuple[str, ...]] = ()
PREFIX: Final = "dfa"

# The byte classes of Table 3-7: every byte value in exactly one, the bytes of a class treated
# alike in every state.
CLASSES: Final = (
    (0x00, 0x7F),
    (0x80, 0x8F),
    (0x90, 0x9F),
    (0xA0, 0xBF),
    (0xC0, 0xC1),
    (0xC2, 0xDF),
    (0xE0, 0xE0),
    (0xE1, 0xEC),
    (0xED, 0xED),
    (0xEE, 0xEF),
    (0xF0, 0xF0),
    (0xF1, 0xF3),
    (0xF4, 0xF4),
    (0xF5, 0xFF),
)

# The states, each with the bytes that lead to it after its row's first and its last lead (one
# context a sequence length for the states a length shares), the range its next byte must be in,
# and how many bytes are still due then (that one included). The start state has no range.
STATES: Final = (
    ("start", ("", ""), None, 0),
    ("tail-1 of 2", ("C2", "DF"), (0x80, 0xBF), 1),
    ("tail-1 of 3", ("E1 80", "EC BF"), (0x80, 0xBF), 1),
    ("tail-1 of 4", ("F1 80 80", "F3 BF BF"), (0x80, 0xBF), 1),
    ("tail-2 of 3", ("E1", "EF"), (0x80, 0xBF), 2),
    ("tail-2 of 4", ("F1 80", "F3 BF"), (0x80, 0xBF), 2),
    ("tail-3 of 4", ("F1", "F3"), (0x80, 0xBF), 3),
    ("after E0", ("E0", "E0"), (0xA0, 0xBF), 2),
    ("after ED", ("ED", "ED"), (0x80, 0x9F), 2),
    ("after F0", ("F0", "F0"), (0x90, 0xBF), 3),
    ("after F4", ("F4", "F4"), (0x80, 0x8F), 3),
)

# At the start, what completes a byte's shortest sequence (the second byte the lead's row allows
# first, then 80s); for a byte that begins nothing, the tails a lax codec would take after it.
SEQUENCE_REST: Final = {
    0xC0: "80",
    0xC1: "80",
    0xC2: "80",
    0xDF: "80",
    0xE0: "A0 80",
    0xE1: "80 80",
    0xEC: "80 80",
    0xED: "80 80",
    0xEE: "80 80",
    0xEF: "80 80",
    0xF0: "90 80 80",
    0xF1: "80 80 80",
    0xF3: "80 80 80",
    0xF4: "80 80 80",
    0xF5: "80 80 80",
}
AFTER: Final = ("41", "E2 82 AC")
"""The well-formed character after the tested byte: after a class's first byte, after its last."""

EDGES: Final = frozenset(edge for first, last in CLASSES for edge in (first, last))
"""The bytes family 1 tests in every state: the first and last byte of each class."""
NARROWED: Final = {"after E0", "after ED", "after F0", "after F4"}
KIND_FLAGS: Final = frozenset({"overlong", "surrogate", "out-of-range"})

# Encoding: the sequence lengths of RFC 3629 §3, with their first and last value and the number
# of bits of the scalar value they hold.
LENGTHS: Final = ((1, 0x00, 0x7F, 7), (2, 0x80, 0x7FF, 11), (3, 0x800, 0xFFFF, 16))
LENGTHS_4: Final = (4, 0x10000, 0x10FFFF, 21)
MIXED: Final = (
    ((0x00E9, 0x007F), "U+007F right after a two-byte character"),
    ((0x20AC, 0x007F), "U+007F right after a three-byte character"),
    ((0x1F600, 0x007F), "U+007F right after a four-byte character"),
    ((0x07FF, 0x0041), "ASCII right after the last two-byte value"),
    ((0xFFFF, 0x0000), "U+0000 right after the last three-byte value"),
    ((0x10FFFF, 0x007F), "U+007F right after the last scalar value"),
    ((0x0041, 0x00E9, 0x007F, 0x0800, 0x007F, 0x10000, 0x007F, 0x0080), "lengths 1 to 4 mixed"),
    (
        (0x007F, 0x0080, 0x07FF, 0x0800, 0xFFFF, 0x10000),
        "the last value of each length beside the first of the next",
    ),
    ((0xD7FF, 0xE000), "the neighbours of the surrogates, side by side"),
    ((0xE000, 0xD7FF), "the neighbours of the surrogates, reversed"),
    ((0x0041, 0xD7FF, 0x0041, 0xE000, 0x0041), "each neighbour of the surrogates between ASCII"),
)


def _class_name(first: int, last: int) -> str:
    return f"{first:02X}" if first == last else f"{first:02X}-{last:02X}"


def _rest(state: int, byte: int) -> bytes:
    """Return what follows the tested byte before the closing character (see the docstring)."""
    if state == 0:
        return bytes.fromhex(SEQUENCE_REST.get(byte, ""))
    due = STATES[state][3]
    return b"\x80" * (due - 1)


def decoding_inputs() -> Iterator[tuple[bytes, str, int, int]]:
    """Yield (bytes, provenance, state, byte) for every state, class and edge, in id order."""
    for state, (name, contexts, allowed, _) in enumerate(STATES):
        for first, last in CLASSES:
            for which, byte in enumerate(sorted({first, last})):
                prefix = bytes.fromhex(contexts[which])
                data = prefix + bytes([byte]) + _rest(state, byte)
                data += bytes.fromhex(AFTER[which])
                if allowed is None:
                    where = "start"
                else:
                    low, high = allowed
                    where = f"{name} ({hex_bytes(prefix)} read, {low:02X}-{high:02X} due)"
                why = f"{where}, class {_class_name(first, last)} at {byte:02X}"
                yield data, why, state, byte


def _cross_checked(data: bytes) -> tuple[list[reference.DecodeError], list[int]]:
    """Return the reference's errors and replaced output of `data`, having
    checked them against CPython's codec; SystemExit naming the input where the two differ."""
    errors = reference.errors(data)
    replaced = [ord(c) for c in reference.decode_replace(data)]
    theirs = [ord(c) for c in data.decode("utf-8", "replace")]
    feed = codecs.getincrementaldecoder("utf-8")("replace")
    bytewise = [ord(c) for b in data for c in feed.decode(bytes([b]))]
    bytewise += [ord(c) for c in feed.decode(b"", final=True)]
    try:
        data.decode("utf-8")
        first = None
    except UnicodeDecodeError as error:
        first = (error.start, error.end)
    ours = (errors[0].offset, errors[0].offset + errors[0].length) if errors else None
    if (replaced, replaced, ours) != (theirs, bytewise, first) or reference.validate(data) != (
        not errors
    ):
        raise SystemExit(f"{hex_bytes(data)}: the reference and CPython disagree")
    return errors, replaced


def _describe(
    why: str, data: bytes, errors: Sequence[reference.DecodeError], out: list[int]
) -> str:
    if len(out) > 4:  # family 3: too many to name
        kind = f"{len(errors)} U+FFFD and " if errors else "well-formed, "
        return f"{why}: {kind}{len(out) - len(errors)} characters."
    if not errors:
        return f"{why}: well-formed, {names(out)}."
    subparts = " | ".join(hex_bytes(data[e.offset : e.offset + e.length]) for e in errors)
    tail = names(out[len(out) - 1 :])
    return f"{why}: one U+FFFD each for {subparts}, then {tail}."


def accepts(state: int, byte: int) -> bool:
    """Return whether `byte` goes on from `state` (at the start: whether it begins a sequence)."""
    allowed = STATES[state][2]
    if allowed is None:
        return byte <= 0x7F or 0xC2 <= byte <= 0xF4
    return allowed[0] <= byte <= allowed[1]


def _well_formed_rest(lead: int) -> bytes:
    """Return the smallest bytes that complete a sequence begun by the lead `lead`: the lowest
    second byte its row of Table 3-7 allows, then 80s."""
    if lead <= 0x7F:
        return b""
    length = 2 if lead <= 0xDF else 3 if lead <= 0xEF else 4
    second = {0xE0: 0xA0, 0xF0: 0x90}.get(lead, 0x80)
    return bytes([second]) + b"\x80" * (length - 2)


def every_byte_inputs() -> Iterator[tuple[bytes, str, int, int]]:
    """Yield (bytes, provenance, state, -1) of family 3, two vectors a state: one that takes
    every byte the state allows in turn, each after the state's context and completed (every
    capability reads each of these entries); and one that puts every byte the state refuses
    after the context, one after the other, then a well-formed character: a replacing decoder
    answers each with its U+FFFD (an ASCII byte is itself the character after its error), so a
    wrong entry shows wherever it is. No context begins with a byte that could continue the
    refused byte before it, so each is read in the state it is meant for. (A strict decoder
    and a validator stop at the first error: the refused bytes reach them one a vector, in
    families 1 and 4, at the class edges.) The context alternates with the byte's parity."""
    for state, (name, contexts, allowed, due) in enumerate(STATES):
        where = "start" if allowed is None else f"{name} (after {contexts[0]} or {contexts[1]})"
        taken = b""
        refused = b""
        for byte in range(256):
            prefix = bytes.fromhex(contexts[byte % 2])
            if accepts(state, byte):
                rest = _well_formed_rest(byte) if allowed is None else b"\x80" * (due - 1)
                taken += prefix + bytes([byte]) + rest
            else:
                refused += prefix + bytes([byte])
        yield taken, f"{where}, every byte it takes, one after the other", state, -1
        yield refused + b"A", f"{where}, every byte it refuses, one after the other", state, -1


def one_tail_inputs(dues: tuple[int, ...]) -> Iterator[tuple[bytes, str, int, int]]:
    """Yield (bytes, provenance, state, byte) of families 4 (`dues` (1,)) and 5 ((3,)): in each
    state with that many continuation bytes due, each class edge the state refuses, followed by
    one continuation byte (where family 1 puts none, or two) and the closing character. A codec
    whose entry for that byte goes to the state with one continuation due (`C2 E0 80`: the entry
    TAIL1, E0 → TAIL1; `F1 41 80`: a refused entry off by one, REJECT + 1, in a table numbered as
    Hoehrmann's) reads a complete sequence, which its strict decoder returns and its validator
    passes: a `must` difference, where family 1 shows it only by the error's end, or not at all
    to a validator. (With two due, family 1 already puts one continuation there.)"""
    for state, (name, contexts, allowed, due) in enumerate(STATES):
        if due not in dues or allowed is None:
            continue
        for first, last in CLASSES:
            for which, byte in enumerate(sorted({first, last})):
                if accepts(state, byte):
                    continue
                prefix = bytes.fromhex(contexts[which])
                data = prefix + bytes([byte, 0x80]) + bytes.fromhex(AFTER[which])
                why = (
                    f"{name} ({hex_bytes(prefix)} read, {allowed[0]:02X}-{allowed[1]:02X} due),"
                    f" {byte:02X} then " + ("1 more" if due == 1 else "one continuation")
                )
                yield data, why, state, byte


def decoding_lines(
    inputs: Iterator[tuple[bytes, str, int, int]], last: int, heading: bool = True
) -> list[str]:
    """Return the YAML of the decoding vectors `inputs`, numbered on from `last`."""
    lines = ["decode:"] if heading else []
    for number, (data, why, state, _) in enumerate(inputs, start=last + 1):
        errors, replaced = _cross_checked(data)
        flags = ["boundary", "state-transition"]
        if STATES[state][0] in NARROWED:
            flags.append("narrowed-second-byte")
        flags += sorted({str(e.kind) for e in errors} & KIND_FLAGS)
        description = _describe(why, data, errors, replaced)
        subparts = [(e.offset, e.length, str(e.kind)) for e in errors]
        lines += decode_entry(f"{PREFIX}-{number}", description, flags, data, replaced, subparts)
    return lines


def encoding_inputs() -> Iterator[tuple[tuple[int, ...], str]]:
    """Yield (scalar values, provenance) of the encoding family, in id order."""
    for length, low, high, bits in (*LENGTHS, LENGTHS_4):
        where = f"{length}-byte range U+{low:04X}..U+{high:04X}"
        for bit in range(bits):
            alone = 1 << bit
            if alone < low:
                yield (
                    (low | alone,),
                    f"bit {bit} of {where} (alone below the range: with its first bit)",
                )
            else:
                yield (alone,), f"bit {bit} of {where}, alone"
        every = (1 << bits) - 1
        if every > high:
            yield (high,), f"all bits of {where} (U+{every:04X} is past U+10FFFF: its last value)"
            yield (every >> 1,), f"bits 0-{bits - 2} of {where}, all set"
        else:
            yield (every,), f"all bits of {where} set, its last value"
        yield (low,), f"the first value of {where}"
    yield from MIXED


def encoding_lines(number: int) -> list[str]:
    """Return the YAML of the encoding vectors, numbered on from `number`."""
    lines = ["encode:"]
    seen: set[tuple[int, ...]] = set()
    for values, why in encoding_inputs():
        if values in seen:
            continue
        seen.add(values)
        number += 1
        ours = reference.encode(values)
        if ours != "".join(map(chr, values)).encode("utf-8"):
            raise SystemExit(f"{names(values)}: the reference and CPython disagree")
        description = f"{why}: {names(values)}, written {hex_bytes(ours)}."
        if len(description) > 200 or "'" in description:
            raise SystemExit(f"description over 200 characters or quoted: {description}")
        lines += [
            f"  - id: {PREFIX}-{number}",
            f"    description: '{description}'",
            "    source: RFC 3629 §3",
            "    flags: [boundary]",
            f"    scalars: [{names(values)}]",
            f'    bytes: "{hex_bytes(ours)}"',
            "",
        ]
    return lines


STATE_TRANSITION: Final = """\
  state-transition:
    defect: >-
      One entry of the RFC 3629 §4 automaton (Unicode §3.9 Table 3-7): a byte of one class read
      in one state, then the continuation bytes that state still wants and a well-formed
      character. A table-driven decoder has one entry per (state, byte class) pair, and a wrong
      one shows only on an input that reads it. Catches a lead byte taken where a continuation
      is due, a continuation refused, a validator that says True for ill-formed input, and a
      well-formed character swallowed after the error. At the default depth these vectors run as
      they are, whole and byte by byte (check/schedule.py), on every capability."""
FLAGS: Final = (
    "boundary", "state-transition", "narrowed-second-byte", "overlong", "surrogate",
    "out-of-range",
)  # fmt: skip
"""The flags of the file's notes, in order."""


def render() -> str:
    """Return the text of vectors/automaton.yaml."""
    decoding = decoding_lines(decoding_inputs(), 0)
    encoding = encoding_lines(sum(line.startswith("  - id: ") for line in decoding))
    number = sum(line.startswith("  - id: ") for line in decoding + encoding)
    every_byte = decoding_lines(every_byte_inputs(), number, heading=False)
    number += sum(line.startswith("  - id: ") for line in every_byte)
    one_more = decoding_lines(one_tail_inputs((1,)), number, heading=False)
    number += sum(line.startswith("  - id: ") for line in one_more)
    one_tail = decoding_lines(one_tail_inputs((3,)), number, heading=False)
    lines = [
        "# Written by bench/automaton_vectors.py (python bench/automaton_vectors.py); do not edit"
        " by hand.",
        'schema_version: "1.0"',
        "theme: automaton",
        "description: >",
        "  Every transition of the RFC 3629 §4 automaton (Unicode §3.9 Table 3-7): each state (the",
        "  start; one, two or three continuation bytes due, after the first and the last lead of",
        "  the row; the narrowed first continuation after E0, ED, F0, F4) meets each of the 14",
        "  byte classes at the class's first and last byte, followed by the continuation bytes",
        "  the state still wants and a well-formed character. Each description names its state",
        "  and class. To encode: every bit of the scalar value in every sequence length, all bits",
        "  set, each length's first value, and runs that mix lengths. Byte by byte: every byte",
        "  value each state takes, in one well-formed vector a state; every byte value it",
        "  refuses, each followed by a character, in one vector a state (for replace mode); and",
        "  where one or three continuations are due, each refused class edge followed by one.",
        "sources:",
        "  - RFC 3629 §3 (the bit layout of each length), §4 (the ABNF, one alternative a row)",
        "  - Unicode §3.9 Table 3-7 (well-formed byte sequences), D93b (maximal subparts)",
        notes({"state-transition": STATE_TRANSITION}, FLAGS),
        f"retired: [{', '.join(RETIRED)}]",
        *decoding,
        *every_byte,
        *one_more,
        *one_tail,
        *encoding,
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write vectors/automaton.yaml (or, with --check, compare); return the exit status."""
    return vector_yaml.main(argv, "bench/automaton_vectors.py", TARGET, render)


if __name__ == "__main__":
    sys.exit(main())
