"""Returns the shortest input on which a mutant's codec behaves otherwise than the original's.

    python bench/mutation/equivalence.py ORIGINAL.py MUTANT.py     (prints one JSON line)

A mutant that utf8cert's check does not kill is equivalent (no input tells it from the
original), a codec that makes another of the choices the standard leaves open (it differs from
the original only there: `choice`), or a defect the suite misses. This decides which, with no
reference: the two codecs
(each module's `Subject`) are compared, capability by capability, on

- every input of 0, 1 and 2 bytes, then 3-byte inputs of each lead C0..F7 with two bytes from
  a representative set (the edges of every range of RFC 3629 §4) and 4-byte ones of each lead
  F0..F7 likewise: decode, decode_replace, validate, and the incremental decoder fed every
  chunking of the input (with and without a final empty chunk);
- every code point, alone, for encode, then every string of one to three code points taken
  from the edges of the encoding ranges and of the surrogates;
- a Hypothesis campaign (derandomized: the same every run) of longer inputs, byte strings cut
  into chunks of every size and strings with surrogates; Hypothesis shrinks what it finds.

The first difference found is the shortest (inputs are tried in order of length); the answer
names the capability, the input and both outcomes; a choice is reported only when every input
was compared and nothing else told the two apart. Run it in a child process with a time
limit: a mutant may hang on an input the check never fed it.
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any

from hypothesis import find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

EDGES = bytes([0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF])
"""Bytes at the edge of each range a lead's second byte is checked against (RFC 3629 §4)."""
POINTS = [0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF]
POINTS += [0x10000, 0x10FFFF]
"""Code points at the edge of each encoding length and of the surrogates."""
CAMPAIGN = settings(max_examples=3000, derandomize=True, database=None, deadline=None)

Outcome = tuple[Any, ...]
Difference = dict[str, str]


def load(path: str, name: str) -> Any:
    """Return a fresh `Subject()` of the module at `path`."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Subject()


def outcome(call: Callable[[], object]) -> Outcome:
    """Return what `call` does: ("returns", value), or the exception with its offsets."""
    try:
        return ("returns", call())
    except (UnicodeDecodeError, UnicodeEncodeError) as error:
        return ("raises", type(error).__name__, error.start, error.end)
    except Exception as error:  # a mutant may crash anywhere: that is behaviour too
        return ("crashes", type(error).__name__)


def fed(codec: Any, chunks: Sequence[bytes], last_empty: bool) -> Outcome:
    """Return the outputs of a fresh incremental decoder fed `chunks` (the last final, or an
    empty final chunk after them), up to and including the first exception."""
    decoder = codec.incremental_decoder()
    sequence = [*chunks, b""] if last_empty else list(chunks)
    outputs: list[Outcome] = []
    for index, chunk in enumerate(sequence):
        final = index == len(sequence) - 1
        result = outcome(functools.partial(decoder.decode, chunk, final))
        outputs.append(result)
        if result[0] != "returns":
            break
    return tuple(outputs)


def chunkings(data: bytes) -> Iterator[list[bytes]]:
    """Yield every way of cutting `data` into non-empty chunks (one way for b"")."""
    cuts = range(1, len(data))
    for count in range(len(data)):
        for chosen in itertools.combinations(cuts, count):
            bounds = [0, *chosen, len(data)]
            yield [data[a:b] for a, b in itertools.pairwise(bounds)]


def decoding(original: Any, mutant: Any, data: bytes, every_chunking: bool) -> Difference | None:
    """Return the first difference of the two codecs on `data`, or None."""
    asks: list[tuple[str, Callable[[Any], Outcome]]] = [
        ("decode", lambda c: outcome(lambda: c.decode(data))),
        ("decode_replace", lambda c: outcome(lambda: c.decode_replace(data))),
        ("validate", lambda c: outcome(lambda: c.validate(data))),
    ]
    ways = chunkings(data) if every_chunking else iter([[data], [bytes([b]) for b in data]])
    for chunks in ways:
        for last_empty in (False, True):
            ending = " + final b''" if last_empty else ""
            name = f"incremental {[c.hex() for c in chunks]}{ending}"
            asks.append((name, functools.partial(fed, chunks=chunks, last_empty=last_empty)))
    for name, ask in asks:
        expected, actual = ask(original), ask(mutant)
        if expected != actual:
            return {"capability": name, "input": data.hex(" "), "original": repr(expected),
                    "mutant": repr(actual)}  # fmt: skip
    return None


def encoding(original: Any, mutant: Any, text: str, choices: list[Difference]) -> Difference | None:
    """Return the difference of the two codecs' encode on `text`, or None. A difference that is
    only the codec's choice (`choice`) is not one: it is added to `choices` instead."""
    expected, actual = outcome(lambda: original.encode(text)), outcome(lambda: mutant.encode(text))
    if expected == actual:
        return None
    points = " ".join(f"U+{ord(c):04X}" for c in text)
    found = {"capability": "encode", "input": points, "original": repr(expected),
             "mutant": repr(actual)}  # fmt: skip
    if choice(expected, actual, text):
        choices.append(found | {"choice": "each surrogate of a run its own error"})
        return None
    return found


