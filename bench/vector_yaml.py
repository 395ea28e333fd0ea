"""What the vector-file writers of bench/ share: the YAML of a decoding vector, the notes of the
flags they both use, an RFC 2279 reading for the `legacy` field, and their command line.

bench/edge_vectors.py (vectors/edges.yaml) and bench/automaton_vectors.py
(vectors/automaton.yaml) each choose inputs of their own; this module only writes them down, so
that both files spell a vector, a flag's note and the `--check` the same way.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

Error = tuple[int, int, str]
"""A maximal subpart: (offset, length, kind), kind as vectors/schema.json names it."""


def hex_bytes(data: bytes) -> str:
    """Return `data` as spaced upper-case hex ("" for b"")."""
    return " ".join(f"{byte:02X}" for byte in data)


def names(values: Sequence[int]) -> str:
    """Return the values as comma-separated U+XXXX ("" for none)."""
    return ", ".join(f"U+{value:04X}" for value in values)


def legacy(data: bytes) -> list[int] | None:
    """Return the code points RFC 2279 §2 reads in `data` (surrogates and values past U+10FFFF
    included, non-shortest forms refused, as its §6 asks), None when it rejects the input."""
    out: list[int] = []
    at = 0
    while at < len(data):
        lead = data[at]
        length = next(
            (
                n
                for n, top in ((1, 0x80), (2, 0xE0), (3, 0xF0), (4, 0xF8), (5, 0xFC), (6, 0xFE))
                if lead < top
            ),
            0,
        )
        if length == 0 or 0x80 <= lead < 0xC0 or at + length > len(data):
            return None
        value = lead & (0x7F >> length if length > 1 else 0x7F)
        for byte in data[at + 1 : at + length]:
            if not 0x80 <= byte <= 0xBF:
                return None
            value = value << 6 | byte & 0x3F
        least = (0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000)[length]
        if value < least:
            return None
        out.append(value)
        at += length
    return out


def decode_entry(
    vector_id: str,
    description: str,
    flags: Sequence[str],
    data: bytes,
    out: Sequence[int],
    errors: Sequence[Error],
) -> list[str]:
    """Return the YAML lines of one decoding vector: `out` is the scalars of well-formed input,
    else the replaced output (one U+FFFD a subpart of `errors`); SystemExit for a description
    the file cannot hold (over 200 characters, or quoted)."""
    if len(description) > 200 or "'" in description:
        raise SystemExit(f"description over 200 characters or quoted: {description}")
    lines = [
        f"  - id: {vector_id}",
        f"    description: '{description}'",
        "    source: RFC 3629 §4; Unicode §3.9 Table 3-7" + (", D93b" if errors else ""),
        f"    flags: [{', '.join(flags)}]",
        f'    bytes: "{hex_bytes(data)}"',
        f"    valid: {'false' if errors else 'true'}",
    ]
    if errors:
        lines.append("    errors:")
        for offset, length, kind in errors:
            extra = ", incomplete: true" if kind == "truncated" else ""
            lines.append(f"      - {{offset: {offset}, length: {length}, kind: {kind}{extra}}}")
        lines.append(f"    replaced: [{names(out)}]")
        read = legacy(data)
        if read is not None:
            lines.append(f"    legacy: [{names(read)}]")
    else:
        lines.append(f"    scalars: [{names(out)}]")
    lines.append("")
    return lines


NOTES: Final = {
    "boundary": """\
  boundary:
    defect: >-
      The first or last value of a sequence length, of a lead-byte range or of an allowed
      second-byte range (RFC 3629 §3, §4). Catches off-by-one errors in range checks, which
      reject a valid character or let the invalid one beside it through.""",
    "narrowed-second-byte": """\
  narrowed-second-byte:
    defect: >-
      The second byte is at an end of, or just outside, the narrowed range RFC 3629 §4 gives
      after E0 (A0..BF), ED (80..9F), F0 (90..BF) and F4 (80..8F). Catches a decoder that takes
      any 80..BF after these leads (accepting overlongs, surrogates or values past U+10FFFF) and
      one whose narrowed range is off by one.""",
    "overlong": """\
  overlong:
    defect: >-
      A longer sequence than the value needs (a non-shortest form: C0, C1, E0 80..9F, F0 80..8F,
      and the five- and six-byte forms of small values). RFC 3629 §3 allows only the shortest
      form. Catches a decoder that computes the value from the bits without checking its range.
    attack: >-
      A filter that scans the bytes for 2E ('.'), 2F ('/') or 00 lets C0 AE, C0 AF or C0 80
      through, and the lax decoder behind it turns them into '.', '/' or NUL: "/../" path
      traversal (the 2001 web-server worm of RFC 3629 §10), NUL injection.""",
    "surrogate": """\
  surrogate:
    defect: >-
      Encodes, or asks to encode, a UTF-16 surrogate code point U+D800..U+DFFF (ED A0..BF ..).
      RFC 3629 §3 prohibits encoding them. Catches a codec that checks only the bit pattern.
    attack: >-
      A lone surrogate turns into ill-formed UTF-16 downstream (corruption, crashes); a pair of
      them is a second spelling of a supplementary character that bypasses checks made on its
      four-byte form.""",
    "out-of-range": """\
  out-of-range:
    defect: >-
      A value above U+10FFFF (F4 90..BF, F5..F7, or an encoder input above U+10FFFF). RFC 3629
      §3 limits UTF-8 to U+0000..U+10FFFF. Catches a codec that still follows RFC 2279's range.
    attack: >-
      A value past U+10FFFF overflows UTF-16 conversion and any table indexed by code point
      (RFC 3629 §10: "buffer overflow if the range of character numbers is not explicitly
      limited to U+10FFFF").""",
}
"""The note of each flag both files use, as it appears under `notes:`."""


def notes(own: dict[str, str], order: Sequence[str]) -> str:
    """Return the `notes:` block: each flag of `order`, its note from `own` or else NOTES."""
    return "\n".join(["notes:", *((own | NOTES)[flag] for flag in order)])


def main(argv: Sequence[str] | None, script: str, target: Path, render: Callable[[], str]) -> int:
    """Write `target` with `render()`'s text, or with --check compare it (1 on a difference,
    naming the file and `script`); return the exit status."""
    doc = sys.modules["__main__"].__doc__ or script
    parser = argparse.ArgumentParser(prog=script, description=doc.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target} is not what {script} writes: rerun it", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    return 0
