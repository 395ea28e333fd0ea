"""Write vectors/windows.yaml: what a codec of any construction reads, each window held once.

    python bench/window_vectors.py [--check]

A validator built on tables or SIMD registers reads windows of adjacent bytes (their values, or
their nibbles) and positions modulo a block; a decoder reads a lead and the bytes after it; an
encoder reads a scalar value's bit length. docs/mutation.md ("Coverage that assumes no design")
gives the argument; tests/vectors/test_window_coverage.py proves each claim from the bytes of
the file. The file is data, written out once and committed; `--check` (exit 1 on a difference)
keeps it and this script in step. Expected outputs are the reference's, each checked here
against CPython's codec, so that the script stops rather than write a vector the two disagree
on. Every vector carries the flag `window`: it runs as it is, whole, on every capability
(check/schedule.py), never in the variants, since it is its own layout.

No vector is longer than LONGEST bytes (under 1,000): the windows are packed into as many
vectors as they need, so that a long input of the suite never reaches by itself the page sizes
(1,000, 4,096, 8,192 bytes) whose bugs the check's straddle layouts and the fuzzer are to find
(tests/check/test_broken_codecs.py, tests/fuzzing/test_fuzz_past_seeds.py). Each vector carries
the flag `window` and the flag of each kind of error it holds (and `narrowed-second-byte` where
it reads E0, ED, F0 or F4 with a continuation byte), as the other files flag theirs; those notes
are copied from the files that define them.

Families, in id order (new families go at the end; a removed vector's id goes into `RETIRED`):
1. decoding, well-formed, long: every ASCII byte before and after each multi-byte length, and
   every length beside every other, both ways.
2. decoding, well-formed, long: every (lead, second byte) pair RFC 3629 allows, by byte value,
   which is every two-byte scalar value and every three- and four-byte lead with each second
   byte it takes (E4 A0..BF among them); and every pair of continuation bytes by value in the
   second and third place of a three-byte sequence, and in the second/third and third/fourth
   place of a four-byte one.
3. decoding, ill-formed, long (for replace mode and the incremental decoder, which place every
   error): every byte that ends a character (00..BF) before every byte that can start no
   sequence (80..BF, C0, C1, F5..FF), by value, each error alone between well-formed bytes.
   (Families 1 to 3 and 6's long inputs are packed into vectors of at most LONGEST bytes.)
4. decoding, ill-formed, one error each: every lead C0..FF followed by a second byte of each high
   nibble 0..F that makes the input ill-formed, in well-formed context; a validator answers one
   bit an input, so each such window is the only error of an input of its own. A second byte
   80..BF is followed by the continuation bytes a lead of that high nibble wants (FF 90 80 80).
5. decoding, ill-formed, one error each: every byte that ends a character (00..BF) before a byte
   that can start no sequence, the byte after cycling through them.
6. decoding, ill-formed: each cut-short sequence (C2; E0 A0; F0 90 80) with its last byte at
   every offset modulo 64 after a whole 64-byte block of ASCII, at the end of the input, one
   error an input; those and each byte that starts no sequence (80; C0; FF) ending on the last
   byte of a 16-byte block and followed by whole ASCII, one error an input; and (long vectors)
   each of the six with its first and last byte at every offset modulo 64, between runs of at
   least 64 ASCII bytes (each run serves the error before it and the one after it).
7. encoding: every scalar bit length 0..21 beside every other, both ways (an Eulerian walk,
   cut into vectors of at most LONGEST bytes that overlap by one value), and the bit lengths
   0..7 beside each other in an ASCII-only vector.
"""

from __future__ import annotations

import codecs
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: bench/ is on the path, the repository is not
    sys.path.insert(0, str(ROOT))

from itertools import groupby, pairwise  # noqa: E402

from bench import vector_yaml  # noqa: E402
from bench.vector_yaml import decode_entry, hex_bytes, names, notes  # noqa: E402
from utf8cert import reference  # noqa: E402