def choice(expected: Outcome, actual: Outcome, text: str) -> bool:
    """Return True when two encode outcomes differ only in a choice the standard leaves to the
    codec: both refuse `text` at the same surrogate, the mutant's error ending sooner inside the
    run of surrogates the original's error covers. A surrogate has no UTF-8 form (RFC 3629 §3)
    and a string of code points has no maximal subpart longer than one, so a run may be one
    error (CPython) or one a surrogate (tests/support/hand_rolled.py); utf8cert's check accepts
    both."""
    if expected[:3] != actual[:3] or expected[:2] != ("raises", "UnicodeEncodeError"):
        return False
    start, end, sooner = expected[2], expected[3], actual[3]
    return start < sooner < end and all(0xD800 <= ord(c) <= 0xDFFF for c in text[start:end])


def exhaustive_inputs() -> Iterator[bytes]:
    """Yield the byte strings compared in full, shortest first."""
    yield b""
    yield from (bytes([a]) for a in range(256))
    yield from (bytes([a, b]) for a in range(256) for b in range(256))
    for lead in range(0xC0, 0xF8):
        yield from (bytes([lead, b, c]) for b in EDGES for c in EDGES)
    for lead in range(0xF0, 0xF8):
        yield from (bytes([lead, b, c, d]) for b in EDGES for c in EDGES for d in EDGES)


def compare(original: Any, mutant: Any) -> Difference | None:
    """Return the first (shortest) difference between the two codecs; when the only ones found
    are the codec's choice (`choice`), the first of those, marked "choice"; None if none."""
    choices: list[Difference] = []
    for data in exhaustive_inputs():
        found = decoding(original, mutant, data, every_chunking=len(data) <= 3)
        if found:
            return found
    for point in range(0x110000):
        found = encoding(original, mutant, chr(point), choices)
        if found:
            return found
    for size in (2, 3):
        for points in itertools.product(POINTS, repeat=size):
            found = encoding(original, mutant, "".join(map(chr, points)), choices)
            if found:
                return found
    return campaign(original, mutant, choices) or (choices[0] if choices else None)


def campaign(original: Any, mutant: Any, choices: list[Difference]) -> Difference | None:
    """Return a difference Hypothesis finds on longer inputs (shrunk), or None (the codec's
    choices it meets on the way are added to `choices`)."""
    byte = st.sampled_from(sorted(set(EDGES) | {0x41, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4}))
    inputs = st.lists(byte | st.integers(0, 255), min_size=3, max_size=24).map(bytes)
    cut = st.tuples(inputs, st.lists(st.integers(1, 5), max_size=12))

    def differs(case: tuple[bytes, list[int]]) -> bool:
        if decoding(original, mutant, case[0], every_chunking=False) is not None:
            return True
        return fed(original, split(*case), False) != fed(mutant, split(*case), False)

    try:
        shortest = find(cut, differs, settings=CAMPAIGN)
    except NoSuchExample:
        shortest = None
    if shortest is not None:
        data, chunks = shortest[0], split(*shortest)
        found = decoding(original, mutant, data, every_chunking=len(data) <= 8)
        return found or {"capability": f"incremental {[c.hex() for c in chunks]}",
                         "input": data.hex(" "), "original": repr(fed(original, chunks, False)),
                         "mutant": repr(fed(mutant, chunks, False))}  # fmt: skip
    point = st.sampled_from(POINTS) | st.integers(0, 0x10FFFF)
    text = st.lists(point, min_size=2, max_size=12).map(lambda p: "".join(map(chr, p)))
    try:
        found_text = find(
            text, lambda t: bool(encoding(original, mutant, t, choices)), settings=CAMPAIGN
        )
    except NoSuchExample:
        return None
    return encoding(original, mutant, found_text, choices)


def split(data: bytes, sizes: list[int]) -> list[bytes]:
    """Return `data` cut into chunks of `sizes` (cycled), the rest in one last chunk."""
    chunks, index = [], 0
    for size in itertools.cycle(sizes or [len(data) or 1]):
        if index >= len(data):
            break
        chunks.append(data[index : index + size])
        index += size
    return chunks


def main(argv: Sequence[str]) -> int:
    """Print the first difference of the mutant at argv[1] from the codec at argv[0] as JSON
    (null if none is found; with a "choice" key if it is only the codec's choice); return 0."""
    original, mutant = load(argv[0], "original"), load(argv[1], "mutant")
    print(json.dumps(compare(original, mutant)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
