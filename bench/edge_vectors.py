"""Write vectors/edges.yaml: every byte value at the edge of every range of RFC 3629 §4.

    python bench/edge_vectors.py [--check]

The file is data, written out once and committed: nothing generates vectors at load time. This
script is how it was written, and `--check` (exit 1 on a difference) is how
tests/vectors/test_edge_vectors.py keeps the two in step. The expected values come from a small
scan of Unicode §3.9 Table 3-7 written here (not the reference codec: the vectors judge it); the
tests then check every vector against the reference, CPython and a second formulation.

What it covers, in this order (ids are given in this order, so new families go at the end, and
an id is never reused: a removed vector's id goes into `RETIRED`):
1. each Table 3-7 row's lead bytes at both ends (C2 DF, E0, E1 EC, ED, EE EF, F0, F1 F3, F4),
   with the byte at each later position (2 to 4) set to 7F, 80, BF and C0 (just outside, both
   ends, just outside the UTF8-tail range) and, in the second position after E0, ED, F0 and F4,
   to both ends of the narrowed range's inner edge (9F A0 for E0 and ED, 8F 90 for F0 and F4);
   the bytes before it are the row's smallest, the bytes after it 80;
2. each byte at the end of a range that begins no character (00 7F as UTF8-1 then a tail, 80 BF,
   C0 C1, F5 F7, F8 FD, FE FF) followed by the tail 80;
3. a well-formed U+FFFD (EF BF BD) right before and right after each kind of ill-formed
   sequence;
4. (encoding) a surrogate at each end of its range beside the scalar value just outside it;
5. (encoding) a surrogate followed by U+6C00, U+6FFF, U+1B000 or U+1BFFF, which a surrogate test
   of the wrong width (v >> 10 or v >> 12 compared with 0x1B) takes for surrogates.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: bench/ is on the path, the repository is not
    sys.path.insert(0, str(ROOT))

from bench import vector_yaml  # noqa: E402
from bench.vector_yaml import Error, decode_entry, hex_bytes, names, notes  # noqa: E402

TARGET: Final = ROOT / "vectors" / "edges.yaml"
RETIRED: Final[tuple[str, ...]] = ()

# Unicode §3.9 Table 3-7 (RFC 3629 §4), one row a lead range: (first, last, second byte range,
# length, what a UTF8-tail outside the narrowed second range would encode).
ROWS: Final = (
    (0xC2, 0xDF, (0x80, 0xBF), 2, ""),
    (0xE0, 0xE0, (0xA0, 0xBF), 3, "overlong"),
    (0xE1, 0xEC, (0x80, 0xBF), 3, ""),
    (0xED, 0xED, (0x80, 0x9F), 3, "surrogate"),
    (0xEE, 0xEF, (0x80, 0xBF), 3, ""),
    (0xF0, 0xF0, (0x90, 0xBF), 4, "overlong"),
    (0xF1, 0xF3, (0x80, 0xBF), 4, ""),
    (0xF4, 0xF4, (0x80, 0x8F), 4, "out-of-range"),
)
NOT_A_LEAD: Final = (
    (0x80, 0xBF, "unexpected-continuation"),
    (0xC0, 0xC1, "overlong"),
    (0xF5, 0xF7, "out-of-range"),
    (0xF8, 0xFD, "legacy-form"),
    (0xFE, 0xFF, "invalid-byte"),
)
TAIL: Final = (0x80, 0xBF)
FFFD: Final = bytes([0xEF, 0xBF, 0xBD])

FLAGS: Final = (
    "boundary", "narrowed-second-byte", "overlong", "surrogate", "out-of-range",
    "literal-replacement",
)  # fmt: skip
"""The flags of the file's notes, in order."""

# The flags are those of the other files, notes copied word for word (a flag means the same in
# every file), so that these vectors add no new trait for the schedule to cover (schedule.py:
# each trait costs straddles of up to 64 KiB, and the default check has a budget of 16 MB).

# Edge inputs that other files already hold (the same bytes with the same expectation, as
# tests/vectors/test_vectors_files.py requires), left out so that the check asks them once:
# a fixed list, so that this file never depends on the others.
ELSEWHERE: Final = {
    "C2 80": "bnd-4",
    "C2 BF": "bnd-38",
    "DF 80": "bnd-39",
    "DF BF": "bnd-5",
    "E0 80 80": "ovl-11",
    "E0 A0 80": "bnd-6",
    "E0 A0 C0": "trunc-60",
    "E1 80 80": "bnd-8",
    "ED 80 80": "bnd-10",
    "ED A0 80": "sur-1",
    "EE 80 80": "bnd-12",
    "EE C0 80": "lead-63",
    "F0 80 80 80": "ovl-12",
    "F0 90 80 80": "bnd-16",
    "F1 80 80 80": "bnd-18",
    "F1 80 80 C0": "trunc-52",
    "F4 80 80 80": "bnd-20",
    "F4 90 80 80": "sec-15",
    "7F 80": "bnd-37",
    "C0 80": "sec-1",
    "C1 80": "ovl-16",
    "F5 80": "imp-17",
}