TARGET: Final = ROOT / "vectors" / "windows.yaml"
RETIRED: Final[tuple[str, ...]] = ()
LONGEST: Final = 960
"""The most bytes a vector holds (15 blocks of 64; under the 1,000-byte page of the fuzzer's
planted codecs, and far under 4,096)."""
PREFIX: Final = "win"
BLOCK: Final = 64
"""The widest block a vectorised validator reads (64 bytes: AVX-512; 16 and 32 divide it)."""
WINDOW_FLAG: Final = "window"
NARROWED: Final = "narrowed-second-byte"

SECOND: Final = {0xE0: (0xA0, 0xBF), 0xED: (0x80, 0x9F), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}
"""The narrowed second-byte ranges of RFC 3629 §4; every other lead takes 80..BF."""
NO_START: Final = (*range(0x80, 0xC2), *range(0xF5, 0x100))
"""The bytes that can start no sequence (RFC 3629 §4): continuation bytes, C0, C1, F5..FF."""
BAD_BY_NIBBLE: Final = {
    nibble: [byte for byte in NO_START if byte >> 4 == nibble]
    for nibble in (8, 9, 0xA, 0xB, 0xC, 0xF)
}
"""The bytes that can start no sequence, by high nibble (the resolution of a nibble table)."""
ENDS_CHARACTER: Final = range(0x00, 0xC0)
"""The bytes a character can end with: ASCII, and a continuation byte."""
CUT_SHORT: Final = (b"\xc2", b"\xe0\xa0", b"\xf0\x90\x80", b"\x80", b"\xc0", b"\xff")
"""The flagged sequences of family 6: the longest cut-short prefix of each length, each the
lowest lead of its length with its lowest second byte (an incomplete-tail threshold one too high,
E1 or F1, misses just these), and a byte of each kind that starts no sequence."""
WANTED: Final = {0xC: 0, 0xD: 0, 0xE: 1, 0xF: 2}
"""The continuation bytes a lead of each high nibble wants after its second byte, as a nibble
table reads it (F8..FF taken for four-byte leads)."""
REPRESENTATIVES: Final = {
    1: (0x0A, 0x41, 0x7F),
    2: (0xE9, 0x7FF, 0x80),
    3: (0x20AC, 0x4800, 0xFFFD),
    4: (0x10000, 0x1F600, 0x10FFFF),
}
"""Scalar values of each multi-byte length, cycled through in family 1."""


def second_range(lead: int) -> range:
    """Return the second bytes RFC 3629 §4 allows after `lead` (empty for a byte that is no
    lead)."""
    if lead < 0xC2 or lead > 0xF4:
        return range(0)
    low, high = SECOND.get(lead, (0x80, 0xBF))
    return range(low, high + 1)


def length_of(lead: int) -> int:
    """Return the sequence length a lead C2..F4 begins (1 for anything else)."""
    return 2 if 0xC2 <= lead <= 0xDF else 3 if 0xE0 <= lead <= 0xEF else 4 if lead >= 0xF0 else 1


def sequence(lead: int, second: int, rest: int = 0x80) -> bytes:
    """Return the well-formed sequence of `lead` and `second`, its other bytes `rest`."""
    return bytes([lead, second]) + bytes([rest]) * (length_of(lead) - 2)


def length_classes() -> Iterator[bytes]:
    """Yield family 1's pieces: each ASCII byte before and after each length, then each length
    beside every other (a value of each length cycling through REPRESENTATIVES)."""
    turn = 0
    for ascii_byte in range(0x80):
        for length in (2, 3, 4):
            value = REPRESENTATIVES[length][turn % 3]
            turn += 1
            yield bytes([ascii_byte]) + chr(value).encode() + bytes([ascii_byte])
    for first in REPRESENTATIVES:
        for second in REPRESENTATIVES:
            pair = (REPRESENTATIVES[first][turn % 3], REPRESENTATIVES[second][turn % 3])
            yield "".join(map(chr, pair)).encode()
            turn += 1


def lead_second_pairs() -> Iterator[bytes]:
    """Yield every (lead, second byte) pair RFC 3629 allows, each as a whole sequence whose
    later bytes cycle through 80..BF."""
    for lead in range(0xC2, 0xF5):
        for count, second in enumerate(second_range(lead)):
            yield sequence(lead, second, 0x80 + (count * 7) % 64)


