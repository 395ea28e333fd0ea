"""What an encoder did with values that have no UTF-8 form, when it wrote well-formed bytes
instead of refusing: substituted a replacement, wrote another character, joined a surrogate pair,
or dropped the value.

RFC 3629 §3 gives surrogates and values above U+10FFFF no UTF-8 form. An encoder that refuses
them is right; one that writes them is wrong at `must`. One that writes well-formed UTF-8 anyway
has done one of three things, told apart here by lining its output up with its input:

- substituted a replacement character (U+FFFD, as the WHATWG TextEncoder does; "?", as Java's
  getBytes does): the data changed, visibly — a `should`-level departure;
- wrote any other character in its place ("A", or U+10000 as an encoder that reads a lone
  surrogate as a pair does): the data changed into other data that looks right — `must`, as a
  decoder that writes a character for ill-formed input;
- joined a high and a low surrogate into the supplementary character they stand for in UTF-16
  (ICU, SQLite): a different code point sequence was written — `must`;
- dropped the value without a trace — `must`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

SUBSTITUTED: Final = "substituted"
OTHER: Final = "other"
"""Another character written in the place of an unencodable value: neither U+FFFD nor '?'."""
REPLACEMENTS: Final = frozenset({0xFFFD, 0x3F})
"""What an encoder may write in the place of an unencodable value: U+FFFD (Unicode's
replacement character, the WHATWG encoder's) or '?' (the replacement byte of Java's and ICU's
legacy converters). Any other character is data the input never held."""
JOINED: Final = "joined"
DROPPED: Final = "dropped"

HIGH: Final = range(0xD800, 0xDC00)
LOW: Final = range(0xDC00, 0xE000)
LARGEST_ALIGNMENT: Final = 1 << 16
"""Past this many (value, character) cells, and as many states visited, the output is not lined
up: it is just wrong."""


def _unencodable(value: int) -> bool:
    return value > 0x10FFFF or 0xD800 <= value <= 0xDFFF


def _joined(high: int, low: int) -> int:
    return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)


def fate(values: Sequence[int], written: Sequence[int]) -> frozenset[str] | None:
    """Return what became of the unencodable values among `values`, given the code points of
    the well-formed output (a set of SUBSTITUTED, OTHER, JOINED, DROPPED; the mildest
    explanation),
    or None when the output is not the input with only those values changed.

    The caller trims what the two have in common at either end: the work grows with the
    product of the lengths at worst. Past LARGEST_ALIGNMENT cells the alignment goes on only
    while it has visited fewer states than that, else the answer is None: a long text with a
    few unencodable values far apart (the seeded pass's, check/seeded.py) lines up in a few
    states a value, where the product alone called a '?' for each "other text".
    """
    bounded = len(values) * max(1, len(written)) > LARGEST_ALIGNMENT
    explanations: list[frozenset[str]] = []
    seen: set[tuple[int, int, frozenset[str]]] = set()
    pending: list[tuple[int, int, frozenset[str]]] = [(0, 0, frozenset())]
    while pending:
        state = pending.pop()
        if state in seen:
            continue
        seen.add(state)
        if bounded and len(seen) > LARGEST_ALIGNMENT:
            return None
        index, at, kinds = state
        if index == len(values):
            if at == len(written):
                explanations.append(kinds)
            continue
        value = values[index]
        if not _unencodable(value):
            if at < len(written) and written[at] == value:
                pending.append((index + 1, at + 1, kinds))
            continue
        pending.append((index + 1, at, kinds | {DROPPED}))
        if at < len(written):
            written_instead = SUBSTITUTED if written[at] in REPLACEMENTS else OTHER
            pending.append((index + 1, at + 1, kinds | {written_instead}))
            following = values[index + 1] if index + 1 < len(values) else -1
            if value in HIGH and following in LOW and written[at] == _joined(value, following):
                pending.append((index + 2, at + 1, kinds | {JOINED}))
    if not explanations:
        return None
    return min(
        explanations,
        key=lambda kinds: (DROPPED in kinds, JOINED in kinds, OTHER in kinds, len(kinds)),
    )