# The inputs the mutation analysis found missing (docs/mutation.md), with the defect each catches.
CATCHES: Final = {
    "E0 C0 80": "catches an E0 second-byte range up to C0 (reads an overlong U+0000)",
    "F0 C0 80 80": "catches an F0 second-byte range up to C0 (reads an overlong U+0000)",
    "ED 7F 80": "catches an ED second-byte range from 7F (reads the surrogate U+DFC0)",
    "F4 7F 80 80": "catches an F4 second-byte range from 7F (a bad value, or a crash)",
    "E0 A0 7F": "catches a later tail range from 7F (reads U+083F)",
}


def _row(lead: int) -> tuple[tuple[int, int], int, str] | None:
    """Return (second range, length, narrowed-out kind) of a lead byte's row; None: no row."""
    for first, last, second, length, out in ROWS:
        if first <= lead <= last:
            return second, length, out
    return None


def _scan(data: bytes) -> tuple[list[int], list[Error]]:
    """Return the scalars and the maximal subparts (offset, length, kind) of `data`, and put
    one U+FFFD a subpart in the scalars (so they are the replaced output)."""
    out: list[int] = []
    errors: list[Error] = []
    at = 0
    while at < len(data):
        lead = data[at]
        if lead < 0x80:
            out.append(lead)
            at += 1
            continue
        row = _row(lead)
        if row is None:
            kind = next(k for first, last, k in NOT_A_LEAD if first <= lead <= last)
            errors.append((at, 1, kind))
            out.append(0xFFFD)
            at += 1
            continue
        second, length, narrowed_out = row
        seen = 1
        kind = ""
        while seen < length:
            if at + seen == len(data):
                kind = "truncated"
                break
            low, high = second if seen == 1 else TAIL
            byte = data[at + seen]
            if not low <= byte <= high:
                in_tail = TAIL[0] <= byte <= TAIL[1]
                kind = narrowed_out if seen == 1 and in_tail and narrowed_out else ""
                kind = kind or "missing-continuation"
                seen = 1 if kind != "missing-continuation" else seen
                break
            seen += 1
        if kind:
            errors.append((at, seen, kind))
            out.append(0xFFFD)
        else:
            out.append(ord(data[at : at + length].decode("utf-8")))
        at += seen
    return out, errors


def _edge_inputs() -> Iterator[tuple[bytes, str, list[str]]]:
    """Yield (bytes, why, flags) of each family, in id order."""
    for first, last, second, length, narrowed_out in ROWS:
        for lead in sorted({first, last}):
            for place in range(2, length + 1):
                edges = [0x7F, 0x80, 0xBF, 0xC0]
                if place == 2 and narrowed_out:
                    inner = second[1] + 1 if second[0] == 0x80 else second[0] - 1
                    edges += sorted({inner, second[1] if second[0] == 0x80 else second[0]})
                for edge in sorted(set(edges)):
                    before = [second[0]] + [0x80] * (place - 3) if place > 2 else []
                    data = bytes([lead, *before, edge] + [0x80] * (length - place))
                    flags = ["boundary"]
                    if place == 2 and narrowed_out:
                        flags.append("narrowed-second-byte")
                    where = f"byte {place} of {length} after {lead:02X}"
                    yield data, f"{hex_bytes(bytes([edge]))} as {where}", flags
    for first, last, kind in ((0x00, 0x7F, ""), *NOT_A_LEAD):
        for lead in (first, last):
            what = f"an end of the {kind} bytes" if kind else "an end of UTF8-1"
            yield bytes([lead, 0x80]), f"{lead:02X} ({what}) then 80", ["boundary"]
    for bad in ("80", "C0 80", "E0 80", "ED A0 80", "F4 90 80 80", "E1 80 41", "F8", "FF"):
        data = FFFD + bytes.fromhex(bad) + FFFD
        yield data, f"U+FFFD, then {bad}, then U+FFFD", ["literal-replacement"]