def continuation_pairs(length: int) -> Iterator[bytes]:
    """Yield a sequence of `length` bytes for every pair of continuation values (a, b): a, b
    in places 2-3, and in a four-byte sequence b, a in places 3-4 too (so one sequence holds
    two pairs, and every pair comes up in both places); the lead cycles through those that
    take any second byte (E1..EC or F1..F3)."""
    leads = range(0xE1, 0xED) if length == 3 else range(0xF1, 0xF4)
    for first in range(0x80, 0xC0):
        for second in range(0x80, 0xC0):
            body = [first, second, first][: length - 1]
            yield bytes([leads[(first + second) % len(leads)], *body])


def errors_after_every_end(ends: Sequence[int]) -> Iterator[bytes]:
    """Yield every byte of `ends` before a byte that starts no sequence of every high nibble
    (8, 9, A, B, C for C0 and C1, F for F5..FF), the bad byte's low bits cycling so that every
    such byte value comes up: a continuation byte among `ends` ends a two-byte character (C2
    before it). Each error is a byte alone between well-formed bytes (the next piece's first
    byte, or the end of input)."""
    for count, end in enumerate(ends):
        before = bytes([0xC2, end]) if end >= 0x80 else bytes([end])
        for values in BAD_BY_NIBBLE.values():
            yield before + bytes([values[count % len(values)]])


def packed(pieces: Iterable[bytes]) -> Iterator[bytes]:
    """Yield `pieces` joined into inputs of at most LONGEST bytes, each piece whole in one."""
    out = bytearray()
    for piece in pieces:
        if out and len(out) + len(piece) > LONGEST:
            yield bytes(out)
            out.clear()
        out += piece
    if out:
        yield bytes(out)


def lead_nibble_inputs() -> Iterator[tuple[bytes, str]]:
    """Yield family 4: each lead C0..FF with each second-byte high nibble that makes the input
    ill-formed, between 41 and a well-formed character; the second byte's low nibble is the
    lead's (a valid lead where the nibble is C..F), so that values vary."""
    for lead in range(0xC0, 0x100):
        for nibble in range(16):
            low = lead & 0x0F
            second = nibble << 4 | low
            if nibble == 0xC:
                second = 0xC2 | (low & 0x0D)
            elif nibble == 0xF:
                second = 0xF0 | (1 + low % 3)
            if second in second_range(lead):
                continue
            # After a continuation byte, the ones a lead of that high nibble still wants (C, D:
            # none; E: one; F: two), so that a table that misses the error reads a whole
            # sequence (FF 90 80 80) and no later byte gives it away.
            follow = chr(0x20AC).encode() if nibble < 8 else b"\x80" * WANTED[lead >> 4]
            if second >= 0xC2 and second <= 0xF4:
                follow = sequence(second, second_range(second)[low % 8])[1:]
            data = b"\x41" + bytes([lead, second]) + follow + b"\x41"
            yield data, f"lead {lead:02X}, second byte {second:02X} (high nibble {nibble:X})"


def end_before_error_inputs() -> Iterator[tuple[bytes, str]]:
    """Yield family 5: each byte that ends a character before a byte that starts no sequence,
    the bad byte cycling through them (a continuation byte for most: the windows a nibble
    table's first-byte cells read after ASCII and after a tail), then 41."""
    for count, end in enumerate(ENDS_CHARACTER):
        bad = NO_START[(count * 5) % len(NO_START)]
        before = bytes([0xC2, end]) if end >= 0x80 else bytes([end])
        yield b"\x41" + before + bytes([bad]) + b"\x41", f"{end:02X} then {bad:02X}"


def placed(flagged: bytes, end: int) -> bytes:
    """Return a whole block of ASCII and more, then `flagged` ending at offset `end` mod 64."""
    start = BLOCK + (end - len(flagged) + 1) % BLOCK
    return b"\x41" * start + flagged


def then_block(data: bytes) -> bytes:
    """Return `data`, then ASCII to the end of its block and one whole block more."""
    return data + b"\x61" * ((-len(data)) % BLOCK + BLOCK)


