"""Short descriptions of values, as the report writes them: text as code points, bytes as hex,
runs of one value shortened as `61*4094`, and what a codec did in a few words."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, Final

from utf8cert.harness.check.expected import Decoded
from utf8cert.harness.codec.interface import Failed, Inapplicable, Outcome, Refused, Returned

RUN: Final = 8
"""A value repeated this many times or more is written once with its count."""
LIMIT: Final = 200
"""At most this many items (values or runs) are written; the rest is counted."""


def plural(count: int, noun: str) -> str:
    """Return '1 vector', '2 vectors', '0 vectors' (`noun` in the singular; 'code point' too)."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


# The start of a run: one value and RUN - 1 copies. The run's end is found with lstrip, in C:
# a backreference repeated over a 64 KiB run of padding would be slow.
_CHAR_RUN_START: Final = re.compile(r"(.)\1{" + str(RUN - 1) + "}", re.DOTALL)
_BYTE_RUN_START: Final = re.compile(_CHAR_RUN_START.pattern.encode("ascii"), re.DOTALL)


def _runs(value: Any, start: re.Pattern[Any]) -> Iterator[tuple[int, int]]:
    """Yield (start, end) of each run of RUN or more equal values in a str or bytes that starts
    within LIMIT + 1 values of the end of the one before: `_items` names nothing farther, and a
    search to the end of a long input would read all of it for nothing."""
    position = 0
    while (found := start.search(value, position, position + LIMIT + 1 + RUN)) is not None:
        # One value repeated, matched in C (a slice of the rest of a long input would copy it).
        one = re.escape(value[found.start() : found.start() + 1])
        repeated = re.compile(one + (b"+" if isinstance(value, bytes) else "+"))
        run = repeated.match(value, found.start())
        position = found.end() if run is None else run.end()  # never None: the run starts here
        yield found.start(), position


def _items(size: int, runs: Iterator[tuple[int, int]], name: Callable[[int], str]) -> list[str]:
    """Return up to LIMIT + 1 names of the elements 0..size-1, each run of one value as one item."""
    items: list[str] = []
    position = 0
    for run_start, run_end in runs:
        items += map(name, range(position, min(run_start, position + LIMIT + 1)))
        items.append(f"{name(run_start)}*{run_end - run_start}")
        position = run_end
        if len(items) > LIMIT:
            return items
    items += map(name, range(position, min(size, position + LIMIT + 1)))
    return items


def _join(items: list[str], empty: str) -> str:
    if not items:
        return empty
    if len(items) > LIMIT:
        return " ".join(items[:LIMIT]) + " …"
    return " ".join(items)


def describe_text(text: Decoded) -> str:
    """Return text as code points ('U+0061*4094 U+20AC'); '(empty text)' for ''."""
    if isinstance(text, tuple):  # values above U+10FFFF: no runs are looked for
        return _join([f"U+{value:04X}" for value in text[: LIMIT + 1]], "(empty text)")
    items = _items(len(text), _runs(text, _CHAR_RUN_START), lambda i: f"U+{ord(text[i]):04X}")
    return _join(items, "(empty text)")


def describe_bytes(data: bytes) -> str:
    """Return bytes as spaced upper-case hex ('61*4094 E2 82 AC'); '(no bytes)' for b''."""
    items = _items(len(data), _runs(data, _BYTE_RUN_START), lambda i: f"{data[i]:02X}")
    return _join(items, "(no bytes)")


def _shorten(message: str, limit: int = 100) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def describe_outcome(outcome: Outcome) -> str:
    """Return what the codec did, in a few words: its output, its refusal, its failure."""
    if isinstance(outcome, Returned):
        value = outcome.value
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, str | tuple):
            return describe_text(value)
        return describe_bytes(value)
    if isinstance(outcome, Refused):
        where = "(no offset)" if outcome.offset is None else f"at {outcome.offset}"
        return f"refused {where}: {_shorten(outcome.message)}"
    if isinstance(outcome, Failed):
        return f"{outcome.kind}: {_shorten(outcome.message)}"
    assert isinstance(outcome, Inapplicable)
    return f"not asked: {outcome.reason}"


def describe_act(outcome: Outcome) -> str:
    """Return what a codec did in a few words, as an act ('refused at 4', 'said False',
    'returned U+10FFFF U+FFFD', 'wrote F0 90 80 80'): the answer alone, never a judgement of
    it (the same act can be right under RFC 3629 and wrong under a dialect)."""
    if isinstance(outcome, Returned):
        value = outcome.value
        if isinstance(value, bool):
            return f"said {value}"
        if isinstance(value, str | tuple):
            return f"returned {_shorten(describe_text(value), 60)}"
        return f"wrote {_shorten(describe_bytes(value), 60)}"
    if isinstance(outcome, Refused):
        return "refused" if outcome.offset is None else f"refused at {outcome.offset}"
    return describe_outcome(outcome)