# Encoding, family 4: a surrogate at an end of its range beside the scalar just outside it,
# in both orders: (values, index of the first surrogate).
ENCODE_EDGES: Final = (
    ((0xD800, 0xD7FF), 0),
    ((0xD7FF, 0xD800), 1),
    ((0xDFFF, 0xE000), 0),
    ((0xE000, 0xDFFF), 1),
)
# Encoding, family 5: a surrogate followed by the first or last value of the ranges a
# shift-and-compare surrogate test one bit off in width takes for surrogates (v >> 10 or v >> 12
# equal to 0x1B, where v >> 11 == 0x1B is U+D800..U+DFFF): an encoder whose run of surrogates is
# measured by such a test reports the run's end over a character it can encode.
ENCODE_WIDTHS: Final = (
    ((0xD800, 0x6C00), 0),
    ((0xDFFF, 0x6FFF), 0),
    ((0xD800, 0x1B000), 0),
    ((0xDFFF, 0x1BFFF), 0),
)


def _encode_lines(number: int) -> list[str]:
    """Return the YAML of the encoding edges, numbered on from `number`."""
    lines = ["encode:"]
    for offset, (values, index) in enumerate((*ENCODE_EDGES, *ENCODE_WIDTHS), start=1):
        legacy = b"".join(chr(value).encode("utf-8", "surrogatepass") for value in values)
        what = " ".join(f"U+{value:04X}" for value in values)
        lines += [
            f"  - id: edge-{number + offset}",
            f"    description: '{what}: refused at index {index}, its error spanning the"
            " surrogate alone.'",
            "    source: RFC 3629 §3",
            "    flags: [surrogate]",
            f"    scalars: [{names(values)}]",
            f"    error: {{index: {index}, kind: surrogate}}",
            f'    legacy: "{hex_bytes(legacy)}"',
            "",
        ]
    return lines


def _describe(data: bytes, why: str, scalars: list[int], errors: list[Error]) -> str:
    """Return the one-line description: the input, what a conformant codec makes of it."""
    if not errors:
        return f"{why}, well-formed: {names(scalars)}."
    subparts = " | ".join(hex_bytes(data[o : o + n]) for o, n, _ in errors)
    catches = f"; {CATCHES[hex_bytes(data)]}" if hex_bytes(data) in CATCHES else ""
    return f"{why}, one U+FFFD each: {subparts}{catches}."


LITERAL_REPLACEMENT: Final = """\
  literal-replacement:
    defect: >-
      A well-formed U+FFFD (EF BF BD) in the input, beside ill-formed bytes. The literal one is a
      character like any other, and each run of ill-formed bytes beside it gets a U+FFFD of its
      own (Unicode §3.9). Catches a replacing decoder that merges an error into the U+FFFD
      before or after it (the error vanishes), and one that takes EF BF BD for an error.
    attack: >-
      Whoever counts or logs the replacements in a text sees one where the input held an error
      and a literal U+FFFD: the error leaves no trace, and two different byte strings (with and
      without the bad bytes) decode to the same text."""


def render() -> str:
    """Return the text of vectors/edges.yaml."""
    lines = [
        "# Written by bench/edge_vectors.py (python bench/edge_vectors.py); do not edit by hand.",
        'schema_version: "1.0"',
        "theme: edges",
        "description: >",
        "  Every byte value at the edges of every range of RFC 3629 §4, in every position of a",
        "  sequence: each lead range's first and last byte with 7F, 80, BF, C0 (and the narrowed",
        "  limits 9F/A0, 8F/90 after E0, ED, F0, F4) in each later position; the ends of the",
        "  ranges that begin no sequence; a well-formed U+FFFD beside each kind of error; and, to",
        "  encode, each end of the surrogates beside the scalar value just outside it, and",
        "  before the values a surrogate test of the wrong width takes for surrogates.",
        "sources:",
        "  - RFC 3629 §3 (no surrogates), §4 (the ABNF, one alternative a row)",
        "  - Unicode §3.9 Table 3-7 (well-formed byte sequences), D93b (maximal subparts)",
        notes({"literal-replacement": LITERAL_REPLACEMENT}, FLAGS),
        f"retired: [{', '.join(RETIRED)}]",
        "decode:",
    ]
    seen: set[bytes] = set()
    number = 0
    for data, why, flags in _edge_inputs():
        if data in seen or hex_bytes(data) in ELSEWHERE:
            continue
        seen.add(data)
        number += 1
        scalars, errors = _scan(data)
        flags = flags + sorted(
            {k for _, _, k in errors} & {"overlong", "surrogate", "out-of-range"}
        )
        lines += decode_entry(
            f"edge-{number}", _describe(data, why, scalars, errors), flags, data, scalars, errors
        )
    lines += _encode_lines(number)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Write vectors/edges.yaml (or, with --check, compare); return the exit status."""
    return vector_yaml.main(argv, "bench/edge_vectors.py", TARGET, render)


if __name__ == "__main__":
    sys.exit(main())