def offset_inputs() -> Iterator[tuple[bytes, str]]:
    """Yield family 6's one-error inputs: each cut-short sequence (the first three of CUT_SHORT)
    ending at each offset modulo 64 after a whole block of ASCII, at the end of the input; and
    each of CUT_SHORT ending on a 16-byte block's last byte and followed by whole ASCII: the
    byte after it is the next block's, and the lead of each sequence is where the incomplete-
    tail test reads it (C2 on the last byte, E0 on the second-to-last, F0 on the third-to-last);
    a sequence ending sooner is judged within its block."""
    for flagged in CUT_SHORT[:3]:
        for end in range(BLOCK):
            where = f"{hex_bytes(flagged)} ending at offset {end} mod 64"
            yield placed(flagged, end), f"{where}, at the end of the input"
    for flagged in CUT_SHORT:
        for end in range(BLOCK):
            where = f"{hex_bytes(flagged)} ending at offset {end} mod 64"
            if end % 16 == 15:
                yield then_block(placed(flagged, end)), f"{where}, then ASCII to a whole block"


def placements() -> Iterator[bytes]:
    """Yield family 6's long inputs: each of CUT_SHORT with its first and last byte at every
    offset modulo 64, each after and before at least a whole block of ASCII; one run of 64 to
    127 ASCII bytes between two of them serves both (it puts the next at its offset). The
    starts of one sequence go up by its length, so that most runs are 64 bytes exactly."""
    out = bytearray()
    for flagged in CUT_SHORT:
        step = len(flagged)
        starts = [(first + step * k) % BLOCK for first in range(step) for k in range(BLOCK)]
        for start in dict.fromkeys(starts):
            ascii_run = BLOCK + (start - len(out) - BLOCK) % BLOCK
            if out and len(out) + ascii_run + len(flagged) + BLOCK > LONGEST:
                yield bytes(out + b"\x41" * BLOCK)
                out.clear()
                ascii_run = BLOCK + (start - BLOCK) % BLOCK
            out += b"\x41" * ascii_run + flagged
    yield bytes(out + b"\x41" * BLOCK)


def eulerian_walk(values: Sequence[int]) -> list[int]:
    """Return values in an order that puts each of `values` right before every one of them
    (itself too), each ordered pair once: an Eulerian circuit of the complete directed graph
    with loops, found by Hierholzer's algorithm (len(values) ** 2 + 1 values)."""
    unused = {value: list(values) for value in values}
    stack, walk = [values[0]], []
    while stack:
        if unused[stack[-1]]:
            stack.append(unused[stack[-1]].pop())
        else:
            walk.append(stack.pop())
    return walk[::-1]


def cut_walk(walk: Sequence[int]) -> list[list[int]]:
    """Return `walk` cut into runs whose UTF-8 is at most LONGEST bytes, each run beginning
    with the value the run before ends with (so every adjacent pair stays in some run)."""
    runs: list[list[int]] = [[walk[0]]]
    size = len(chr(walk[0]).encode())
    for value in walk[1:]:
        width = len(chr(value).encode())
        if size + width > LONGEST:
            runs.append([runs[-1][-1]])
            size = len(chr(runs[-1][0]).encode())
        runs[-1].append(value)
        size += width
    return runs


def scalar_of_bits(bits: int) -> int:
    """Return a scalar value with exactly `bits` significant bits, outside the surrogates."""
    if bits == 0:
        return 0
    value = 1 << (bits - 1) | ((1 << (bits - 1)) - 1) // 3
    return value if value <= 0x10FFFF else 0x100000 | value & 0xFFFF


def _cross_checked(data: bytes) -> tuple[list[reference.DecodeError], list[int]]:
    """Return the reference's errors and replaced output of `data`, checked against CPython."""
    errors = reference.errors(data)
    replaced = [ord(c) for c in reference.decode_replace(data)]
    theirs = [ord(c) for c in data.decode("utf-8", "replace")]
    feed = codecs.getincrementaldecoder("utf-8")("replace")
    whole = [ord(c) for c in feed.decode(data, final=True)]
    if replaced != theirs or replaced != whole or reference.validate(data) != (not errors):
        raise SystemExit(f"{hex_bytes(data[:40])}...: the reference and CPython disagree")
    return errors, replaced


def runs(values: Sequence[int]) -> str:
    """Return the values as comma-separated U+XXXX, a run of three or more as U+XXXX*N."""
    items = []
    for value, group in groupby(values):
        count = len(list(group))
        name = f"U+{value:04X}"
        items += [f"{name}*{count}"] if count > 2 else [name] * count
    return ", ".join(items)


def one_run(errors: Sequence[reference.DecodeError]) -> bool:
    """Return whether `errors` are one ill-formed run: each starts where the one before ends."""
    return len(errors) > 0 and all(
        after.offset == before.offset + before.length for before, after in pairwise(errors)
    )


def flags_of(data: bytes, errors: Sequence[reference.DecodeError]) -> list[str]:
    """Return a vector's flags: `window`, each kind of error it holds (a flag of that name in
    the other files), and `narrowed-second-byte` where E0, ED, F0 or F4 meets a continuation
    byte (an end of its narrowed range, or past it)."""
    kinds = {str(error.kind) for error in errors}
    if any(lead in SECOND and 0x80 <= after <= 0xBF for lead, after in pairwise(data)):
        kinds.add(NARROWED)
    return [WINDOW_FLAG, *sorted(kinds)]


def decoding_lines(inputs: Sequence[tuple[bytes, str, bool]], last: int) -> list[str]:
    """Return the YAML of decoding vectors `inputs` (bytes, provenance, whether the input is to
    hold one ill-formed run only), numbered on from `last`."""
    lines: list[str] = []
    for number, (data, why, alone) in enumerate(inputs, start=last + 1):
        if len(data) > LONGEST:
            raise SystemExit(f"{why}: {len(data)} bytes, over {LONGEST}")
        errors, replaced = _cross_checked(data)
        if alone and not one_run(errors):
            raise SystemExit(f"{hex_bytes(data)}: not one ill-formed run between well-formed bytes")
        verdict = f"{len(errors)} U+FFFD" if errors else "well-formed"
        description = f"{why}: {verdict}, {len(replaced)} characters."
        subparts = [(e.offset, e.length, str(e.kind)) for e in errors]
        flags = flags_of(data, errors)
        entry = decode_entry(f"{PREFIX}-{number}", description, flags, data, replaced, subparts)
        lines += [_compressed(line, replaced) for line in entry]
    return lines


def _compressed(line: str, values: Sequence[int]) -> str:
    """Return a `scalars:` or `replaced:` line of `values` with its runs written U+XXXX*N."""
    for field in ("    scalars: [", "    replaced: ["):
        if line.startswith(field):
            return f"{field}{runs(values)}]"
    return line


def encoding_lines(number: int) -> list[str]:
    """Return the YAML of family 7, numbered on from `number`."""
    lines: list[str] = []
    every = cut_walk(eulerian_walk([scalar_of_bits(bits) for bits in range(22)]))
    ascii_only = eulerian_walk([scalar_of_bits(bits) for bits in range(8)])
    parts = [(run, f"every bit length 0..21 beside every other, part {n}") for n, run in
             enumerate(every, start=1)]  # fmt: skip
    for values, why in (*parts, (ascii_only, "every ASCII bit length 0..7 beside every other")):
        number += 1
        ours = reference.encode(values)
        if ours != "".join(map(chr, values)).encode("utf-8"):
            raise SystemExit(f"{why}: the reference and CPython disagree")
        lines += [
            f"  - id: {PREFIX}-{number}",
            f"    description: '{why}, both ways: {len(values)} values.'",
            "    source: RFC 3629 §3",
            f"    flags: [{WINDOW_FLAG}]",
            f"    scalars: [{names(values)}]",
            f'    bytes: "{hex_bytes(ours)}"',
            "",
        ]
    return lines


def decoding_inputs() -> list[tuple[bytes, str, bool]]:
    """Return families 1 to 6, in id order, each input with whether it holds one error only."""
    bad = "a byte no sequence starts with, of each high nibble"
    families = [
        (length_classes(), "ASCII bytes beside each length, each length beside every other"),
        (lead_second_pairs(), "(lead, second byte) pairs of RFC 3629 by value"),
        (continuation_pairs(3), "Pairs of continuation values in places 2-3 of E1..EC"),
        (continuation_pairs(4), "Pairs of continuation values in places 2-3 and 3-4 of F1..F3"),
        (errors_after_every_end(range(0x80)), f"ASCII bytes before {bad}"),
        (errors_after_every_end(range(0x80, 0xC0)), f"Tails ending a character before {bad}"),
    ]
    long = [
        (data, f"{why}, part {part}")
        for pieces, why in families
        for part, data in enumerate(packed(pieces), start=1)
    ]
    between = "C2; E0 A0; F0 90 80; 80; C0; FF, each at every offset mod 64 between ASCII"
    long += [(data, f"{between}, part {n}") for n, data in enumerate(placements(), start=1)]
    alone = [
        *lead_nibble_inputs(),
        *end_before_error_inputs(),
        *offset_inputs(),
    ]
    return [(data, why, False) for data, why in long] + [(data, why, True) for data, why in alone]


WINDOW: Final = """\
  window:
    defect: >-
      A window a codec of any construction reads (docs/mutation.md, "Coverage that assumes no
      design"): adjacent byte values, a lead with its second byte's high nibble, the end of a
      flagged sequence at an offset modulo 64, a scalar value's bit length beside another's.
      Catches a lookup-table or SIMD validator with one table cell or block-boundary test wrong,
      and a decoder or encoder wrong for one value the other vectors never hold. These vectors
      run as they are, whole (check/schedule.py): each is its own layout."""


def copied_note(flag: str) -> str:
    """Return the note of `flag` as the first other file under vectors/ that defines it writes
    it (a flag means the same in every file: the note is copied, never reworded)."""
    for path in sorted(TARGET.parent.glob("*.yaml")):
        if path == TARGET:
            continue
        text = path.read_text(encoding="utf-8")
        block = text[text.find("\nnotes:\n") + 1 : text.find("\nretired:")].splitlines()
        if f"  {flag}:" in block:
            at = block.index(f"  {flag}:")
            rest = block[at + 1 :]
            end = next((n for n, line in enumerate(rest) if not line.startswith("    ")), len(rest))
            return "\n".join(block[at : at + 1 + end])
    raise SystemExit(f"no file under vectors/ defines the flag {flag!r}")


def render() -> str:
    """Return the text of vectors/windows.yaml."""
    decoding = decoding_lines(decoding_inputs(), 0)
    encoding = encoding_lines(sum(line.startswith("  - id: ") for line in decoding))
    used = {
        flag
        for line in decoding + encoding
        if line.startswith("    flags: [")
        for flag in line[len("    flags: [") : -1].split(", ")
    }
    order = (WINDOW_FLAG, *sorted(used - {WINDOW_FLAG}))
    own = {WINDOW_FLAG: WINDOW} | {flag: copied_note(flag) for flag in order[1:]}
    lines = [
        "# Written by bench/window_vectors.py (python bench/window_vectors.py); do not edit"
        " by hand.",
        'schema_version: "1.0"',
        "theme: windows",
        "description: >",
        "  What a codec of any construction reads, each window held once (issue 44): every ASCII",
        "  byte beside every length and every length beside every other; every (lead, second",
        "  byte) pair and every pair of continuation values, by value; every byte ending a",
        "  character before every byte that starts no sequence; every lead C0..FF with every",
        "  second-byte high nibble, and each cut-short sequence ending at every offset modulo 64,",
        "  one error an input; every scalar bit length beside every other, to encode.",
        "sources:",
        "  - RFC 3629 §3 (the bit layout of each length), §4 (the ABNF, one alternative a row)",
        "  - Unicode §3.9 Table 3-7 (well-formed byte sequences), D93b (maximal subparts)",
        "  - Keiser and Lemire, Validating UTF-8 in less than one instruction per byte (2021)",
        notes(own, order),
        f"retired: [{', '.join(RETIRED)}]",
        "decode:",
        *decoding,
        "encode:",
        *encoding,
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write vectors/windows.yaml (or, with --check, compare); return the exit status."""
    return vector_yaml.main(argv, "bench/window_vectors.py", TARGET, render)


if __name__ == "__main__":
    sys.exit(main())
